import LivePhotoFormats

/// What the rules know of a file's Content Credentials (C2PA). Found from headers alone in a
/// plain `check` (where the store is); with `--verify-credentials` the store is read and its
/// active manifest's binding recomputed.
public struct CredentialsFacts: Sendable, Codable, Equatable {
    /// `jpeg-app11` or `bmff-uuid`.
    public var container: String
    /// The store was read (`--verify-credentials`).
    public var verified = false
    public var activeManifest: String?
    public var signer: String?
    /// Whether the active manifest's hard binding holds; nil when not computed.
    public var binding: Bool?
    /// Why: the hash compared, the binding not recomputed, the store not read.
    public var detail: String?

    public init(container: String) { self.container = container }

    /// A file's credentials: read ones when the reader read them, else where they are; nil when none.
    init?(_ file: MediaFile) {
        if let problem = file.credentialsProblem {
            self.init(container: file.credentialsContainer ?? "unknown")
            (verified, detail) = (true, "the store could not be read: \(problem)")
        } else if let credentials = file.credentials {
            switch credentials.location {
            case .jpegSegments: self.init(container: "jpeg-app11")
            case .bmffBox: self.init(container: "bmff-uuid")
            }
            verified = true
            (activeManifest, signer) = (credentials.active?.label, credentials.active?.signer)
            (binding, detail) = (file.credentialsBinding?.holds, file.credentialsBinding?.detail)
        } else if let container = file.credentialsContainer {
            self.init(container: container)
        } else {
            return nil
        }
    }
}
