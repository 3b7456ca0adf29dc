#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names are bytes on Linux, and not always UTF-8 (old Windows and Samba shares write
/// Latin-1 names such as `IMG_\xE9t\xE9.JPG`). lpcheck keeps paths as `String`s, so every byte
/// that is not part of valid UTF-8 is held as one private-use scalar, U+10FF80 + (byte - 0x80),
/// and turned back into that byte whenever the path goes to the system. Nothing is lost between
/// `readdir` and `open`, and reports can print the byte (`\xE9`) or escape it losslessly (JSON:
/// `\udcE9`, the convention Python's `os.fsdecode` uses).
public enum PathBytes {
    /// The first scalar of the range that stands for raw bytes 0x80...0xFF.
    static let base: UInt32 = 0x10FF80

    /// A path from bytes: valid UTF-8 kept, every other byte held as one scalar of the range.
    public static func string<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        let array = Array(bytes)
        var index = 0
        while index < array.count {
            let length = validSequenceLength(array, at: index)
            if length > 0, let text = String(validating: array[index..<(index + length)], as: UTF8.self) {
                scalars.append(contentsOf: text.unicodeScalars)
                index += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(array[index] & 0x7F)) ?? "\u{FFFD}")
                index += 1
            }
        }
        return String(scalars)
    }

    /// A name from a directory entry: ASCII bytes (nearly every name) are valid UTF-8 as they
    /// are, and are taken without the generic validation (a visible share of a warm re-check;
    /// BENCHMARKS.md).
    public static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }
        return high < 0x80 ? String(decoding: bytes, as: UTF8.self) : string(bytes[...])
    }

    /// The scalar that stands for a raw byte 0x80...0xFF written as a lone low surrogate
    /// (`\udcE9`, JSON's form of it); nil for any other value.
    public static func scalar(escapedAs surrogate: UInt32) -> Unicode.Scalar? {
        guard surrogate >= 0xDC80, surrogate <= 0xDCFF else { return nil }
        return Unicode.Scalar(base + (surrogate - 0xDC80))
    }

    /// The raw byte a scalar stands for, if it is one of the range.
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        guard scalar.value >= base, scalar.value <= base + 0x7F else { return nil }
        return UInt8(scalar.value - base) | 0x80
    }

    /// Whether the path holds any byte that is not UTF-8.
    public static func hasRawBytes(_ path: String) -> Bool {
        // Every scalar of the range is encoded with the lead byte F4: a path without one (nearly
        // all) is answered by a scan of contiguous bytes, not a walk of its scalars.
        var copy = path
        guard copy.withUTF8({ $0.contains(0xF4) }) else { return false }
        return path.unicodeScalars.contains { $0.value >= base }
    }

    /// The bytes the system knows the path by.
    public static func bytes(_ path: String) -> [UInt8] {
        guard hasRawBytes(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let raw = rawByte(scalar) { bytes.append(raw) } else { bytes.append(contentsOf: String(scalar).utf8) }
        }
        return bytes
    }

    /// Calls `body` with the path as the system's C string.
    public static func withCString<T>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard hasRawBytes(path) else { return try path.withCString(body) }
        let bytes = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return try "".withCString(body) }
            return try body(base)
        }
    }

    /// The path with raw bytes shown as `\xE9`, for people.
    public static func display(_ path: String) -> String {
        guard hasRawBytes(path) else { return path }
        var out = ""
        for scalar in path.unicodeScalars {
            if let raw = rawByte(scalar) {
                out += "\\x" + (raw < 0x10 ? "0" : "") + String(raw, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Length of the valid UTF-8 sequence starting at `index`, or 0.
    static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }

    // The system calls lpcheck makes on paths, through the bytes above.

    public static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        withCString(path) { systemOpen($0, flags, mode) }
    }

    public static func status(_ path: String, _ info: inout stat) -> Int32 {
        withCString(path) { systemStat($0, &info) }
    }

    public static func linkStatus(_ path: String, _ info: inout stat) -> Int32 {
        withCString(path) { systemLstat($0, &info) }
    }

    /// Whether anything (a file, folder or link, even a broken one) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return linkStatus(path, &info) == 0
    }
}

// The C functions, named apart from the wrappers above.
@inline(__always) private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
@inline(__always) private func systemStat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(path, &info) }
@inline(__always) private func systemLstat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { lstat(path, &info) }
