import Foundation
import LivePhotoFormats
import Testing

/// What `.json` and `.xmp` sidecars state of their file's capture, read from hostile bytes too.
struct SidecarDateTests {
    static func date(_ text: String, name: String) -> SidecarDate? {
        MediaFile.inspect(source: MemorySource(Array(text.utf8)), path: "dir/" + name).sidecarDate
    }

    @Test("Takeout's photoTakenTime.timestamp (a string, or a number) and an XMP sidecar's dates in their order of preference")
    func reads() {
        #expect(Self.date(#"{"title": "a.jpg", "photoTakenTime": {"timestamp": "1618051440", "formatted": "10 Apr 2021"}}"#, name: "a.jpg.json")
                == SidecarDate(kind: .takeout, field: "photoTakenTime.timestamp", text: "1618051440"))
        #expect(Self.date(#"{"photoTakenTime": {"timestamp": 1618051440}}"#, name: "A.JPG.supplemental-metadata.JSON")?.text == "1618051440")
        let both = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmp:CreateDate="2020-01-01T00:00:00" exif:DateTimeOriginal="2021-04-10T11:44:00.52+01:00"/></rdf:RDF></x:xmpmeta>"#
        #expect(Self.date(both, name: "a.xmp") == SidecarDate(kind: .xmp, field: "exif:DateTimeOriginal", text: "2021-04-10T11:44:00.52+01:00"))
        #expect(Self.date(both.replacingOccurrences(of: " exif:DateTimeOriginal=\"2021-04-10T11:44:00.52+01:00\"", with: ""), name: "a.xmp")?.field == "xmp:CreateDate")
    }

    @Test("no date, another extension, malformed or hostile sidecars: no date and no crash")
    func hostile() {
        #expect(Self.date(#"{"title": "a.jpg"}"#, name: "a.jpg.json") == nil)
        #expect(Self.date(#"{"photoTakenTime": {"timestamp": "1618051440"}}"#, name: "a.txt") == nil)
        #expect(Self.date(#"{"photoTakenTime": {"timestamp": "#, name: "a.json") == nil)
        #expect(Self.date(String(repeating: "[", count: 200_000), name: "deep.json") == nil)
        #expect(Self.date("<x:xmpmeta", name: "a.xmp") == nil)
        // Larger than any sidecar: not read at all.
        let padded = #"{"photoTakenTime": {"timestamp": "1618051440"}, "pad": ""# + String(repeating: " ", count: 1 << 20) + "\"}"
        let source = MemorySource(Array(padded.utf8))
        #expect(MediaFile.inspect(source: source, path: "big.json").sidecarDate == nil)
        #expect(source.stats.bytesRead < 4096)
    }
}
