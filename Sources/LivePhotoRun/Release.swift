/// What this build of lpcheck is: `--version` prints it, object storage requests name it in
/// their `User-Agent`.
public enum Release {
    public static let version = "0.1.0"
}
