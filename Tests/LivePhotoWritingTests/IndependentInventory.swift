import Foundation
import LivePhotoTestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What a file holds, named as the preservation ledger names it, read without lpcheck's readers:
/// JPEG segments by the tests' own walk, HEIF items, references and properties by
/// `IndependentHEIF`, EXIF, the Apple MakerNote, ICC, QuickTime keys and user data by ExifTool,
/// XMP by Foundation's XML parser, tracks by the tests' own box walk, whose track IDs and sample
/// entry formats must be ffprobe's streams (`ffprobeTracks`). Values are fingerprints of
/// whatever each oracle prints; only their equality between input and output is used.
struct IndependentInventory {
    var entries: [String: String] = [:]

    /// A still (or a still's part of a motion photo, its bytes written to `url` alone).
    static func still(_ url: URL) throws -> IndependentInventory {
        var inventory = IndependentInventory()
        let bytes = [UInt8](try Data(contentsOf: url))
        if bytes.starts(with: [0xFF, 0xD8]) {
            inventory.addJPEG(bytes)
            try inventory.addExifTool(url, groups: ["IFD0", "ExifIFD", "GPS", "InteropIFD", "IFD1", "ICC_Profile"], jpeg: true)
        } else {
            let heif = try IndependentHEIF(url)
            inventory.addHEIF(heif)
            if let item = heif.googleXMPItem { inventory.addXMP(heif.data(item)) }
            // The Exif item's TIFF structure (found by its byte-order mark in the first bytes) as
            // a file of its own, for ExifTool.
            if let id = heif.order.first(where: { heif.items[$0]?.type == "Exif" }) {
                let data = heif.data(id)
                if let start = (0..<min(16, max(0, data.count - 4))).first(where: { [[0x4D, 0x4D, 0, 0x2A], [0x49, 0x49, 0x2A, 0]].contains(Array(data[$0..<($0 + 4)])) }) {
                    let tiff = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-exif-\(UUID().uuidString).tif")
                    defer { try? FileManager.default.removeItem(at: tiff) }
                    try Data(data[start...]).write(to: tiff)
                    try inventory.addExifTool(tiff, groups: ["IFD0", "ExifIFD", "GPS", "InteropIFD", "IFD1"], jpeg: false)
                }
            }
        }
        return inventory
    }

    /// A movie: its tracks, `moov/meta` keys and `udta` items, by the tests' own box walk.
    static func movie(_ url: URL) throws -> IndependentInventory {
        var inventory = IndependentInventory()
        let walk = BoxWalk(bytes: [UInt8](try Data(contentsOf: url)))
        guard let moov = walk.children(0..<walk.bytes.count).first(where: { $0.type == "moov" }) else { return inventory }
        var tracks: [String] = []
        for (type, body) in walk.children(moov.body) {
            switch type {
            case "trak": tracks.append(inventory.addTrack(walk, body))
            // QuickTime's `meta` has no version and flags (its first child follows); ISO's has.
            case "meta": inventory.addKeys(walk, (walk.bytes[(body.lowerBound + 4)..<(body.lowerBound + 8)].elementsEqual("hdlr".utf8) ? body.lowerBound : body.lowerBound + 4)..<body.upperBound)
            case "udta":
                for child in walk.children(body) { inventory.entries["user-data \(child.type)"] = Data(walk.bytes[child.body]).base64EncodedString() }
            default: break
            }
        }
        let streams = try ffprobeTracks(url)
        guard tracks.sorted() == streams else {
            throw FixtureError(message: "\(url.lastPathComponent): the box walk finds tracks \(tracks.sorted()), ffprobe streams \(streams)")
        }
        return inventory
    }

