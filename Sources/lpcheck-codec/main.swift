import Foundation
import LivePhotoCodec
import LivePhotoCodecProtocol
import LivePhotoFormats

// lpcheck's codec helper: the one program that links FFmpeg's libraries. lpcheck runs it for
// what needs pixels, and reads what it writes on standard output; nothing here writes a file.
// lpcheck itself, and every command that only reads, never loads FFmpeg.
//
// Its arguments are a `CodecRequest` (LivePhotoCodecProtocol: the only grammar, `CodecRequest.usage`
// lists it): probe, still, gif, frames, movie-gif, compare, thumbnail, sound, each with the budget's options
// (`CodecBudget.arguments`), held as it decodes; the address space is limited to the memory and
// `CodecBudget.headroom` for the largest pictures allowed, then for the pictures' own size. A
// still is answered as `StillAnswer` lays it out, a movie as `CodecAnswer`'s parts (written by
// `CodecAnswer.bytes` alone), a movie's GIF as GIF89a bytes.

/// A message as one line: control characters (a file name's newline among them) shown as
/// `\n`, `\u{1B}`, so that nothing a file holds can start a line of this channel.
func oneLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default: out += scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
    }
    return out
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(("lpcheck-codec: " + oneLine(message) + "\n").utf8))
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

// The helper dies with the lpcheck that started it: the kernel's parent-death signal where there
// is one, and everywhere a watch of the parent's id (a child whose parent died is handed to
// another). lpcheck names its process id (LPCHECK_CODEC_PARENT): a parent already gone before
// the signal was asked for is noticed here.
let parent = getppid()
// Its own process group: a terminal's signals go to lpcheck, which ends the helper with itself.
_ = setpgid(0, 0)
HelperProcess.dieWithParent()
if let named = ProcessInfo.processInfo.environment["LPCHECK_CODEC_PARENT"].flatMap({ Int32($0) }), named != getppid() { exit(3) }
Thread.detachNewThread {
    while true {
        usleep(250_000)
        if getppid() != parent { _exit(3) }
    }
}

CodecLog.capture()

/// Runs a command's work: the input's faults are exit 2, anything else exit 1.
func answering(_ work: () throws -> Void) {
    do {
        try work()
    } catch let failure as GIFMovie.BadInput {
        fail(failure.description, status: 2)
    } catch let failure as ShownFrameDecoder.BadInput {
        fail(failure.description, status: 2)
    } catch let failure as CodecBudget.Exceeded {
        fail(failure.description, status: 2)
    } catch {
        fail("\(error)", status: 1)
    }
}

/// `progress TOKEN DONE TOTAL` on standard error, each hundredth of the way: lpcheck draws its
/// bar and restarts its deadline. TOKEN is lpcheck's (LPCHECK_CODEC_TOKEN, new each run), so no
/// other line on this channel can pass for progress.
let progressToken = ProcessInfo.processInfo.environment["LPCHECK_CODEC_TOKEN"].map { $0.filter { $0.isLetter || $0.isNumber } } ?? ""
nonisolated(unsafe) var lastHundredth = -1
func reportProgress(_ done: Int, _ total: Int) {
    let hundredth = done * 100 / max(total, 1)
    guard hundredth != lastHundredth else { return }
    lastHundredth = hundredth
    FileHandle.standardError.write(Data("progress \(progressToken.isEmpty ? "" : progressToken + " ")\(max(0, done)) \(max(0, total))\n".utf8))
}

/// The address space limited for the largest pictures the request allows (`--max-pixels`),
/// lowered again by the codec layer once it knows their size.
func limited(_ request: CodecRequest) -> CodecBudget {
    let budget = request.budget ?? .standard
    HelperProcess.limitAddressSpace(budget.addressSpace(forPixels: request.maxPixels ?? CodecLimits.maxPixels))
    return budget
}

let request: CodecRequest
do {
    request = try CodecRequest(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: 2)
}

switch request.job {
case .probe:
    print("lpcheck-codec: FFmpeg \(CodecVersions.text)")
    // With a budget's options: the address-space limit the helper then runs under.
    if request.budget != nil || request.maxPixels != nil {
        _ = limited(request)
        print("lpcheck-codec: address space limited to \(HelperProcess.addressSpaceLimit.map(String.init) ?? "nothing") bytes")
    }
case .still(let path, let sample, let kind):
    let maxPixels = request.maxPixels ?? CodecLimits.maxPixels
    let budget = limited(request)
    let file = MediaFile.inspect(path: path, options: .full)
    guard file.error == nil, let movie = file.movie, let track = movie.primaryVideoTrack else {
        fail("\(path): no readable movie with a video track: \(file.error?.description ?? file.format.rawValue)", status: 2)
    }
    answering {
        let source = try FileSource(path: path)
        let frame = try FrameReader.frame(movie, track: track, sampleIndex: sample, source: source, path: path, budget: budget)
        guard frame.width * frame.height <= maxPixels else { fail("\(path): the decoder gives \(frame.width)×\(frame.height) frames, more than \(maxPixels) pixels", status: 2) }
        writeOut(try StillAnswer.encoding(frame, as: kind).bytes)
    }
case .gifMovie(let path, let stillFrame, let still, let codec, let colour, let scale):
    let budget = limited(request)
    answering {
        try GIFMovie.write(path: path, stillFrame: stillFrame, still: still, codec: codec,
                           background: (UInt8(colour >> 16 & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour & 0xFF)),
                           scale: scale, maxPixels: request.maxPixels ?? CodecLimits.maxPixels,
                           maxFrames: request.maxFrames ?? GIFStructure.maxFrames, budget: budget, progress: reportProgress, output: writeOut)
    }
case .frames(let path, let order, let codec, let window, let quality, let width):
    let budget = limited(request)
    answering {
        try ReversedMovie.write(path: path, window: window, order: order, codec: codec, quality: quality, width: width, maxPixels: request.maxPixels ?? CodecLimits.maxPixels,
                                maxFrames: request.maxFrames ?? CodecLimits.maxFrames, budget: budget, progress: reportProgress, output: writeOut)
    }
case .compare(let still, let movie):
    let budget = limited(request)
    answering {
        let comparison = try StillComparison.compare(still: still, movie: movie, maxPixels: request.maxPixels ?? CodecLimits.maxPixels, budget: budget)
        writeOut(CodecAnswer.bytes(.comparison(comparison)))
    }
case .thumbnail(let still, let side):
    _ = limited(request)
    answering {
        writeOut(try StillThumbnail.jpeg(path: still, side: side, maxPixels: request.maxPixels ?? CodecLimits.maxPixels))
    }
case .sound(let path, let track, let window):
    _ = limited(request)
    answering {
        try SoundEncoder.write(path: path, track: track, window: window, output: writeOut)
    }
case .movieGIF(let path, let gif, let window):
    let settings = MovieGIF.Options(gif, maxPixels: request.maxPixels, maxFrames: request.maxFrames, budget: limited(request))
    answering {
        try MovieGIF.write(path: path, window: window, options: settings, progress: reportProgress, output: writeOut)
    }
}
