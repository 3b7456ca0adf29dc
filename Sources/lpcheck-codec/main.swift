import Foundation
import LivePhotoCodec
import LivePhotoFormats

// lpcheck's codec helper: the one program that links FFmpeg's libraries. `lpcheck make CLIP`
// runs it for what needs pixels, and reads what it writes on standard output; nothing here
// writes a file. lpcheck itself, and every command that only reads, never loads FFmpeg.
//
//   lpcheck-codec probe
//   lpcheck-codec still MOVIE SAMPLE jpeg|hevc [--max-pixels N]
//       the video track's sample SAMPLE (1-based, decoding order), decoded and encoded: a JPEG;
//       or for hevc three boxes, `hvcC` (the configuration), `colr` (nclx, as decoded) and
//       `data` (the picture's NAL units, 4-byte lengths)

let arguments = CommandLine.arguments.dropFirst()

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(("lpcheck-codec: " + message + "\n").utf8))
    exit(status)
}

func writeOut(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if written < 0 { if errno == EINTR { continue }; fail("standard output: \(String(cString: strerror(errno)))", status: 1) }
        offset += written
    }
}

CodecLog.errorsOnly()

switch arguments.first {
case "probe":
    print("lpcheck-codec: FFmpeg \(CodecVersions.text)")
case "still":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 3, let sample = Int(rest[1]), sample >= 1, rest[2] == "jpeg" || rest[2] == "hevc" else { fail("usage: still MOVIE SAMPLE jpeg|hevc [--max-pixels N]", status: 2) }
    var maxPixels = 40_000_000
    if rest.count == 5, rest[3] == "--max-pixels", let value = Int(rest[4]), value > 0 { maxPixels = value }
    let path = rest[0]
    let file = MediaFile.inspect(path: path, options: .full)
    guard file.error == nil, let movie = file.movie, let track = movie.primaryVideoTrack else {
        fail("\(path): no readable movie with a video track: \(file.error?.description ?? file.format.rawValue)", status: 2)
    }
    do {
        let source = try FileSource(path: path)
        let frame = try FrameReader.frame(movie, track: track, sampleIndex: sample - 1, source: source, path: path)
        guard frame.width * frame.height <= maxPixels else { fail("\(path): the decoder gives \(frame.width)×\(frame.height) frames, more than \(maxPixels) pixels", status: 2) }
        if rest[2] == "jpeg" {
            writeOut(try StillEncoder.jpeg(frame))
        } else {
            let picture = try StillEncoder.hevc(frame)
            let record = try HEVCConfiguration.record(videoParameterSets: picture.videoParameterSets, sequenceParameterSets: picture.sequenceParameterSets,
                                                      pictureParameterSets: picture.pictureParameterSets)
            let colour = HEIFImageWriter.nclx(primaries: picture.primaries, transfer: picture.transfer, matrix: picture.matrix, fullRange: picture.fullRange)
            writeOut(BoxWriter.box("hvcC", record) + BoxWriter.box("colr", colour) + BoxWriter.box("data", NALUnit.lengthPrefixed(picture.units)))
        }
    } catch {
        fail("\(error)", status: 1)
    }
default:
    fail("usage: lpcheck-codec probe | still MOVIE SAMPLE jpeg|hevc [--max-pixels N]", status: 2)
}
