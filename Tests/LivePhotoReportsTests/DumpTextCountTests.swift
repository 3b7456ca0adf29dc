import Foundation
import LivePhotoFormats
import LivePhotoReports
import Testing

/// Issue 25, case 10: the text dump's counts match what it lists.
struct DumpTextCountTests {
    @Test("the text dump's XMP line counts what it lists: all properties, or says which are shown")
    func xmpCount() throws {
        let xmp = Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
         GCamera:MotionPhoto="1" xmp:CreatorTool="test" xmp:Rating="3"/></rdf:RDF></x:xmpmeta>
        """.utf8)
        let header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        let length = 2 + header.count + xmp.count
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0, 0, 0xFF, 0xD9]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + header + xmp + scan
        let text = DumpText.render(MediaFile.inspect(source: MemorySource(jpeg), path: "x.jpg"))
        #expect(text.contains("XMP (3 properties; the 1 in Google's namespaces shown, --format json lists all)"))
    }
}
