/// `stsd`: the sample descriptions of a track, with what lpcheck reads of each entry: video
/// entries' size and compressor name, every entry's child box types, and the keys a `mebx`
/// (timed metadata) entry declares.
public struct SampleDescriptionBox: BoxModel, Equatable {
    /// The entry count the box states (its entries are counted too: a mismatch is a warning).
    public var declaredCount: UInt32
    public var descriptions: [SampleDescription]
    /// Entries whose decoder configuration (`avcC`, `hvcC`) does not parse: the entry (1-based),
    /// the box and why, with its offset. Read whether or not the configuration is kept.
    public var configurationProblems: [ParseError] = []

    public init(parsing reader: inout ByteReader) throws { try self.init(parsing: &reader, keepingConfiguration: true) }

    /// `keepingConfiguration`: a video entry's `configuration` payloads are kept (a still made
    /// from a sample needs them; `check`, which reads no sample, leaves them).
    public init(parsing reader: inout ByteReader, keepingConfiguration: Bool) throws {
        _ = try FullBoxHeader(&reader)
        declaredCount = try reader.u32()
        descriptions = []
        var walk = try BoxIterator.walk(try reader.rest())
        while let box = walk.next() {
            var description = SampleDescription(
                format: box.type, dataReferenceIndex: 0, width: nil, height: nil, compressorName: nil,
                childTypes: [], metadataKeys: [])
            try walk.payload.skip(6)
            description.dataReferenceIndex = try walk.payload.u16()
            var hasChildren = false, hasVideoFields = false
            if SoundFields.formats.contains(box.type) { description.sound = SoundFields.read(box.type, walk.payload) }
            if box.type == "mebx" {
                hasChildren = true
            } else if box.type == "mett" {
                // content_encoding then mime_format, each ended by a zero byte (ISO/IEC 14496-12 12.3.3).
                let strings = walk.payload.restSlice().split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                if strings.count >= 2, strings[1].count <= Limits.maxStringBytes {
                    description.mimeFormat = String(decoding: strings[1], as: UTF8.self)
                }
            } else if walk.payload.remaining >= 70, Self.videoFormats.contains(box.type) || Self.looksLikeVideoEntry(walk.payload) {
                try walk.payload.skip(16)
                description.width = try walk.payload.u16()
                description.height = try walk.payload.u16()
                try walk.payload.skip(14)
                let nameBytes = try walk.payload.read(32)
                let length = min(Int(nameBytes[0]), 31)
                description.compressorName = String(decoding: nameBytes[1..<(1 + length)], as: UTF8.self)
                try walk.payload.skip(4)
                (hasChildren, hasVideoFields) = (true, true)
            }
            if hasChildren, walk.payload.remaining >= 8 {
                var children = BoxIterator(try walk.payload.rest())
                while let (child, payload) = try children.next() {
                    description.childTypes.append(child.type)
                    if hasVideoFields, child.type == "avcC" || child.type == "hvcC", let why = DecoderConfiguration.problem(child.type, payload) {
                        configurationProblems.append(payload.error(.inconsistent, "sample description \(descriptions.count + 1)'s \(child.type) does not parse: \(why)"))
                    }
                    if keepingConfiguration, hasVideoFields, Self.keptConfiguration.contains(child.type), payload.remaining <= Self.maxConfigurationBytes,
                       !description.configuration.contains(where: { $0.type == child.type }) {
                        var whole = payload
                        description.configuration.append(SampleEntryChild(type: child.type, payload: Array(whole.restSlice())))
                    }
                    if box.type == "mebx", child.type == "keys" {
                        description.metadataKeys = try Self.metadataKeyDeclarations(payload)
                    }
                }
            }
            descriptions.append(description)
        }
    }

    /// The children of a video entry kept whole: what a still made from one of its samples
    /// needs (the decoder configuration, colour, pixel aspect, light levels), each at most
    /// `maxConfigurationBytes`.
    static let keptConfiguration: Set<FourCC> = ["hvcC", "avcC", "colr", "pasp", "clli", "mdcv"]
    static let maxConfigurationBytes = 64 * 1024

    static let videoFormats: Set<FourCC> = ["avc1", "avc3", "hvc1", "hev1", "dvh1", "dvhe", "mp4v", "jpeg", "apcn", "apch", "apcs", "apco", "ap4h", "av01", "vp09"]

    /// A visual sample entry has pre_defined/reserved zeros and a 72 dpi resolution at fixed places.
    static func looksLikeVideoEntry(_ entry: ByteReader) -> Bool {
        guard let head = entry.peek(36) else { return false }
        return head[28..<32].elementsEqual([0x00, 0x48, 0x00, 0x00])
    }

    /// A `mebx` entry's `keys`: one box per local key id, holding `keyd` (namespace and key) and
    /// `dtyp` (data type namespace and well-known type).
    static func metadataKeyDeclarations(_ reader: ByteReader) throws -> [MetadataKeyDeclaration] {
        var keys: [MetadataKeyDeclaration] = []
        var walk = try BoxIterator.walk(reader)
        while let box = walk.next() {
            guard keys.count < Limits.maxKeys else { throw walk.payload.error(.limitExceeded, "more than \(Limits.maxKeys) metadata keys") }
            var declaration = MetadataKeyDeclaration(localID: box.type.value, namespace: FourCC(0), key: "", dataTypeNamespace: nil, dataType: nil)
            var inner = try BoxIterator.walk(walk.payload)
            while let part = inner.next() {
                switch part.type {
                case "keyd":
                    declaration.namespace = try inner.payload.fourCC()
                    guard inner.payload.remaining <= Limits.maxStringBytes else { throw inner.payload.error(.limitExceeded, "key of \(inner.payload.remaining) bytes") }
                    declaration.key = String(decoding: inner.payload.restSlice(), as: UTF8.self)
                case "dtyp":
                    let namespace = try inner.payload.u32()
                    declaration.dataTypeNamespace = namespace
                    declaration.dataType = namespace == 0 && inner.payload.remaining >= 4 ? try inner.payload.u32() : nil
                default:
                    break
                }
            }
            keys.append(declaration)
        }
        return keys
    }
}
