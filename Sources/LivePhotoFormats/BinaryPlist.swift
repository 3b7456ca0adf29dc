/// A bounded reader for binary property lists (`bplist00`), as Apple MakerNote values use.
/// Foundation's parser crashed on a fuzzed set object, so lpcheck reads them itself: every
/// offset and count is checked against the data, references may not form cycles, nesting and
/// object counts are limited.
enum BinaryPlist {
    struct Failure: Error {}

    static let maxObjects = 100_000

    static func decode(_ bytes: [UInt8]) -> PlistValue? {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard let objectCount = Int(exactly: integer(bytes, trailer + 8, 8)),
              let top = Int(exactly: integer(bytes, trailer + 16, 8)),
              let tableOffset = Int(exactly: integer(bytes, trailer + 24, 8)),
              (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              objectCount > 0, objectCount <= maxObjects, top < objectCount,
              tableOffset >= 8, tableOffset <= trailer,
              objectCount <= (trailer - tableOffset) / offsetSize else { return nil }
        var reader = Reader(bytes: bytes, trailer: trailer, offsetSize: offsetSize, referenceSize: referenceSize,
                            objectCount: objectCount, tableOffset: tableOffset)
        return try? reader.object(top, depth: 0)
    }

    /// Big-endian unsigned integer of `width` bytes at `at` (the caller checked the range).
    static func integer(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in at..<(at + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    struct Reader {
        let bytes: [UInt8]
        let trailer: Int
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let tableOffset: Int
        var active = Set<Int>()

        func offset(of object: Int) throws -> Int {
            let at = tableOffset + object * offsetSize
            guard let offset = Int(exactly: integer(bytes, at, offsetSize)), offset >= 8, offset < tableOffset else { throw Failure() }
            return offset
        }

        func checked(_ start: Int, _ count: Int) throws -> Range<Int> {
            guard count >= 0, start >= 0, start <= tableOffset, count <= tableOffset - start else { throw Failure() }
            return start..<(start + count)
        }

        /// The length of an object: in the low nibble, or (0xF) in a following integer object.
        func length(_ marker: UInt8, after at: Int) throws -> (count: Int, start: Int) {
            let nibble = Int(marker & 0x0F)
            guard nibble == 0x0F else { return (nibble, at + 1) }
            let range = try checked(at + 1, 1)
            let header = bytes[range.lowerBound]
            guard header >> 4 == 0x1 else { throw Failure() }
            let width = 1 << Int(header & 0x0F)
            guard width <= 8 else { throw Failure() }
            let field = try checked(at + 2, width)
            guard let count = Int(exactly: integer(bytes, field.lowerBound, width)), count <= maxObjects * 16 else { throw Failure() }
            return (count, field.upperBound)
        }

        mutating func object(_ index: Int, depth: Int) throws -> PlistValue {
            guard index >= 0, index < objectCount, depth < Limits.maxDepth, !active.contains(index) else { throw Failure() }
            let at = try offset(of: index)
            let marker = bytes[at]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: return .data([])
                }
            case 0x1:
                let width = 1 << Int(marker & 0x0F)
                guard width <= 16 else { throw Failure() }
                let range = try checked(at + 1, width)
                // 8-byte integers are signed; 16-byte ones keep their low 8 bytes.
                let raw = integer(bytes, range.upperBound - min(width, 8), min(width, 8))
                return .integer(width >= 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2:
                let width = 1 << Int(marker & 0x0F)
                let range = try checked(at + 1, width)
                if width == 4 { return .real(Double(Float(bitPattern: UInt32(integer(bytes, range.lowerBound, 4))))) }
                if width == 8 { return .real(Double(bitPattern: integer(bytes, range.lowerBound, 8))) }
                throw Failure()
            case 0x3:
                let range = try checked(at + 1, 8)
                return .date(Double(bitPattern: integer(bytes, range.lowerBound, 8)) + 978_307_200)
            case 0x4:
                let (count, start) = try length(marker, after: at)
                return .data(Array(bytes[try checked(start, count)]))
            case 0x5:
                let (count, start) = try length(marker, after: at)
                return .string(String(decoding: bytes[try checked(start, count)], as: UTF8.self))
            case 0x6:
                let (count, start) = try length(marker, after: at)
                let range = try checked(start, count * 2)
                let units = stride(from: range.lowerBound, to: range.upperBound, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                let width = Int(marker & 0x0F) + 1
                guard width <= 8 else { throw Failure() }
                let range = try checked(at + 1, width)
                return .integer(Int64(bitPattern: integer(bytes, range.lowerBound, width)))
            case 0xA, 0xC, 0xD:
                let (count, start) = try length(marker, after: at)
                let isDictionary = marker >> 4 == 0xD
                let references = try checked(start, count * referenceSize * (isDictionary ? 2 : 1))
                func reference(_ slot: Int) -> Int {
                    Int(truncatingIfNeeded: integer(bytes, references.lowerBound + slot * referenceSize, referenceSize))
                }
                active.insert(index)
                defer { active.remove(index) }
                if isDictionary {
                    var pairs: [(String, PlistValue)] = []
                    for slot in 0..<count {
                        let key = try object(reference(slot), depth: depth + 1)
                        pairs.append((key.displayText, try object(reference(count + slot), depth: depth + 1)))
                    }
                    return .dictionary(pairs.sorted { $0.0 < $1.0 })
                }
                return .array(try (0..<count).map { try object(reference($0), depth: depth + 1) })
            default:
                throw Failure()
            }
        }
    }
}
