/// A movie's parts: tracks (their sample descriptions, timing, sizes and edits: the sample
/// bytes are not read), the `meta` keys and the `udta` items.
extension Inventory {
    mutating func addMovie(_ movie: Movie, source: ByteSource) {
        let traks = movie.boxes.first { $0.type == "moov" }?.children.filter { $0.type == "trak" } ?? []
        for (index, track) in movie.tracks.enumerated() {
            let formats = track.sampleDescriptions.map { "\($0.format)" }.joined(separator: ",")
            var hash = FNV1a()
            hash.add(integer: track.mediaTimescale)
            hash.add(integer: track.mediaDuration)
            // The tables as stored; chunk offsets are left out (they move when `moov` grows).
            if traks.count == movie.tracks.count {
                for type in ["stsd", "stts", "ctts", "stss", "stsz", "stz2", "elst"] as [FourCC] {
                    guard let box = Self.descendant(of: traks[index], type), box.payloadSize <= Limits.maxMetadataBoxBytes,
                          let bytes = try? source.read(at: box.payloadOffset, count: Int(box.payloadSize)) else { continue }
                    hash.add("\(type)")
                    hash.add(bytes)
                }
            }
            add(.track, "\(track.id) \(track.handler) \(formats)", digest: hash.value)
        }
        for item in movie.metadata {
            add(.key, "\(item.namespace) \(item.key)", text: "\(item.dataType) \(item.locale) \(item.value)")
        }
        // Every `udta` child by type, valued by its bytes (a `meta` inside it as one item).
        if let udta = movie.boxes.first(where: { $0.type == "moov" })?.children.first(where: { $0.type == "udta" }),
           let payload = try? source.payload(of: udta, path: "moov/udta") {
            var children = BoxIterator(payload)
            while let child = try? children.next() {
                var bytes = child.payload
                add(.userData, "\(child.box.type)", digest: FNV1a.of(bytes.restSlice()))
            }
        }
    }

    /// The first box of `type` below `box`, walked without recursion.
    static func descendant(of box: Box, _ type: FourCC) -> Box? {
        var pending = box.children.reversed() as [Box]
        while let next = pending.popLast() {
            if next.type == type { return next }
            pending += next.children.reversed()
        }
        return nil
    }
}
