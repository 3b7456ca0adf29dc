/// A zip archive's members (APPNOTE 6.3.10), read without extracting anything: a `.livp` (what
/// iCloud.com and cloud drives hand out for a Live Photo) is a zip of a still and a movie,
/// stored, which lpcheck reads in place as byte windows of the archive.
///
/// The central directory is found from the end-of-central-directory record (the last 64 KiB
/// and 22 bytes), zip64's records when a field says so; every member's local header is read and
/// held to its central entry (name, method, sizes). Refused, with the offset: more members than
/// `maxMembers`, a directory or member past the end of the archive, members that overlap, a
/// local header that disagrees with the directory, a name that is absolute, climbs out (`..`)
/// or holds a NUL. A member that is encrypted or compressed is listed as such: its bytes are
/// not the file's, and nothing reads them.
public struct ZipArchive: Sendable {
    public struct Member: Sendable, Equatable {
        /// The name's bytes as stored, and as text (UTF-8, or each byte as its code point).
        public var nameBytes: [UInt8]
        public var name: String
        /// 0 stored, 8 deflated, others as stored.
        public var method: UInt16
        public var encrypted: Bool
        public var compressedSize: UInt64
        public var uncompressedSize: UInt64
        public var crc32: UInt32
        public var localHeaderOffset: UInt64
        /// Where the member's (stored or compressed) bytes are in the archive.
        public var data: Range<Int64>
        /// Whether its bytes are the file's own (stored, not encrypted): only these are read.
        public var readable: Bool { method == 0 && !encrypted }
    }

    public var members: [Member]
    /// Whether zip64's end records were read.
    public var zip64: Bool

    public static let maxMembers = 1_000
    static let maxDirectory = 16 << 20

    /// Whether the bytes start as a zip's first local header.
    public static func isZip(_ head: [UInt8]) -> Bool { head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && head[2] == 3 && head[3] == 4 }

