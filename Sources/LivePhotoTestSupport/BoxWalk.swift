/// ISO BMFF boxes walked by the tests themselves, not by lpcheck's readers: an independent
/// reading for oracles (sizes of 32 and 64 bits, a size of 0 to the end; no recursion).
public struct BoxWalk {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public func be(_ at: Int, _ width: Int) -> UInt64 {
        guard at >= 0, at + width <= bytes.count else { return 0 }
        return (0..<width).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[at + $1]) }
    }

    public func children(_ range: Range<Int>) -> [(type: String, body: Range<Int>)] {
        var found: [(type: String, body: Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = Int(be(at, 4)), header = 8
            if size == 1 { size = Int(be(at + 8, 8)); header = 16 } else if size == 0 { size = range.upperBound - at }
            guard size >= header, at + size <= range.upperBound else { break }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)].map { $0 }, as: Unicode.ASCII.self)
            found.append((bytes[at + 4] == 0xA9 ? "©" + type.dropFirst() : type, (at + header)..<(at + size)))
            at += size
        }
        return found
    }
}
