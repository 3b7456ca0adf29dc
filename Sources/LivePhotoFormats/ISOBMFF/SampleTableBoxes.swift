/// `stts`: runs of samples with one duration.
public struct TimeToSampleBox: BoxModel, Equatable {
    public var entries: [TimeToSampleEntry]
    public init(parsing reader: inout ByteReader) throws {
        _ = try FullBoxHeader(&reader)
        let (count, values) = try reader.u32Table(fieldsPerEntry: 2, what: "stts")
        entries = (0..<count).map { TimeToSampleEntry(count: values[2 * $0], delta: values[2 * $0 + 1]) }
    }
}

/// `ctts`: runs of samples with one composition offset (signed in version 1; QuickTime writes
/// signed values in version 0 too, so they are read signed).
public struct CompositionOffsetBox: BoxModel, Equatable {
    public var entries: [CompositionOffsetEntry]
    public init(parsing reader: inout ByteReader) throws {
        _ = try FullBoxHeader(&reader)
        let (count, values) = try reader.u32Table(fieldsPerEntry: 2, what: "ctts")
        entries = (0..<count).map { CompositionOffsetEntry(count: values[2 * $0], offset: Int32(bitPattern: values[2 * $0 + 1])) }
    }
}

/// `stss`: the sync samples (1-based).
public struct SyncSampleBox: BoxModel, Equatable {
    public var samples: [UInt32]
    public init(parsing reader: inout ByteReader) throws {
        _ = try FullBoxHeader(&reader)
        samples = try reader.u32Table(fieldsPerEntry: 1, what: "stss").values
    }
}

/// `stsc`: runs of chunks with one number of samples per chunk and one sample description.
public struct SampleToChunkBox: BoxModel, Equatable {
    public var entries: [SampleToChunkEntry]
    public init(parsing reader: inout ByteReader) throws {
        _ = try FullBoxHeader(&reader)
        let (count, values) = try reader.u32Table(fieldsPerEntry: 3, what: "stsc")
        entries = (0..<count).map {
            SampleToChunkEntry(firstChunk: values[3 * $0], samplesPerChunk: values[3 * $0 + 1], descriptionIndex: values[3 * $0 + 2])
        }
    }
}

/// `stsz` (a constant size or one 32-bit size per sample) or `stz2` (4, 8 or 16-bit sizes).
public struct SampleSizeBox: TypedBoxModel, Equatable {
    public var type: FourCC
    /// Non-zero when every sample has this size (`stsz` only).
    public var constantSize: UInt32 = 0
    public var sampleCount: UInt32
    public var sizes: [UInt32] = []

    public init(parsing reader: inout ByteReader, type: FourCC) throws {
        _ = try FullBoxHeader(&reader)
        self.type = type
        if type == "stz2" {
            try reader.skip(3)
            let fieldSize = Int(try reader.u8())
            guard [4, 8, 16].contains(fieldSize) else { throw reader.error(.invalidValue, "stz2 field size \(fieldSize)") }
            sampleCount = try reader.u32()
            let byteCount = try reader.checkCount((UInt64(sampleCount) * UInt64(fieldSize) + 7) / 8, entrySize: 1, what: "stz2")
            let raw = try reader.read(byteCount)
            sizes.reserveCapacity(Int(sampleCount))
            for index in 0..<Int(sampleCount) {
                switch fieldSize {
                case 4: sizes.append(UInt32(index % 2 == 0 ? raw[index / 2] >> 4 : raw[index / 2] & 0xF))
                case 8: sizes.append(UInt32(raw[index]))
                default: sizes.append(UInt32(raw[2 * index]) << 8 | UInt32(raw[2 * index + 1]))
                }
            }
        } else {
            constantSize = try reader.u32()
            sampleCount = try reader.u32()
            if constantSize == 0 {
                sizes = try reader.u32s(try reader.checkCount(UInt64(sampleCount), entrySize: 4, what: "stsz"))
            }
        }
    }

    /// An `stsz` with its sample count and constant size, its per-sample sizes skipped (`stz2`
    /// is read whole: it is rare, and its sizes are packed).
    init(skippingSizes reader: inout ByteReader, type: FourCC) throws {
        guard type == "stsz" else {
            self = try SampleSizeBox(parsing: &reader, type: type)
            return
        }
        _ = try FullBoxHeader(&reader)
        self.type = type
        constantSize = try reader.u32()
        sampleCount = try reader.u32()
        if constantSize == 0 {
            try reader.skip(try reader.checkCount(UInt64(sampleCount), entrySize: 4, what: "stsz") * 4)
        }
    }
}

/// `stco` (32-bit) or `co64` (64-bit) chunk offsets.
public struct ChunkOffsetBox: TypedBoxModel, Equatable {
    public var type: FourCC
    public var offsets: [UInt64]

    public init(parsing reader: inout ByteReader, type: FourCC) throws {
        _ = try FullBoxHeader(&reader)
        self.type = type
        if type == "co64" {
            let count = try reader.entryCount(UInt32.self, entrySize: 8, what: "co64")
            offsets = []
            offsets.reserveCapacity(count)
            for _ in 0..<count { offsets.append(try reader.u64()) }
        } else {
            offsets = try reader.u32Table(fieldsPerEntry: 1, what: "stco").values.map(UInt64.init)
        }
    }
}

// The chunk tables checked as their models read them, entries skipped (`InspectOptions.chunkTables`
// false): the same count checks, so a damaged table gives the same error either way.

extension SyncSampleBox {
    static func skip(_ reader: inout ByteReader) throws {
        _ = try FullBoxHeader(&reader)
        _ = try reader.skipU32Table(fieldsPerEntry: 1, what: "stss")
    }
}

extension SampleToChunkBox {
    static func skip(_ reader: inout ByteReader) throws {
        _ = try FullBoxHeader(&reader)
        _ = try reader.skipU32Table(fieldsPerEntry: 3, what: "stsc")
    }
}

extension ChunkOffsetBox {
    static func skip(_ reader: inout ByteReader, type: FourCC) throws {
        _ = try FullBoxHeader(&reader)
        if type == "co64" {
            try reader.skip(try reader.entryCount(UInt32.self, entrySize: 8, what: "co64") * 8)
        } else {
            _ = try reader.skipU32Table(fieldsPerEntry: 1, what: "stco")
        }
    }
}
