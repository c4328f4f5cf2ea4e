import Config
#if canImport(Glibc)
import Glibc
#endif

/// The model files Booth needs, with the sha256 that scripts/fetch-models pins (a test keeps the
/// two lists equal), and where to find them.
public enum ModelFiles {
    public static let pinned: [(name: String, sha256: String)] = [
        ("face_detection_short_range.tflite", "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8"),
        ("face_detection_full_range_sparse.tflite", "2c3728e6da56f21e21a320433396fb06d40d9088f2247c05e5635a688d45dfe1"),
        ("face_landmark.tflite", "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814"),
        ("iris_landmark.tflite", "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"),
        ("selfie_segmentation.tflite", "9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c"),
        ("selfie_segmentation_landscape.tflite", "a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd"),
    ]

    /// Directories searched, in order: `./models`, the installed data directories — or only
    /// `$BOOTH_MODELS` when it is set, so a wrong value is reported instead of silently replaced.
    public static var searchPath: [String] {
        let all = DataFiles.searchPath(subdirectory: "models", environment: "BOOTH_MODELS")
        if let env = getenv("BOOTH_MODELS"), env.pointee != 0 { return Array(all.prefix(1)) }
        return all
    }

    /// The first directory that holds every model file, or nil.
    public static func directory() -> String? {
        searchPath.first { dir in pinned.allSatisfy { access("\(dir)/\($0.name)", R_OK) == 0 } }
    }
}
