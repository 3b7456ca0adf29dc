/// A C2PA manifest store (Content Credentials) as a file carries it: where (a JPEG's APP11 JUMBF
/// segments, or an ISO BMFF file's C2PA `uuid` box), each manifest's claim generator, assertions
/// by label, hard binding and signer; the last manifest is the active one. The signature itself
/// is not verified: the binding (the hash over the file's bytes, a data hash or a BMFF hash) is, by `ContentCredentials.binding`.
public struct ContentCredentials: Sendable, Equatable {
    public enum Location: Sendable, Equatable {
        /// A JPEG's APP11 segments (`JP`, box instance, sequence), each segment's whole range.
        case jpegSegments([Range<Int64>])
        /// An ISO BMFF file's top-level `uuid` box (C2PA's extended type).
        case bmffBox(Range<Int64>)
    }

    public enum HardBinding: Sendable, Equatable {
        /// `c2pa.hash.data`: the hash of every byte of the file but the exclusions.
        case data(algorithm: String, hash: [UInt8], exclusions: [Range<Int64>])
        /// `c2pa.hash.bmff` (v1, v2, v3): a hash over an ISO BMFF file but boxes chosen by path.
        case bmff(BMFFHash)
    }

    public struct Manifest: Sendable, Equatable {
        public var label: String
        public var claimGenerator: String?
        public var title: String?
        public var format: String?
        /// The assertion store's assertions, by label, in order.
        public var assertions: [String] = []
        public var hardBinding: HardBinding?
        /// The signing certificate's subject (`CN=…, O=…`), from the COSE signature's x5chain.
        public var signer: String?
        /// COSE's algorithm (`ES256`, `PS256`, …).
        public var signatureAlgorithm: String?
    }

    public var location: Location
    /// The store's bytes in the file.
    public var size: Int
    public var manifests: [Manifest] = []
    /// What could not be read in the store (each said, nothing thrown).
    public var problems: [String] = []

    /// The active manifest: the store's last.
    public var active: Manifest? { manifests.last }

    /// C2PA's JUMBF content types, by the first four bytes of their UUID.
    static let storeType = "c2pa", manifestTypes: Set<String> = ["c2ma", "c2um"], assertionStoreType = "c2as", claimType = "c2cl", signatureType = "c2cs"

    /// The store read from its JUMBF bytes.
    public init(store bytes: [UInt8], location: Location) throws {
        self.location = location
        size = bytes.count
        let boxes: JUMBF
        do { boxes = try JUMBF(bytes) } catch { throw ParseError(.invalidValue, "the C2PA manifest store: \(error)", offset: 0) }
        guard let root = boxes.children(of: nil).first(where: { boxes.nodes[$0].contentType == Self.storeType }) else {
            throw ParseError(.invalidValue, "the JUMBF holds no C2PA manifest store (a superbox of type c2pa)", offset: 0)
        }
        for index in boxes.children(of: root) where Self.manifestTypes.contains(boxes.nodes[index].contentType ?? "") {
            manifests.append(manifest(boxes, index, bytes))
        }
    }

