/// The software version written into every photo's sidecar.
public enum BoothVersion {
    public static let string = "0.1.0"
}
