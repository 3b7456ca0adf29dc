import Foundation

/// A HEIF item walker of the tests' own, written from ISO/IEC 23008-12 and 14496-12 without
/// lpcheck's readers: the oracle for which XMP item Google's reader picks and for the bytes of
/// every item. It reads the last top-level `meta` (lpcheck's writer leaves the old one as `free`).
struct IndependentHEIF {
    struct Item { var id: UInt32; var type: String; var contentType: String; var method = 0; var extents: [(offset: UInt64, length: UInt64)] }
    var primary: UInt32 = 0
    var items: [UInt32: Item] = [:]
    var order: [UInt32] = []
    var cdsc: [UInt32: [UInt32]] = [:]
    var idat: Range<Int>?
    var references: [(type: String, from: UInt32, to: [UInt32])] = []
    /// Each item's properties (`ipma` into `ipco`), in association order.
    var properties: [UInt32: [(type: String, payload: [UInt8])]] = [:]
    let bytes: [UInt8]

    init(_ url: URL) throws {
        bytes = [UInt8](try Data(contentsOf: url))
        var meta: Range<Int>?
        var at = 0
        while at + 8 <= bytes.count {
            var size = Int(be(at, 4))
            var header = 8
            if size == 1 { size = Int(be(at + 8, 8)); header = 16 } else if size == 0 { size = bytes.count - at }
            guard size >= header, at + size <= bytes.count else { break }
            if String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) == "meta" { meta = (at + header + 4)..<(at + size) }
            at += size
        }
        guard let meta else { return }
        // `iloc` may come before `iinf`: locations are joined to the items after the walk.
        var locations: [UInt32: (method: Int, extents: [(offset: UInt64, length: UInt64)])] = [:]
        defer {
            for (id, location) in locations {
                items[id]?.extents = location.extents
                items[id]?.method = location.method
            }
        }
        for (type, range) in children(meta) {
            let version = Int(bytes[range.lowerBound])
            let body = range.lowerBound + 4
            switch type {
            case "idat": idat = range
            case "pitm": primary = UInt32(be(body, version == 0 ? 2 : 4))
            case "iinf":
                let start = body + (version == 0 ? 2 : 4)
                for (entryType, entry) in children(start..<range.upperBound) where entryType == "infe" {
                    let entryVersion = Int(bytes[entry.lowerBound])
                    var p = entry.lowerBound + 4
                    let idWidth = entryVersion >= 3 ? 4 : 2
                    let id = UInt32(be(p, idWidth)); p += idWidth + 2
                    let itemType = String(decoding: bytes[p..<(p + 4)], as: UTF8.self); p += 4
                    let strings = bytes[p..<entry.upperBound].split(separator: 0, omittingEmptySubsequences: false)
                    let contentType = itemType == "mime" && strings.count > 1 ? String(decoding: strings[1], as: UTF8.self) : ""
                    items[id] = Item(id: id, type: itemType, contentType: contentType, extents: [])
                    order.append(id)
                }
            case "iloc":
                let sizes = Int(bytes[body]), more = Int(bytes[body + 1])
                let (offsetSize, lengthSize, baseSize) = (sizes >> 4, sizes & 15, more >> 4)
                let indexSize = version >= 1 ? more & 15 : 0
                var p = body + 2
                let count = Int(be(p, version < 2 ? 2 : 4)); p += version < 2 ? 2 : 4
                for _ in 0..<count {
                    let id = UInt32(be(p, version < 2 ? 2 : 4)); p += version < 2 ? 2 : 4
                    var method = 0
                    if version >= 1 { method = Int(be(p, 2) & 15); p += 2 }
                    p += 2
                    let base = be(p, baseSize); p += baseSize
                    let extentCount = Int(be(p, 2)); p += 2
                    var extents: [(UInt64, UInt64)] = []
                    for _ in 0..<extentCount {
                        p += indexSize
                        let offset = be(p, offsetSize); p += offsetSize
                        let length = be(p, lengthSize); p += lengthSize
                        extents.append((base + offset, length))
                    }
                    locations[id] = (method, extents)
                }
            case "iref":
                let width = version == 0 ? 2 : 4
                for (type, reference) in children(body..<range.upperBound) {
                    let from = UInt32(be(reference.lowerBound, width))
                    let count = Int(be(reference.lowerBound + width, 2))
                    let to = (0..<count).map { UInt32(be(reference.lowerBound + width + 2 + width * $0, width)) }
                    references.append((type, from, to))
                    if type == "cdsc" { cdsc[from, default: []] += to }
                }
            case "iprp":
                readProperties(range)
            default: break
            }
        }
    }

    /// `ipco`'s boxes and `ipma`'s associations (ISO/IEC 23008-12 §9.3).
    mutating func readProperties(_ iprp: Range<Int>) {
        var list: [(String, Range<Int>)] = []
        for (type, range) in children(iprp) where type == "ipco" { list = children(range) }
        for (type, range) in children(iprp) where type == "ipma" {
            let version = Int(bytes[range.lowerBound]), flags = Int(bytes[range.lowerBound + 3])
            var p = range.lowerBound + 4
            let count = Int(be(p, 4)); p += 4
            for _ in 0..<count {
                let id = UInt32(be(p, version < 1 ? 2 : 4)); p += version < 1 ? 2 : 4
                let associations = Int(bytes[p]); p += 1
                for _ in 0..<associations {
                    let index = flags & 1 == 1 ? Int(be(p, 2) & 0x7FFF) : Int(bytes[p] & 0x7F)
                    p += flags & 1 == 1 ? 2 : 1
                    guard index > 0, index <= list.count else { continue }
                    properties[id, default: []].append((list[index - 1].0, Array(bytes[list[index - 1].1])))
                }
            }
        }
    }

    /// The payload ranges of the boxes in `range`, with their types.
    func children(_ range: Range<Int>) -> [(String, Range<Int>)] {
        var found: [(String, Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = Int(be(at, 4))
            guard size >= 8, at + size <= range.upperBound else { break }
            found.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), (at + 8)..<(at + size)))
            at += size
        }
        return found
    }

    func be(_ at: Int, _ width: Int) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[at + $1]) }
    }

    var xmpItems: [UInt32] { order.filter { items[$0]?.type == "mime" && items[$0]?.contentType.contains("rdf+xml") == true } }

    /// Google's pick (libmotionphoto `ChooseXmpItemId`): the first XMP item describing the primary, else the first.
    var googleXMPItem: UInt32? { xmpItems.first { cdsc[$0]?.contains(primary) == true } ?? xmpItems.first }

    /// An item's bytes (construction method 0: extents in this file).
    func data(_ id: UInt32) -> [UInt8] {
        guard let item = items[id] else { return [] }
        let base = item.method == 1 ? idat?.lowerBound ?? 0 : 0
        return item.extents.flatMap { bytes[(base + Int($0.offset))..<(base + Int($0.offset + $0.length))] }
    }
}