    mutating func manifest(_ boxes: JUMBF, _ index: Int, _ bytes: [UInt8]) -> Manifest {
        let label = boxes.nodes[index].label ?? "(no label)"
        var manifest = Manifest(label: label)
        var claimAlgorithm: String?
        func cbor(in superbox: Int) -> CBORValue? {
            guard let content = boxes.children(of: superbox).first(where: { boxes.nodes[$0].type == "cbor" }) else { return nil }
            do {
                return try CBORDecoder.decode(Array(bytes[boxes.nodes[content].payload]))
            } catch {
                problems.append("\(label)/\(boxes.nodes[superbox].label ?? "?"): \(error)")
                return nil
            }
        }
        for part in boxes.children(of: index) {
            let node = boxes.nodes[part]
            switch node.contentType {
            case Self.assertionStoreType:
                for assertion in boxes.children(of: part) {
                    let name = boxes.nodes[assertion].label ?? "(no label)"
                    manifest.assertions.append(name)
                    if name.hasPrefix("c2pa.hash.data"), manifest.hardBinding == nil, let value = cbor(in: assertion) {
                        manifest.hardBinding = dataHash(value, label: "\(label)/\(name)")
                    } else if name.hasPrefix("c2pa.hash.bmff"), manifest.hardBinding == nil, let value = cbor(in: assertion) {
                        manifest.hardBinding = .bmff(BMFFHash(label: name, value, problems: &problems, where: "\(label)/\(name)"))
                    }
                }
            case Self.claimType:
                if let claim = cbor(in: part) {
                    manifest.claimGenerator = claim["claim_generator"]?.text ?? claim["claim_generator_info"].flatMap(Self.generatorName)
                    manifest.title = claim["dc:title"]?.text
                    manifest.format = claim["dc:format"]?.text
                    claimAlgorithm = claim["alg"]?.text
                    if case .data(let algorithm, let hash, let exclusions)? = manifest.hardBinding, algorithm.isEmpty, let alg = claimAlgorithm {
                        manifest.hardBinding = .data(algorithm: alg, hash: hash, exclusions: exclusions)
                    }
                }
            case Self.signatureType:
                if let signature = cbor(in: part) { (manifest.signer, manifest.signatureAlgorithm) = Self.signer(signature) }
            default:
                continue
            }
        }
        switch manifest.hardBinding {
        case .data(let algorithm, let hash, let exclusions)? where algorithm.isEmpty:
            manifest.hardBinding = .data(algorithm: "sha256", hash: hash, exclusions: exclusions)
        case .bmff(var hash)? where hash.algorithm == nil:
            // Without its own `alg`, the claim's, else sha256.
            hash.algorithm = claimAlgorithm ?? "sha256"
            manifest.hardBinding = .bmff(hash)
        default:
            break
        }
        return manifest
    }

    /// `c2pa.hash.data`: `alg` (or the claim's), `hash`, `exclusions` of `start` and `length`.
    mutating func dataHash(_ value: CBORValue, label: String) -> HardBinding? {
        guard let hash = value["hash"]?.bytes else {
            problems.append("\(label): no hash")
            return nil
        }
        var exclusions: [Range<Int64>] = []
        for exclusion in value["exclusions"]?.array ?? [] {
            guard let start = exclusion["start"]?.integer, let length = exclusion["length"]?.integer, start >= 0, length >= 0, start <= Int64.max - length else {
                problems.append("\(label): an exclusion that is no start and length")
                return nil
            }
            exclusions.append(start..<(start + length))
        }
        return .data(algorithm: value["alg"]?.text ?? "", hash: hash, exclusions: exclusions)
    }

    /// A claim v2's generator: `claim_generator_info`'s name and version.
    static func generatorName(_ info: CBORValue) -> String? {
        let entry = info.array?.first ?? info
        guard let name = entry["name"]?.text else { return nil }
        return entry["version"]?.text.map { "\(name)/\($0)" } ?? name
    }

    /// COSE_Sign1 (tag 18): its protected header's algorithm and x5chain (label 33; older
    /// stores put it unprotected), the first certificate's subject.
    static func signer(_ value: CBORValue) -> (String?, String?) {
        guard let parts = value.untagged.array, parts.count == 4 else { return (nil, nil) }
        let protected = parts[0].bytes.flatMap { try? CBORDecoder.decode($0) }
        let algorithm = protected?[label: 1]?.integer.flatMap(Self.algorithmName)
        let chain = protected?[label: 33] ?? parts[1][label: 33] ?? parts[1]["x5chain"]
        let first = chain?.bytes ?? chain?.array?.first?.bytes
        return (first.flatMap(DERName.subject), algorithm)
    }

    static func algorithmName(_ value: Int64) -> String? {
        [-7: "ES256", -35: "ES384", -36: "ES512", -37: "PS256", -38: "PS384", -39: "PS512", -8: "EdDSA"][value] ?? "COSE \(value)"
    }
}
