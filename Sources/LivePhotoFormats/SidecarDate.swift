import Foundation

/// The capture time a sidecar file states about the media file it describes, as written:
/// Google Takeout's `photoTakenTime.timestamp` (Unix seconds, UTC), or an XMP sidecar's
/// `exif:DateTimeOriginal`, else `photoshop:DateCreated`, else `xmp:CreateDate`. An object:
/// every file's `MediaFile` holds one slot for it, a reference where a value was three strings.
public final class SidecarDate: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case takeout, xmp
    }

    public let kind: Kind
    /// Where in the sidecar: `photoTakenTime.timestamp`, `exif:DateTimeOriginal`, ...
    public let field: String
    public let text: String

    public static func == (lhs: SidecarDate, rhs: SidecarDate) -> Bool { lhs.kind == rhs.kind && lhs.field == rhs.field && lhs.text == rhs.text }

    public init(kind: Kind, field: String, text: String) { (self.kind, self.field, self.text) = (kind, field, text) }

    /// Sidecars are small (Takeout's are about 1 KB); a larger file is not a sidecar lpcheck reads.
    static let maxBytes: Int64 = 1 << 20
    static let xmpFields = [("http://ns.adobe.com/exif/1.0/", "DateTimeOriginal", "exif:DateTimeOriginal"),
                            ("http://ns.adobe.com/photoshop/1.0/", "DateCreated", "photoshop:DateCreated"),
                            ("http://ns.adobe.com/xap/1.0/", "CreateDate", "xmp:CreateDate")]

    /// The date of a `.json` or `.xmp` sidecar (by its name), nil when it states none or is not
    /// one lpcheck reads (too large, not JSON or XMP).
    static func read(source: ByteSource, path: String) -> SidecarDate? {
        let name = path.lowercased()
        guard name.hasSuffix(".json") || name.hasSuffix(".xmp"), source.size > 0, source.size <= maxBytes,
              let bytes = try? source.read(at: 0, count: Int(source.size)) else { return nil }
        if name.hasSuffix(".json") {
            // Foundation's parser bounds its nesting; a sidecar is an object at the top.
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
                  let taken = object["photoTakenTime"] as? [String: Any] else { return nil }
            let value = (taken["timestamp"] as? String) ?? (taken["timestamp"] as? NSNumber)?.stringValue
            return value.map { SidecarDate(kind: .takeout, field: "photoTakenTime.timestamp", text: $0) }
        }
        guard let packet = try? XMPPacket.parse(bytes, base: 0, path: "sidecar") else { return nil }
        for (namespace, property, field) in xmpFields {
            if let value = packet.value(namespace, property) { return SidecarDate(kind: .xmp, field: field, text: value) }
        }
        return nil
    }
}
