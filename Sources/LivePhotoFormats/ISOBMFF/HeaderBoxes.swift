/// `mvhd`: the movie's creation time, timescale, duration and next track ID (QuickTime and
/// ISO alike).
public struct MovieHeaderBox: BoxModel, Equatable {
    /// Seconds since 1904-01-01 00:00 UTC; 0 when the writer left it unset.
    public var creationTime: UInt64
    public var timescale: UInt32
    public var duration: UInt64
    public var nextTrackID: UInt32

    public init(parsing reader: inout ByteReader) throws {
        let times = try MediaTimes(parsing: &reader)
        (creationTime, timescale, duration) = (times.creationTime, times.timescale, times.duration)
        // rate, volume, reserved, matrix, pre-defined (or QuickTime's preview and selection times).
        try reader.skip(4 + 2 + 10 + 36 + 24)
        nextTrackID = try reader.u32()
    }
}

/// `mdhd`: the media timescale, duration and language.
public struct MediaHeaderBox: BoxModel, Equatable {
    public var timescale: UInt32
    public var duration: UInt64
    public var language: String

    public init(parsing reader: inout ByteReader) throws {
        let times = try MediaTimes(parsing: &reader)
        (timescale, duration) = (times.timescale, times.duration)
        language = Self.language(try reader.u16())
        _ = try reader.u16() // pre-defined (QuickTime: quality)
    }

    /// ISO 639-2/T packed in 15 bits; values below 0x400 are Macintosh language codes.
    static func language(_ packed: UInt16) -> String {
        if packed < 0x400 { return packed == 0 ? "eng" : "mac:\(packed)" }
        if packed == 0x7FFF { return "und" }
        func letter(_ shift: UInt16) -> UInt8 { UInt8((packed >> shift) & 0x1F) + 0x60 }
        guard [10, 5, 0].allSatisfy({ (0x61...0x7A).contains(letter($0)) }) else { return "und" }
        return String(unsafeUninitializedCapacity: 3) { buffer in
            for (index, shift) in [UInt16(10), 5, 0].enumerated() { buffer[index] = letter(shift) }
            return 3
        }
    }
}

/// The opening `mvhd` and `mdhd` share: version and flags, creation and modification times
/// (32 or 64 bits by version), the timescale, the duration.
struct MediaTimes {
    var creationTime: UInt64
    var timescale: UInt32
    var duration: UInt64

    init(parsing reader: inout ByteReader) throws {
        let header = try FullBoxHeader(&reader)
        let wide = header.version == 1
        creationTime = wide ? try reader.u64() : UInt64(try reader.u32())
        try reader.skip(wide ? 8 : 4)
        timescale = try reader.u32()
        duration = wide ? try reader.u64() : UInt64(try reader.u32())
    }
}

/// `tkhd`: the track's ID, flags, duration (movie timescale), matrix and presentation size.
public struct TrackHeaderBox: BoxModel, Equatable {
    public var flags: UInt32
    public var trackID: UInt32
    public var duration: UInt64
    public var matrix: TrackMatrix
    public var width: Double
    public var height: Double

    public init(parsing reader: inout ByteReader) throws {
        let header = try FullBoxHeader(&reader)
        flags = header.flags
        if header.version == 1 {
            try reader.skip(16)
            trackID = try reader.u32()
            try reader.skip(4)
            duration = try reader.u64()
        } else {
            try reader.skip(8)
            trackID = try reader.u32()
            try reader.skip(4)
            duration = UInt64(try reader.u32())
        }
        // reserved, layer, alternate group, volume, reserved, then the matrix.
        try reader.skip(8 + 8)
        matrix = try TrackMatrix(parsing: &reader)
        width = Double(try reader.u32()) / 65536
        height = Double(try reader.u32()) / 65536
    }
}

/// A track's transformation matrix (`tkhd`): a, b, u, c, d, v, x, y, w in that order, a–d and
/// x, y in 16.16 fixed point. Only the 2×2 part says how the picture is turned.
public struct TrackMatrix: Sendable, Equatable {
    public var a: Int32, b: Int32, c: Int32, d: Int32

