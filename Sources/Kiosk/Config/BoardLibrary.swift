import Config

/// Finds board files by name (`$BOOTH_BOARDS`, `./boards`, the installed data directories) or
/// path; see `DataFiles`.
public enum BoardLibrary {
    public static func load(_ nameOrPath: String) throws(ConfigError) -> Board {
        try DataFiles.load(nameOrPath, kind: "board", subdirectory: "boards", environment: "BOOTH_BOARDS", parse: Board.parse)
    }
}
