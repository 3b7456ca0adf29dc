/// Builds QuickTime/ISO boxes in memory for tests: a documented byte-level builder, so edge cases
/// (64-bit sizes, size 0, `uuid`, full-box `meta`, `elst` v1, `stz2`, `co64`) have exact bytes.
public enum BoxBuilder {
    public static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    public static func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
    public static func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (56 - 8 * $0) & 0xFF) } }
    public static func i32(_ value: Int32) -> [UInt8] { u32(UInt32(bitPattern: value)) }
    public static func fourCC(_ text: String) -> [UInt8] { Array(text.utf8.prefix(4)) }

    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(UInt32(8 + payload.count)) + fourCC(type) + payload
    }

    /// A box with `size == 1` and a 64-bit size.
    public static func largeBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        u32(1) + fourCC(type) + u64(UInt64(16 + payload.count)) + payload
    }

    public static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(u32(flags).dropFirst()) + payload)
    }

    public static func ftyp(_ major: String, _ compatible: [String] = []) -> [UInt8] {
        box("ftyp", fourCC(major) + u32(0) + compatible.flatMap(fourCC))
    }

    public static func mvhd(timescale: UInt32, duration: UInt32) -> [UInt8] {
        var payload = u32(0) + u32(0) + u32(timescale) + u32(duration)
        payload += u32(0x10000) + u16(0x100) + [UInt8](repeating: 0, count: 10)
        payload += matrix + [UInt8](repeating: 0, count: 24) + u32(3)
        return fullBox("mvhd", payload)
    }

    static let matrix: [UInt8] = u32(0x10000) + u32(0) + u32(0) + u32(0) + u32(0x10000) + u32(0) + u32(0) + u32(0) + u32(0x4000_0000)

    public static func tkhd(id: UInt32, duration: UInt32, flags: UInt32 = 0xF) -> [UInt8] {
        var payload = u32(0) + u32(0) + u32(id) + u32(0) + u32(duration)
        payload += [UInt8](repeating: 0, count: 16)
        payload += matrix + u32(0) + u32(0)
        return fullBox("tkhd", flags: flags, payload)
    }

    public static func mdhd(timescale: UInt32, duration: UInt32) -> [UInt8] {
        fullBox("mdhd", u32(0) + u32(0) + u32(timescale) + u32(duration) + u16(0x55C4) + u16(0))
    }

    public static func hdlr(_ subtype: String, name: String = "") -> [UInt8] {
        fullBox("hdlr", fourCC("mhlr") + fourCC(subtype) + [UInt8](repeating: 0, count: 12) + [UInt8(name.utf8.count)] + Array(name.utf8))
    }

    public static func elst(_ entries: [(UInt64, Int64)], version: UInt8 = 0) -> [UInt8] {
        var payload = u32(UInt32(entries.count))
        for (duration, time) in entries {
            if version == 1 {
                payload += u64(duration)
                payload += u64(UInt64(bitPattern: time))
            } else {
                payload += u32(UInt32(duration))
                payload += i32(Int32(time))
            }
            payload += u32(0x10000)
        }
        return fullBox("elst", version: version, payload)
    }

    public static func stts(_ entries: [(UInt32, UInt32)]) -> [UInt8] {
        fullBox("stts", u32(UInt32(entries.count)) + entries.flatMap { u32($0.0) + u32($0.1) })
    }

    public static func stsc(_ entries: [(UInt32, UInt32, UInt32)]) -> [UInt8] {
        fullBox("stsc", u32(UInt32(entries.count)) + entries.flatMap { u32($0.0) + u32($0.1) + u32($0.2) })
    }

    public static func stsz(constant: UInt32 = 0, sizes: [UInt32], count: UInt32? = nil) -> [UInt8] {
        fullBox("stsz", u32(constant) + u32(count ?? UInt32(sizes.count)) + (constant == 0 ? sizes.flatMap(u32) : []))
    }

    public static func stco(_ offsets: [UInt32]) -> [UInt8] { fullBox("stco", u32(UInt32(offsets.count)) + offsets.flatMap(u32)) }
    public static func co64(_ offsets: [UInt64]) -> [UInt8] { fullBox("co64", u32(UInt32(offsets.count)) + offsets.flatMap(u64)) }

    /// A `mebx` sample entry declaring keys (local id, key, well-known type).
    public static func mebx(_ keys: [(UInt32, String, UInt32)]) -> [UInt8] {
        var declarations: [UInt8] = []
        for (localID, key, type) in keys {
            let inner = box("keyd", fourCC("mdta") + Array(key.utf8)) + box("dtyp", u32(0) + u32(type))
            declarations += u32(UInt32(8 + inner.count)) + u32(localID) + inner
        }
        return box("mebx", [0, 0, 0, 0, 0, 0] + u16(1) + box("keys", declarations))
    }

    /// A timed-metadata sample holding one item.
    public static func metadataItem(localID: UInt32, _ value: [UInt8]) -> [UInt8] { u32(UInt32(8 + value.count)) + u32(localID) + value }

    /// `moov/meta` with `hdlr mdta`, `keys` and `ilst` of UTF-8 values. `fullBoxHeader` adds ISO's version/flags.
    public static func movieMeta(_ items: [(String, String)], fullBoxHeader: Bool = false) -> [UInt8] {
        var keyEntries = u32(UInt32(items.count))
        var ilstItems: [UInt8] = []
        for (index, (key, value)) in items.enumerated() {
            keyEntries += u32(UInt32(8 + key.utf8.count)) + fourCC("mdta") + Array(key.utf8)
            let data = box("data", u32(1) + u32(0) + Array(value.utf8))
            ilstItems += u32(UInt32(8 + data.count)) + u32(UInt32(index + 1)) + data
        }
        let keys = fullBox("keys", keyEntries)
        let ilst = box("ilst", ilstItems)
        let hdlr = fullBox("hdlr", u32(0) + fourCC("mdta") + [UInt8](repeating: 0, count: 12) + [0])
        return box("meta", (fullBoxHeader ? u32(0) : []) + hdlr + keys + ilst)
    }

    /// A whole movie: optional leading boxes, `mdat` with `media`, then `moov` holding a video track
    /// (frames of `frameSizes` in one chunk) and, when asked, a still-image-time track whose sample
    /// sits right after the frames.
    public static func movie(
        lead: [[UInt8]] = [ftyp("qt  ", ["qt  "])], frameSizes: [UInt32] = [100, 100, 100], frameDelta: UInt32 = 20,
        timescale: UInt32 = 600, identifier: String? = "11111111-2222-3333-4444-555555555555",
        stillImageTime: (value: Int8, edits: [(UInt64, Int64)]?, duration: UInt32)? = (-1, [(20, -1), (1, 0)], 1),
        extraMoovBoxes: [[UInt8]] = [], metaFullBoxHeader: Bool = false
    ) -> [UInt8] {
        let leadBytes = lead.flatMap { $0 }
        let frames = [UInt8](repeating: 0xAB, count: Int(frameSizes.reduce(0, +)))
        let sample = metadataItem(localID: 1, [UInt8(bitPattern: stillImageTime?.value ?? 0)])
        let mdat = box("mdat", frames + (stillImageTime != nil ? sample : []))
        let mediaStart = UInt32(leadBytes.count + 8)
        let duration = frameDelta * UInt32(frameSizes.count)
        var videoTable = fullBox("stsd", u32(1) + visualEntry())
        videoTable += stts([(UInt32(frameSizes.count), frameDelta)])
        videoTable += stsc([(1, UInt32(frameSizes.count), 1)])
        videoTable += stsz(sizes: frameSizes)
        videoTable += stco([mediaStart])
        var videoMedia = mdhd(timescale: timescale, duration: duration)
        videoMedia += hdlr("vide")
        videoMedia += box("minf", box("stbl", videoTable))
        var tracks = box("trak", tkhd(id: 1, duration: duration) + box("mdia", videoMedia))
        if let still = stillImageTime {
            let sampleOffset = mediaStart + UInt32(frames.count)
            var table = fullBox("stsd", u32(1) + mebx([(1, "com.apple.quicktime.still-image-time", 65)]))
            table += stts([(1, still.duration)])
            table += stsc([(1, 1, 1)])
            table += stsz(constant: UInt32(sample.count), sizes: [], count: 1)
            table += stco([sampleOffset])
            var media = mdhd(timescale: timescale, duration: still.duration)
            media += hdlr("meta")
            media += box("minf", box("stbl", table))
            var track = tkhd(id: 2, duration: duration)
            if let edits = still.edits { track += box("edts", elst(edits)) }
            track += box("tref", box("cdsc", u32(1)))
            track += box("mdia", media)
            tracks += box("trak", track)
        }
        let meta = identifier.map { movieMeta([("com.apple.quicktime.content.identifier", $0)], fullBoxHeader: metaFullBoxHeader) } ?? []
        let moov = box("moov", mvhd(timescale: timescale, duration: duration) + tracks + meta + extraMoovBoxes.flatMap { $0 })
        return leadBytes + mdat + moov
    }

    /// A minimal `avc1` visual sample entry (no codec configuration).
    public static func visualEntry(width: UInt16 = 160, height: UInt16 = 120) -> [UInt8] {
        var payload: [UInt8] = [0, 0, 0, 0, 0, 0] + u16(1) + [UInt8](repeating: 0, count: 16)
        payload += u16(width) + u16(height) + u32(0x48_0000) + u32(0x48_0000)
        payload += u32(0) + u16(1) + [UInt8](repeating: 0, count: 32) + u16(24) + u16(0xFFFF)
        return box("avc1", payload)
    }
}