    public static let identity = TrackMatrix(a: 0x10000, b: 0, c: 0, d: 0x10000)

    public init(a: Int32, b: Int32, c: Int32, d: Int32) { (self.a, self.b, self.c, self.d) = (a, b, c, d) }

    init(parsing reader: inout ByteReader) throws {
        a = try reader.i32()
        b = try reader.i32()
        try reader.skip(4)
        c = try reader.i32()
        d = try reader.i32()
        try reader.skip(4 + 12)
    }

    /// The clockwise rotation in degrees (0, 90, 180, 270) when the 2×2 part is a rotation by a
    /// quarter turn, as players show it; nil for a mirror, a scale or any other angle.
    public var rotation: Int? {
        let one: Int32 = 0x10000
        switch (a, b, c, d) {
        case (one, 0, 0, one): return 0
        case (0, one, -one, 0): return 90
        case (-one, 0, 0, -one): return 180
        case (0, -one, one, 0): return 270
        default: return nil
        }
    }

    /// The Exif Orientation (1–8) that shows a still as this matrix shows the track: the four
    /// quarter turns (1, 6, 3, 8) and the four mirrored ones (2 mirrors left to right, 4 top to
    /// bottom, 5 transposes, 7 transverses), in QuickTime's convention (x' = a·x + c·y,
    /// y' = b·x + d·y, y downward); nil for a matrix that scales, skews or turns otherwise.
    /// Whether the picture is shown with its sides exchanged (a quarter turn, mirrored or not).
    public var swapsSides: Bool { (exifOrientation ?? 1) >= 5 }

    public var exifOrientation: UInt16? {
        let one: Int32 = 0x10000
        switch (a, b, c, d) {
        case (one, 0, 0, one): return 1
        case (-one, 0, 0, one): return 2
        case (-one, 0, 0, -one): return 3
        case (one, 0, 0, -one): return 4
        case (0, one, one, 0): return 5
        case (0, one, -one, 0): return 6
        case (0, -one, -one, 0): return 7
        case (0, -one, one, 0): return 8
        default: return nil
        }
    }
}

/// `elst`: the edit list (version 0 or 1 entries).
public struct EditListBox: BoxModel, Equatable {
    public var edits: [Edit]

    public init(parsing reader: inout ByteReader) throws {
        let header = try FullBoxHeader(&reader)
        let wide = header.version == 1
        let count = try reader.entryCount(UInt32.self, entrySize: wide ? 20 : 12, what: "elst")
        edits = []
        edits.reserveCapacity(count)
        for _ in 0..<count {
            let duration = wide ? try reader.u64() : UInt64(try reader.u32())
            let time = wide ? try reader.i64() : Int64(try reader.i32())
            edits.append(Edit(segmentDuration: duration, mediaTime: time, rate: Double(try reader.i32()) / 65536))
        }
    }
}

/// One child of `tref` (`cdsc`, `chap`, ...): the track IDs it refers to.
public struct TrackReferenceTypeBox: BoxModel, Equatable {
    public var trackIDs: [UInt32]

    public init(parsing reader: inout ByteReader) throws {
        let count = try reader.checkCount(UInt64(reader.remaining / 4), entrySize: 4, what: "tref")
        trackIDs = try reader.u32s(count)
    }
}

/// `ftyp`: the major brand, its minor version and the compatible brands (a trailing partial
/// brand is ignored: format detection reads only the first bytes of a file).
public struct FileTypeBox: BoxModel, Equatable {
    public var majorBrand: FourCC
    public var minorVersion: UInt32
    public var compatibleBrands: [FourCC]

    public init(parsing reader: inout ByteReader) throws {
        majorBrand = try reader.fourCC()
        minorVersion = try reader.u32()
        compatibleBrands = []
        while reader.remaining >= 4, compatibleBrands.count < 256 { compatibleBrands.append(try reader.fourCC()) }
    }

    /// All brands, the major one first.
    public var brands: [FourCC] { [majorBrand] + compatibleBrands }
}
