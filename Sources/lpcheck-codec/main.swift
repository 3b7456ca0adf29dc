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
//   lpcheck-codec gif GIF STILLFRAME jpeg|hevc h264|hevc RRGGBB [--scale K] [--max-pixels N] [--max-frames N]
//       the GIF's frames composited as browsers show them over RRGGBB, encoded with each frame's
//       shown delay (timescale 600): boxes `trak` (format, configuration type, configuration,
//       width, height), one `smpl` per sample (duration, key flag, data) written as encoded, then
//       `stil`, the still of frame STILLFRAME (1-based) as the still answer above
//   lpcheck-codec frames MOVIE reverse|bounce h264|hevc [--window START LENGTH] [--max-pixels N] [--max-frames N]
//       the movie's shown frames (of the bytes START..<START+LENGTH of MOVIE, a motion photo's
//       movie) re-timed and encoded, each lasting its own duration: boxes `scal` (timescale),
//       `nclc` (colour codes), `trak` and one `smpl` per sample as above

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

/// `progress DONE TOTAL` on standard error, each hundredth of the way: lpcheck draws its bar.
nonisolated(unsafe) var lastHundredth = -1
func reportProgress(_ done: Int, _ total: Int) {
    let hundredth = done * 100 / max(total, 1)
    guard hundredth != lastHundredth else { return }
    lastHundredth = hundredth
    FileHandle.standardError.write(Data("progress \(done) \(total)\n".utf8))
}

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
        writeOut(try StillAnswer.encode(frame, as: rest[2]))
    } catch {
        fail("\(error)", status: 1)
    }
case "gif":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 5, let stillFrame = Int(rest[1]), stillFrame >= 1, ["jpeg", "hevc"].contains(rest[2]),
          let codec = MovieEncoder.Codec(rawValue: rest[3]), rest[4].count == 6, let colour = UInt32(rest[4], radix: 16) else {
        fail("usage: gif GIF STILLFRAME jpeg|hevc h264|hevc RRGGBB [--max-pixels N] [--max-frames N]", status: 2)
    }
    var (maxPixels, maxFrames, scale) = (40_000_000, GIFStructure.maxFrames, 1)
    var option = 5
    while option + 1 < rest.count {
        guard let value = Int(rest[option + 1]), value > 0 else { fail("\(rest[option]) takes a positive number", status: 2) }
        switch rest[option] {
        case "--max-pixels": maxPixels = value
        case "--max-frames": maxFrames = value
        case "--scale": scale = value
        default: fail("unknown option \(rest[option])", status: 2)
        }
        option += 2
    }
    let path = rest[0]
    do {
        try GIFMovie.write(path: path, stillFrame: stillFrame - 1, still: rest[2], codec: codec,
                           background: (UInt8(colour >> 16 & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour & 0xFF)), scale: scale,
                           maxPixels: maxPixels, maxFrames: maxFrames, progress: reportProgress, output: writeOut)
    } catch let failure as GIFMovie.BadInput {
        fail(failure.description, status: 2)
    } catch {
        fail("\(error)", status: 1)
    }
case "frames":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 3, let order = ShownFrames.Order(rawValue: rest[1]), let codec = MovieEncoder.Codec(rawValue: rest[2]) else {
        fail("usage: frames MOVIE reverse|bounce h264|hevc [--window START LENGTH] [--max-pixels N] [--max-frames N]", status: 2)
    }
    var (maxPixels, maxFrames, window) = (40_000_000, 10_000, Range<Int64>?.none)
    var option = 3
    while option + 1 < rest.count {
        guard let value = Int64(rest[option + 1]), value >= 0 else { fail("\(rest[option]) takes a number", status: 2) }
        switch rest[option] {
        case "--max-pixels": maxPixels = Int(clamping: value)
        case "--max-frames": maxFrames = Int(clamping: value)
        case "--window":
            guard option + 2 < rest.count, let length = Int64(rest[option + 2]), length > 0, value <= Int64.max - length else { fail("--window takes START LENGTH", status: 2) }
            window = value..<(value + length)
            option += 1
        default: fail("unknown option \(rest[option])", status: 2)
        }
        option += 2
    }
    do {
        try ReversedMovie.write(path: rest[0], window: window, order: order, codec: codec, maxPixels: maxPixels, maxFrames: maxFrames, progress: reportProgress, output: writeOut)
    } catch let failure as ReversedMovie.BadInput {
        fail(failure.description, status: 2)
    } catch {
        fail("\(error)", status: 1)
    }
default:
    fail("usage: lpcheck-codec probe | still MOVIE SAMPLE jpeg|hevc [--max-pixels N] | gif GIF STILLFRAME jpeg|hevc h264|hevc RRGGBB", status: 2)
}
