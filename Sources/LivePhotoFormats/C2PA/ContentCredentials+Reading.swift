/// Where a file's manifest store is, and whether its hard binding holds.
extension ContentCredentials {
    /// C2PA's `uuid` box extended type (ISO BMFF files).
    public static let bmffUUID: [UInt8] = [0xD8, 0xFE, 0xC3, 0xD6, 0x1B, 0x0E, 0x48, 0x3C, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7E, 0xC4, 0x81]
    /// The most a store may hold to be read (its bytes are held at once).
    public static let maxStoreBytes = 64 << 20

    /// A JPEG's store: its APP11 segments of common identifier `JP`, one box instance's packets
    /// in sequence order, the box header each packet after the first repeats left out. nil when
    /// no APP11 segment holds a C2PA store.
    public static func read(jpeg segments: [JPEGSegment], source: ByteSource) throws -> ContentCredentials? {
        var instances: [UInt16: [(sequence: UInt32, segment: JPEGSegment, payload: [UInt8])]] = [:]
        var total = 0
        for segment in segments where segment.marker == 0xEB && segment.length >= 8 + 8 {
            let payload = try source.read(at: segment.payloadOffset, count: segment.length)
            guard payload.count >= 16, payload[0] == 0x4A, payload[1] == 0x50 else { continue }
            total += payload.count
            guard total <= maxStoreBytes else { throw ParseError(.limitExceeded, "APP11 segments of more than \(maxStoreBytes) bytes", offset: segment.offset) }
            let instance = UInt16(payload[2]) << 8 | UInt16(payload[3])
            let sequence = payload[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            instances[instance, default: []].append((sequence, segment, payload))
        }
        for (_, packets) in instances.sorted(by: { $0.key < $1.key }) {
            let ordered = packets.sorted { $0.sequence < $1.sequence }
            var bytes: [UInt8] = []
            for (index, packet) in ordered.enumerated() {
                // The first packet holds the box from its header; the others repeat the header (LBox, TBox, XLBox when LBox is 1).
                var skip = 8
                if index > 0 { skip += JUMBF.u32(packet.payload, 8) == 1 ? 16 : 8 }
                guard skip <= packet.payload.count else { throw ParseError(.truncated, "an APP11 JUMBF packet shorter than its header", offset: packet.segment.offset) }
                bytes += packet.payload[skip...]
            }
            let location = Location.jpegSegments(ordered.map { $0.segment.offset..<($0.segment.payloadOffset + Int64($0.segment.length)) })
            // A box instance that holds other JUMBF (no C2PA store) is not this; a C2PA store that
            // cannot be read is said.
            let isStore = bytes.count >= 28 && bytes[4..<8].elementsEqual("jumb".utf8) && bytes[12..<16].elementsEqual("jumd".utf8)
                && bytes[16..<20].elementsEqual(storeType.utf8)
            guard isStore else { continue }
            do {
                return try ContentCredentials(store: bytes, location: location)
            } catch {
                throw ParseError(.invalidValue, "the C2PA store in the APP11 segments from byte \(ordered.first?.segment.offset ?? 0): \(error)", offset: ordered.first?.segment.offset ?? 0)
            }
        }
        return nil
    }

    /// An ISO BMFF file's store: the top-level `uuid` box of C2PA's type, purpose `manifest`.
    public static func read(bmff boxes: [Box], source: ByteSource) throws -> ContentCredentials? {
        guard let box = boxes.first(where: { $0.type == "uuid" && $0.userType == bmffUUID }) else { return nil }
        guard box.payloadSize <= Int64(maxStoreBytes), box.end <= source.size else {
            throw ParseError(.limitExceeded, "a C2PA uuid box of \(box.payloadSize) bytes (at most \(maxStoreBytes) read, within the file)", offset: box.offset)
        }
        // The payload after the extended type: version and flags, the purpose (a C string), an
        // 8-byte offset for the manifest's purpose, then the store.
        let start = box.payloadOffset
        let payload = try source.read(at: start, count: Int(box.payloadSize))
        guard payload.count > 5, let zero = payload[4...].firstIndex(of: 0) else { throw ParseError(.invalidValue, "a C2PA uuid box without its purpose", offset: start) }
        let purpose = String(decoding: payload[4..<zero], as: UTF8.self)
        guard purpose == "manifest" else { return nil }
        let storeStart = zero + 1 + 8
        guard storeStart <= payload.count else { throw ParseError(.truncated, "a C2PA uuid box cut short", offset: start) }
        return try ContentCredentials(store: Array(payload[storeStart...]), location: .bmffBox(box.offset..<box.end))
    }

    /// Whether the active manifest's hard binding holds for the file's bytes.
    public struct Binding: Sendable, Equatable {
        /// nil: not computed (an algorithm other than sha256, a Merkle tree alone, boxes that cannot be read, no hard binding).
        public var holds: Bool?
        public var detail: String
    }

    /// The active manifest's data hash recomputed over `source` (every byte but the exclusions,
    /// read 1 MiB at a time).
    public func binding(source: ByteSource) throws -> Binding {
        guard let active else { return Binding(holds: nil, detail: "no manifest in the store") }
        switch active.hardBinding {
        case nil:
            return Binding(holds: nil, detail: "the active manifest has no hard binding assertion")
        case .bmff(let bmff):
            return try Self.binding(bmff, source: source)
        case .data(let algorithm, let expected, let exclusions):
            guard algorithm.lowercased() == "sha256" else { return Binding(holds: nil, detail: "c2pa.hash.data by \(algorithm): lpcheck computes sha256 only") }
            var hasher = SHA256.Hasher()
            var at: Int64 = 0
            for exclusion in exclusions.sorted(by: { $0.lowerBound < $1.lowerBound }) + [source.size..<source.size] {
                let end = min(max(exclusion.lowerBound, at), source.size)
                while at < end {
                    let count = Int(min(1 << 20, end - at))
                    hasher.update(try source.read(at: at, count: count))
                    at += Int64(count)
                }
                at = max(at, min(exclusion.upperBound, source.size))
            }
            let computed = hasher.finish()
            let hex = Self.hex
            let excluded = exclusions.map { "\($0.lowerBound)+\($0.count)" }.joined(separator: ", ")
            return computed == expected
                ? Binding(holds: true, detail: "sha256 over the file but \(excluded.isEmpty ? "nothing" : excluded) is the claimed \(hex(expected))")
                : Binding(holds: false, detail: "sha256 over the file but \(excluded.isEmpty ? "nothing" : excluded) is \(hex(computed)), the manifest claims \(hex(expected)): the bytes are not those signed")
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// A BMFF hash recomputed: the file-level hash, over the boxes its exclusions leave (and the
    /// top-level offsets from v2 on). A box layout the exclusions cannot be placed in is not known.
    static func binding(_ bmff: BMFFHash, source: ByteSource) throws -> Binding {
        guard let expected = bmff.hash else {
            return Binding(holds: nil, detail: "\(bmff.label): \(bmff.hasMerkleTree ? "a Merkle tree over fragments" : "no hash"), not recomputed by lpcheck")
        }
        let computed: [UInt8]?
        do {
            computed = try bmff.computed(source: source)
        } catch let error as ParseError {
            return Binding(holds: nil, detail: "\(bmff.label): the boxes to hash could not be read: \(error)")
        }
        guard let computed else { return Binding(holds: nil, detail: "\(bmff.label) by \(bmff.algorithm ?? "?"): lpcheck computes sha256 only") }
        let what = "sha256 over the file but \(bmff.exclusions.map(\.xpath).joined(separator: ", "))\(bmff.hashesBoxOffsets ? ", with the top-level box offsets" : "")"
        let merkle = bmff.hasMerkleTree ? " (its Merkle tree over fragments is not recomputed)" : ""
        return computed == expected
            ? Binding(holds: true, detail: "\(bmff.label): \(what) is the claimed \(hex(expected))\(merkle)")
            : Binding(holds: false, detail: "\(bmff.label): \(what) is \(hex(computed)), the manifest claims \(hex(expected)): the bytes are not those signed")
    }
}

extension MediaFile {
    /// Where a manifest store is, found from what the readers already hold (a JPEG's APP11
    /// labels, an ISO BMFF file's top-level boxes), without reading it: `jpeg-app11`,
    /// `bmff-uuid`, or nil.
    public var credentialsContainer: String? {
        if let jpeg = still?.jpeg { return jpeg.segments.contains { $0.label == "C2PA" } ? "jpeg-app11" : nil }
        let boxes = movie?.boxes ?? still?.boxes ?? []
        return boxes.contains { $0.type == "uuid" && $0.userType == ContentCredentials.bmffUUID } ? "bmff-uuid" : nil
    }
}