    /// ffprobe's streams of a movie as "ID FORMAT" (track ID in decimal, the sample entry's
    /// four characters), sorted: what the box walk's tracks must be.
    static func ffprobeTracks(_ url: URL) throws -> [String] {
        let ffprobe = Locations.tool("ffprobe") ?? ""
        try Locations.require(!ffprobe.isEmpty, "ffprobe (ffmpeg)")
        let result = try ProcessResult.run(ffprobe, ["-v", "error", "-show_entries", "stream=id,codec_tag_string", "-of", "csv=p=0", url.path])
        guard result.status == 0 else { throw FixtureError(message: "ffprobe cannot read \(url.path): \(result.stderr)") }
        return result.text.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 2, let id = UInt32(fields[1].dropFirst(2), radix: 16) else { return nil }
            return "\(id) \(fields[0])"
        }.sorted()
    }

    /// A track by ID, handler and sample entry formats; its value the tables as stored (not the
    /// chunk offsets) and the media timescale and duration. Returns "ID FORMATS".
    @discardableResult
    mutating func addTrack(_ walk: BoxWalk, _ trak: Range<Int>) -> String {
        var id = 0, handler = "", formats: [String] = [], value = ""
        var pending = [trak]
        while let range = pending.popLast() {
            for (type, body) in walk.children(range) {
                switch type {
                case "tkhd": id = Int(walk.be(body.lowerBound + (walk.bytes[body.lowerBound] == 1 ? 20 : 12), 4))
                case "hdlr" where handler.isEmpty: handler = String(decoding: walk.bytes[(body.lowerBound + 8)..<(body.lowerBound + 12)], as: UTF8.self)
                case "mdhd":
                    let long = walk.bytes[body.lowerBound] == 1
                    value += "mdhd \(walk.be(body.lowerBound + (long ? 20 : 12), 4)) \(walk.be(body.lowerBound + (long ? 24 : 16), long ? 8 : 4))|"
                case "stsd", "stts", "ctts", "stss", "stsz", "stz2", "elst":
                    value += type + Data(walk.bytes[body]).base64EncodedString() + "|"
                    if type == "stsd" {
                        formats = walk.children((body.lowerBound + 8)..<body.upperBound).map(\.type)
                    }
                case "edts", "mdia", "minf", "stbl": pending.append(body)
                default: break
                }
            }
        }
        entries["track \(id) \(handler) " + formats.joined(separator: ",")] = value
        return "\(id) " + formats.joined(separator: ",")
    }

    /// `keys` and `ilst` of a `meta` box (its children after version and flags): each key's
    /// namespace and name, its value the item's `data` box.
    mutating func addKeys(_ walk: BoxWalk, _ meta: Range<Int>) {
        var keys: [String] = []
        for (type, body) in walk.children(meta) where type == "keys" {
            var at = body.lowerBound + 8
            while at + 8 <= body.upperBound {
                let size = Int(walk.be(at, 4))
                guard size >= 8, at + size <= body.upperBound else { break }
                keys.append(String(decoding: walk.bytes[(at + 4)..<(at + 8)], as: UTF8.self) + " " + String(decoding: walk.bytes[(at + 8)..<(at + size)], as: UTF8.self))
                at += size
            }
        }
        for (type, body) in walk.children(meta) where type == "ilst" {
            for item in walk.children(body) {
                let index = Int(walk.be(item.body.lowerBound - 4, 4))
                guard index >= 1, index <= keys.count else { continue }
                entries["key \(keys[index - 1])"] = Data(walk.bytes[item.body]).base64EncodedString()
            }
        }
    }

    mutating func addJPEG(_ bytes: [UInt8]) {
        var counts: [String: Int] = [:]
        func put(_ name: String, _ value: some Sequence<UInt8>) {
            counts[name, default: 0] += 1
            let unique = counts[name, default: 1] > 1 ? "\(name) #\(counts[name, default: 1])" : name
            entries["jpeg-segment \(unique)"] = Data(value).base64EncodedString()
        }
        put("SOI", [])
        var at = 2
        var profile: [UInt8] = []
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard at + 2 + length <= bytes.count else { return }
            let payload = bytes[(at + 4)..<(at + 2 + length)]
            put(Self.segmentName(marker, payload), payload)
            if marker == 0xE2, payload.starts(with: Array("ICC_PROFILE".utf8)) { profile += payload.dropFirst(14) }
            if marker == 0xE1, payload.starts(with: Array("http://ns.adobe.com/xap/1.0/\u{0}".utf8)), !entries.keys.contains(where: { $0.hasPrefix("xmp ") }) {
                addXMP(Array(payload.dropFirst(29)))
            }
            at += 2 + length
            if marker == 0xDA {
                put("image data", bytes[at...])
                break
            }
        }
        _ = profile
    }

    static func segmentName(_ marker: UInt8, _ payload: ArraySlice<UInt8>) -> String {
        func starts(_ text: String) -> Bool { payload.starts(with: Array(text.utf8)) }
        var name: String
        switch marker {
        case 0xDA: name = "SOS"
        case 0xDB: name = "DQT"
        case 0xC4: name = "DHT"
        case 0xDD: name = "DRI"
        case 0xFE: name = "COM"
        case 0xE0...0xEF: name = "APP\(marker - 0xE0)"
        case 0xC0...0xCF: name = "SOF\(marker - 0xC0)"
        default: name = "0xFF" + String(marker, radix: 16, uppercase: true)
        }
        let labels: [(UInt8, String, String)] = [(0xE0, "JFIF", "JFIF"), (0xE0, "JFXX", "JFXX"), (0xE1, "Exif\u{0}\u{0}", "Exif"),
                                                  (0xE1, "http://ns.adobe.com/xap/1.0/", "XMP"), (0xE1, "http://ns.adobe.com/xmp/exten", "ExtendedXMP"),
                                                  (0xE2, "ICC_PROFILE", "ICC_PROFILE"), (0xE2, "MPF", "MPF"), (0xEE, "Adobe", "Adobe")]
        if let label = labels.first(where: { $0.0 == marker && starts($0.1) }) { name += " " + label.2 }
        return name
    }

    mutating func addHEIF(_ heif: IndependentHEIF) {
        for id in heif.order {
            guard let item = heif.items[id] else { continue }
            var name = "\(id) \(item.type)"
            if !item.contentType.isEmpty { name += " \(item.contentType)" }
            if let aux = heif.properties[id]?.first(where: { $0.type == "auxC" }) {
                name += " " + String(decoding: aux.payload.dropFirst(4).prefix { $0 != 0 }, as: UTF8.self)
            }
            entries["heif-item \(name)"] = Data(heif.data(id)).base64EncodedString()
        }
        for reference in heif.references {
            entries["heif-reference \(reference.type) \(reference.from) -> " + reference.to.map(String.init).joined(separator: " ")] = ""
        }
        for id in heif.properties.keys.sorted() {
            var counts: [String: Int] = [:]
            for property in heif.properties[id] ?? [] {
                counts[property.type, default: 0] += 1
                let count = counts[property.type, default: 1]
                entries["heif-property \(id) \(property.type)" + (count > 1 ? " #\(count)" : "")] = Data(property.payload).base64EncodedString()
                if property.type == "colr", property.payload.starts(with: Array("prof".utf8)) || property.payload.starts(with: Array("rICC".utf8)) {
                    entries["icc item \(id)"] = Data(property.payload.dropFirst(4)).base64EncodedString()
                }
            }
        }
    }

    /// XMP properties: every attribute outside RDF's namespace, and every element with text and
    /// no element inside, by namespace URI and local name, repeats numbered.
    mutating func addXMP(_ packet: [UInt8]) {
        let collector = XMPCollector()
        let parser = XMLParser(data: Data(packet))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.delegate = collector
        _ = parser.parse()
        var counts: [String: Int] = [:]
        for (name, value) in collector.properties {
            counts[name, default: 0] += 1
            let count = counts[name, default: 1]
            entries["xmp \(name)" + (count > 1 ? " #\(count)" : "")] = value
        }
    }

    /// ExifTool's tags of `groups`, named by group and tag ID as the ledger names them.
    mutating func addExifTool(_ url: URL, groups: [String], jpeg: Bool) throws {
        let result = try Scratch.run("exiftool", ["-j", "-a", "-u", "-U", "-D", "-G1", "-n", "-b"] + groups.map { "-\($0):all" } + [url.path])
        let record = (try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])?.first ?? [:]
        var icc: [String] = []
        for (key, value) in record.sorted(by: { $0.key < $1.key }) {
            guard let tag = value as? [String: Any], let group = key.split(separator: ":").first.map(String.init) else { continue }
            let id = tag["id"]
            let text = "\(tag["val"] ?? "")"
            switch group {
            case _ where group.hasPrefix("ICC"): icc.append(key + "=" + text)
            default:
                if let number = id as? Int { entries["exif \(group) 0x" + String(format: "%04x", number)] = text }
            }
        }
        if jpeg, !icc.isEmpty { entries["icc profile"] = icc.joined(separator: "\n") }
        addAppleMakerNote([UInt8](try Scratch.run("exiftool", ["-b", "-MakerNotes", url.path]).stdout))
    }

    /// An Apple MakerNote's keys ("Apple iOS", NUL, version, "MM", then a big-endian IFD whose
    /// offsets count from the note's start), each valued by its raw bytes.
    mutating func addAppleMakerNote(_ note: [UInt8]) {
        guard note.count >= 16, note.starts(with: Array("Apple iOS".utf8)) else { return }
        let walk = BoxWalk(bytes: note)
        let sizes: [UInt64: UInt64] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 16: 8]
        let count = Int(walk.be(14, 2))
        for index in 0..<count where 16 + 12 * index + 12 <= note.count {
            let at = 16 + 12 * index
            let length = (sizes[walk.be(at + 2, 2)] ?? 1) * walk.be(at + 4, 4)
            let start = length <= 4 ? at + 8 : Int(walk.be(at + 8, 4))
            let value = start + Int(length) <= note.count ? note[start..<(start + Int(length))] : []
            entries["maker-note key \(walk.be(at, 2))"] = "\(walk.be(at + 2, 2)) " + Data(value).base64EncodedString()
        }
    }
}

/// Top-level and child boxes of bytes in memory (sizes of 64 bits and "to the end" read).
final class XMPCollector: NSObject, XMLParserDelegate {
    var properties: [(String, String)] = []
    private var prefixes: [String: String] = [:]
    private var stack: [(name: String, text: String, hasChild: Bool)] = []
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) { prefixes[prefix] = namespaceURI }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                attributes attributeDict: [String: String] = [:]) {
        if !stack.isEmpty { stack[stack.count - 1].hasChild = true }
        for (key, value) in attributeDict.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[0] != "xmlns", let uri = prefixes[parts[0]], uri != Self.rdf else { continue }
            properties.append(("\(uri) \(parts[1])", value))
        }
        stack.append(((namespaceURI ?? "") + " " + elementName, "", false))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !stack.isEmpty { stack[stack.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let element = stack.popLast() else { return }
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !element.hasChild, !text.isEmpty, namespaceURI != Self.rdf, !(namespaceURI ?? "").isEmpty { properties.append((element.name, text)) }
    }
}
