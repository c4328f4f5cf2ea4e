import Config

/// Finds passport profiles by name (`$BOOTH_PROFILES`, `./profiles`, the installed data
/// directories) or path; see `DataFiles`.
public enum ProfileLibrary {
    public static func load(_ nameOrPath: String) throws(ConfigError) -> Profile {
        try DataFiles.load(nameOrPath, kind: "profile", subdirectory: "profiles", environment: "BOOTH_PROFILES",
                           parse: Profile.parse)
    }
}
