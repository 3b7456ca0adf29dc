import LivePhotoFormats

/// Content Credentials (C2PA) in `dump`: where the store is, each manifest (the active one
/// last), its hard binding and whether it holds, its signer. The signature is not verified, and
/// the text says so.
enum DumpCredentials {
    static func where_(_ location: ContentCredentials.Location) -> String {
        switch location {
        case .jpegSegments(let ranges): return "\(Plural.count(ranges.count, "APP11 JUMBF segment")) from byte \(ranges.first?.lowerBound ?? 0)"
        case .bmffBox(let range): return "the C2PA uuid box at byte \(range.lowerBound) (\(range.count) bytes)"
        }
    }

    static func binding(_ binding: ContentCredentials.HardBinding?) -> String {
        switch binding {
        case nil: return "none"
        case .data(let algorithm, _, let exclusions)?:
            return "c2pa.hash.data (\(algorithm), excluding \(exclusions.map { "\($0.count) bytes at \($0.lowerBound)" }.joined(separator: ", ")))"
        case .bmff(let hash)?:
            return "\(hash.label)\(hash.algorithm.map { " (\($0))" } ?? "")\(hash.exclusions.isEmpty ? "" : ", excluding \(hash.exclusions.map(\.xpath).joined(separator: ", "))")\(hash.hasMerkleTree ? ", a Merkle tree over fragments" : "")"
        }
    }

    static func lines(_ file: MediaFile) -> [(Int, String)] {
        if let problem = file.credentialsProblem { return [(1, "Content Credentials (C2PA)"), (2, "not read: \(problem)")] }
        guard let credentials = file.credentials else { return [] }
        var lines: [(Int, String)] = [(1, "Content Credentials (C2PA): \(where_(credentials.location)), \(Plural.count(credentials.manifests.count, "manifest"))")]
        for (index, manifest) in credentials.manifests.enumerated() {
            let active = index == credentials.manifests.count - 1 ? " (active)" : ""
            lines.append((2, "manifest \(manifest.label)\(active)"))
            if let generator = manifest.claimGenerator { lines.append((3, "claim generator: \(generator)")) }
            if let title = manifest.title { lines.append((3, "title: \(title)")) }
            lines.append((3, "assertions: \(manifest.assertions.joined(separator: ", "))"))
            lines.append((3, "hard binding: \(binding(manifest.hardBinding))"))
            lines.append((3, "signed by: \(manifest.signer ?? "no certificate found")\(manifest.signatureAlgorithm.map { " (\($0))" } ?? ""); the signature is not verified"))
        }
        if let result = file.credentialsBinding {
            let verdict = result.holds.map { $0 ? "holds" : "DOES NOT HOLD" } ?? "not checked"
            lines.append((2, "binding of the active manifest: \(verdict): \(result.detail)"))
        }
        lines += credentials.problems.map { (2, "not read: \($0)") }
        return lines
    }

    static func json(_ file: MediaFile) -> JSONValue {
        if let problem = file.credentialsProblem { return .object([("problem", .string(problem))]) }
        guard let credentials = file.credentials else { return .null }
        let location: JSONValue
        switch credentials.location {
        case .jpegSegments(let ranges):
            location = .object([("container", .string("jpeg-app11")), ("ranges", .array(ranges.map { .object([("offset", .int($0.lowerBound)), ("length", .int($0.upperBound - $0.lowerBound))]) }))])
        case .bmffBox(let range):
            location = .object([("container", .string("bmff-uuid")), ("ranges", .array([.object([("offset", .int(range.lowerBound)), ("length", .int(range.upperBound - range.lowerBound))])]))])
        }
        return .object([
            ("location", location),
            ("activeManifest", .optional(credentials.active?.label)),
            ("manifests", .array(credentials.manifests.map { manifest in
                var binding: JSONValue = .null
                switch manifest.hardBinding {
                case .data(let algorithm, let hash, let exclusions)?:
                    binding = .object([("label", .string("c2pa.hash.data")), ("algorithm", .string(algorithm)), ("hash", .string(hash.map { String($0, radix: 16).leftPadded(2) }.joined())),
                                       ("exclusions", .array(exclusions.map { .object([("offset", .int($0.lowerBound)), ("length", .int($0.upperBound - $0.lowerBound))]) }))])
                case .bmff(let hash)?:
                    var fields: [(String, JSONValue)] = [("label", .string(hash.label)), ("algorithm", .optional(hash.algorithm))]
                    if let value = hash.hash { fields.append(("hash", .string(value.map { String($0, radix: 16).leftPadded(2) }.joined()))) }
                    fields.append(("boxExclusions", .array(hash.exclusions.map { .string($0.xpath) })))
                    binding = .object(fields)
                case nil:
                    break
                }
                return .object([
                    ("label", .string(manifest.label)), ("claimGenerator", .optional(manifest.claimGenerator)), ("title", .optional(manifest.title)),
                    ("format", .optional(manifest.format)), ("assertions", .array(manifest.assertions.map(JSONValue.string))), ("hardBinding", binding),
                    ("signer", .optional(manifest.signer)), ("signatureAlgorithm", .optional(manifest.signatureAlgorithm)), ("signatureVerified", .bool(false)),
                ])
            })),
            ("binding", file.credentialsBinding.map { .object([("holds", $0.holds.map(JSONValue.bool) ?? .null), ("detail", .string($0.detail))]) } ?? .null),
            ("problems", .array(credentials.problems.map(JSONValue.string))),
        ])
    }
}
