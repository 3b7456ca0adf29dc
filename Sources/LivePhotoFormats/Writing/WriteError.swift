/// Why a writer cannot produce a file: a stable code (for tests and callers to act on, like
/// `ParseError.Code`) and a message for people. Every writer of this module throws this type.
public struct WriteError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Code: String, Sendable {
        /// The input lacks what the edit needs (no `moov`, no video track, no timescale, no Exif item).
        case missingStructure = "missing-structure"
        /// The edit would need a layout lpcheck does not write (a 64-bit `moov` before `mdat`,
        /// an Exif item in several extents, a format other than JPEG or HEIC).
        case unsupportedLayout = "unsupported-layout"
        /// A number would not fit its field (track ID, chunk offset, iloc offset or length, JPEG segment length).
        case fieldOverflow = "field-overflow"
        /// The input contradicts itself where the writer walks it (a box past its parent).
        case inconsistentInput = "inconsistent-input"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