    public init(source: ByteSource, path: String, maxMembers: Int = ZipArchive.maxMembers) throws {
        func fail(_ code: ParseError.Code, _ message: String, at offset: Int64) -> ParseError { ParseError(code, message, offset: offset, path: path) }
        let size = source.size
        guard size >= 22 else { throw fail(.truncated, "a zip of \(size) bytes holds no end-of-central-directory record", at: 0) }
        let tailStart = max(0, size - 65_557)
        let tail = try source.read(at: tailStart, count: Int(size - tailStart))
        // The last record whose comment runs exactly to the end.
        var end: Int? = nil
        var at = tail.count - 22
        while at >= 0 {
            if tail[at] == 0x50, tail[at + 1] == 0x4B, tail[at + 2] == 5, tail[at + 3] == 6,
               Int(Self.le(tail, at + 20, 2)) == tail.count - at - 22 {
                end = at
                break
            }
            at -= 1
        }
        guard let end else { throw fail(.truncated, "no end-of-central-directory record: the archive is cut short or is no zip", at: size) }
        let endOffset = tailStart + Int64(end)
        var count = Self.le(tail, end + 10, 2), directorySize = Self.le(tail, end + 12, 4), directoryOffset = Self.le(tail, end + 16, 4)
        zip64 = false
        // zip64: the locator just before the record points at the zip64 end record. It is read
        // when a field says so (all ones) and whenever a locator is there, as Python's and
        // libzip's readers do (Python writes one past its own limits with fields that fit);
        // a field that is not all ones must then agree with the zip64 record's.
        let sentinels = (count == 0xFFFF, directorySize == 0xFFFF_FFFF, directoryOffset == 0xFFFF_FFFF)
        let located = end >= 20 && Self.le(tail, end - 20, 4) == 0x0706_4B50
        if sentinels.0 || sentinels.1 || sentinels.2 || located {
            guard located else {
                throw fail(.invalidValue, "the end record's fields say zip64, but no zip64 locator precedes it", at: endOffset)
            }
            let recordOffset = Self.le(tail, end - 12, 8)
            guard Self.fits(recordOffset, 56, in: size) else { throw fail(.outsideFile, "the zip64 end record's 56 bytes are said to start at byte \(recordOffset), and the archive holds \(size)", at: endOffset - 20) }
            let record = try source.read(at: Int64(recordOffset), count: 56)
            guard Self.le(record, 0, 4) == 0x0606_4B50 else { throw fail(.invalidValue, "no zip64 end record at byte \(recordOffset)", at: Int64(recordOffset)) }
            let wide = (Self.le(record, 32, 8), Self.le(record, 40, 8), Self.le(record, 48, 8))
            guard sentinels.0 || wide.0 == count, sentinels.1 || wide.1 == directorySize, sentinels.2 || wide.2 == directoryOffset else {
                throw fail(.invalidValue, "the end record (\(count) members, a directory of \(directorySize) bytes at \(directoryOffset)) and the zip64 end record (\(wide.0), \(wide.1) at \(wide.2)) disagree", at: endOffset)
            }
            (count, directorySize, directoryOffset) = wide
            zip64 = true
        }
        guard count <= UInt64(maxMembers) else { throw fail(.limitExceeded, "\(count) members, more than the \(maxMembers) lpcheck reads of an archive", at: endOffset) }
        guard directorySize <= UInt64(Self.maxDirectory), Self.fits(directoryOffset, directorySize, in: size) else {
            throw fail(.outsideFile, "the central directory (\(directorySize) bytes at \(directoryOffset)) is not inside the archive's \(size) bytes", at: endOffset)
        }
        let directory = try source.read(at: Int64(directoryOffset), count: Int(directorySize))
        members = []
        var position = 0
        for index in 0..<Int(count) {
            let entryOffset = Int64(directoryOffset) + Int64(position)
            guard position + 46 <= directory.count, Self.le(directory, position, 4) == 0x0201_4B50 else {
                throw fail(.invalidValue, "central directory entry \(index + 1) is not where the directory says", at: entryOffset)
            }
            let flags = Self.le(directory, position + 8, 2), method = UInt16(Self.le(directory, position + 10, 2))
            let crc = UInt32(Self.le(directory, position + 16, 4))
            var compressed = Self.le(directory, position + 20, 4), uncompressed = Self.le(directory, position + 24, 4)
            let nameLength = Int(Self.le(directory, position + 28, 2)), extraLength = Int(Self.le(directory, position + 30, 2))
            let commentLength = Int(Self.le(directory, position + 32, 2))
            var local = Self.le(directory, position + 42, 4)
            let nameStart = position + 46
            guard nameStart + nameLength + extraLength + commentLength <= directory.count else {
                throw fail(.truncated, "central directory entry \(index + 1) runs past the directory", at: entryOffset)
            }
            let nameBytes = Array(directory[nameStart..<(nameStart + nameLength)])
            // zip64's extended information: the 64-bit values of the fields that are all ones, in order.
            var extra = nameStart + nameLength
            let extraEnd = extra + extraLength
            while extra + 4 <= extraEnd {
                let tag = Self.le(directory, extra, 2), length = Int(Self.le(directory, extra + 2, 2))
                guard extra + 4 + length <= extraEnd else { break }
                if tag == 1 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { uncompressed = Self.le(directory, field, 8); field += 8 }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { compressed = Self.le(directory, field, 8); field += 8 }
                    if local == 0xFFFF_FFFF, field + 8 <= extra + 4 + length { local = Self.le(directory, field, 8); field += 8 }
                }
                extra += 4 + length
            }
            let name = Self.text(nameBytes)
            if let problem = Self.unsafeName(nameBytes) { throw fail(.invalidValue, "member \(index + 1) is named \"\(name)\", \(problem)", at: entryOffset) }
            guard Self.fits(local, 30, in: size) else { throw fail(.outsideFile, "member \(name)'s local header is said to be at byte \(local), past the archive's \(size) bytes", at: entryOffset) }
            let header = try source.read(at: Int64(local), count: 30)
            guard Self.le(header, 0, 4) == 0x0403_4B50 else { throw fail(.invalidValue, "member \(name): no local header at byte \(local), where the directory says", at: Int64(local)) }
            let localNameLength = Int(Self.le(header, 26, 2)), localExtraLength = Int(Self.le(header, 28, 2))
            let localName = try source.read(at: Int64(local) + 30, count: min(localNameLength, Int(max(0, size - Int64(local) - 30))))
            guard localName == nameBytes, UInt16(Self.le(header, 8, 2)) == method else {
                throw fail(.invalidValue, "member \(name): its local header (name \"\(Self.text(localName))\", method \(Self.le(header, 8, 2))) disagrees with the central directory (method \(method))", at: Int64(local))
            }
            // Sizes after the data (bit 3) are zero here; otherwise they must be the directory's.
            let localCompressed = Self.le(header, 18, 4), localUncompressed = Self.le(header, 22, 4)
            if flags & 8 == 0, localCompressed != 0xFFFF_FFFF, localCompressed != compressed || localUncompressed != uncompressed {
                throw fail(.invalidValue, "member \(name): its local header says \(localCompressed) bytes (\(localUncompressed) uncompressed), the central directory \(compressed) (\(uncompressed))", at: Int64(local))
            }
            // local + 30 ≤ size (above) and the two lengths are 16-bit: no overflow.
            let dataStart = Int64(local) + 30 + Int64(localNameLength) + Int64(localExtraLength)
            guard Self.fits(UInt64(dataStart), compressed, in: size) else {
                throw fail(.outsideFile, "member \(name) claims \(compressed) bytes from byte \(dataStart), past the archive's \(size) bytes", at: Int64(local))
            }
            if method == 0, flags & 1 == 0, compressed != uncompressed {
                throw fail(.invalidValue, "member \(name) is stored, yet its sizes differ (\(compressed) stored, \(uncompressed) uncompressed)", at: entryOffset)
            }
            members.append(Member(nameBytes: nameBytes, name: name, method: method, encrypted: flags & 1 != 0, compressedSize: compressed, uncompressedSize: uncompressed,
                                  crc32: crc, localHeaderOffset: local, data: dataStart..<(dataStart + Int64(compressed))))
            position = nameStart + nameLength + extraLength + commentLength
        }
        // A name stored twice is ambiguous (unzip tools take the last copy, a reader by the
        // first): neither is the member.
        var seen: [[UInt8]: Int] = [:]
        for (index, member) in members.enumerated() {
            if let first = seen.updateValue(index, forKey: member.nameBytes) {
                throw fail(.invalidValue, "members \(first + 1) and \(index + 1) are both named \"\(member.name)\": which one is the file is ambiguous", at: Int64(member.localHeaderOffset))
            }
        }
        // Members (local header to data end) may not share bytes.
        let spans = members.map { (Int64($0.localHeaderOffset)..<$0.data.upperBound, $0.name) }.sorted { $0.0.lowerBound < $1.0.lowerBound }
        for (first, second) in zip(spans, spans.dropFirst()) where first.0.upperBound > second.0.lowerBound {
            throw fail(.invalidValue, "members \(first.1) and \(second.1) overlap (bytes \(second.0.lowerBound)..<\(min(first.0.upperBound, second.0.upperBound)))", at: second.0.lowerBound)
        }
    }

    /// Whether `count` bytes from `offset` lie inside an archive of `size` bytes, in checked
    /// arithmetic: both numbers are the file's, so either may be anything a field can hold.
    static func fits(_ offset: UInt64, _ count: UInt64, in size: Int64) -> Bool {
        guard size >= 0, offset <= UInt64(size) else { return false }
        return count <= UInt64(size) - offset
    }

    /// Why a member's name is unsafe to write anywhere, or nil.
    static func unsafeName(_ bytes: [UInt8]) -> String? {
        if bytes.isEmpty { return "an empty name" }
        if bytes.contains(0) { return "which holds a NUL byte" }
        if bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "\\") || (bytes.count >= 2 && bytes[1] == UInt8(ascii: ":")) { return "an absolute path" }
        let parts = bytes.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
        if parts.contains(where: { $0.elementsEqual("..".utf8) }) { return "which climbs out of its folder (..)" }
        return nil
    }

    /// A name as text: UTF-8 when it is, else each byte as its code point.
    static func text(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// A little-endian field of `width` bytes (zero past the end).
    static func le(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        guard at >= 0, at + width <= bytes.count else { return 0 }
        var value: UInt64 = 0
        for index in stride(from: width - 1, through: 0, by: -1) { value = value << 8 | UInt64(bytes[at + index]) }
        return value
    }
}
