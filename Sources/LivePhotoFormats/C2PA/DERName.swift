/// An X.509 certificate's subject read from its DER bytes: just the walk to the subject name and
/// its attributes (RFC 5280, 4.1), every length held to its container. Nothing is verified.
enum DERName {
    /// One TLV: its tag and its content's range; nil when the bytes do not hold it.
    static func element(_ bytes: [UInt8], at offset: Int, in container: Range<Int>) -> (tag: UInt8, content: Range<Int>)? {
        guard offset >= container.lowerBound, offset + 2 <= container.upperBound else { return nil }
        let tag = bytes[offset]
        var length = Int(bytes[offset + 1]), start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), start + count <= container.upperBound else { return nil }
            length = bytes[start..<(start + count)].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard length >= 0, length <= container.upperBound - start else { return nil }
        return (tag, start..<(start + length))
    }

    /// The elements directly inside `range`, in order.
    static func elements(_ bytes: [UInt8], in range: Range<Int>) -> [(tag: UInt8, content: Range<Int>)] {
        var result: [(tag: UInt8, content: Range<Int>)] = []
        var at = range.lowerBound
        while at < range.upperBound, let next = element(bytes, at: at, in: range) {
            result.append(next)
            at = next.content.upperBound
        }
        return result
    }

    static let names: [[UInt8]: String] = [[0x55, 0x04, 0x03]: "CN", [0x55, 0x04, 0x0A]: "O", [0x55, 0x04, 0x0B]: "OU", [0x55, 0x04, 0x06]: "C",
                                          [0x55, 0x04, 0x07]: "L", [0x55, 0x04, 0x08]: "ST"]

    /// `CN=…, O=…, C=…` in the order the certificate lists them; nil when it is no certificate.
    static func subject(_ certificate: [UInt8]) -> String? {
        let all = 0..<certificate.count
        guard let outer = element(certificate, at: 0, in: all), outer.tag == 0x30,
              let tbs = elements(certificate, in: outer.content).first, tbs.tag == 0x30 else { return nil }
        var fields = elements(certificate, in: tbs.content)
        if fields.first?.tag == 0xA0 { fields.removeFirst() }
        // serialNumber, signature, issuer, validity, subject.
        guard fields.count >= 5, fields[4].tag == 0x30 else { return nil }
        var parts: [String] = []
        for set in elements(certificate, in: fields[4].content) where set.tag == 0x31 {
            for pair in elements(certificate, in: set.content) where pair.tag == 0x30 {
                let inside = elements(certificate, in: pair.content)
                guard inside.count == 2, inside[0].tag == 0x06, let name = names[Array(certificate[inside[0].content])] else { continue }
                let value = certificate[inside[1].content]
                // BMPString (0x1E) is UTF-16BE; the others here are ASCII or UTF-8.
                let text = inside[1].tag == 0x1E
                    ? String(decoding: stride(from: value.startIndex, to: value.endIndex - 1, by: 2).map { UInt16(value[$0]) << 8 | UInt16(value[$0 + 1]) }, as: UTF16.self)
                    : String(decoding: value, as: UTF8.self)
                parts.append("\(name)=\(text)")
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
