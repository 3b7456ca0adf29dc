import Foundation
import LivePhotoCodec
import LivePhotoFormats

// lpcheck's codec helper: the one program that links FFmpeg's libraries. `lpcheck make CLIP`
// runs it for what needs pixels, and reads what it writes on standard output; nothing here
// writes a file. lpcheck itself, and every command that only reads, never loads FFmpeg.
//
//   lpcheck-codec probe [--max-memory BYTES] [--max-pixels N]
//       FFmpeg's versions; with a budget, the address-space limit it sets
//   (every command below also takes --max-total-pixels N --max-memory BYTES --max-output BYTES:
//   CodecBudget.arguments, held as it decodes; the address space is limited to the memory and
//   CodecBudget.headroom for the largest pictures allowed, then for the pictures' own size)
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
//   lpcheck-codec movie-gif MOVIE WIDTH [--fps N] [--opening FRAME] [--dither none|floyd-steinberg|sierra-lite] [--palette clip|frame]
//                 [--window START LENGTH] [--max-pixels N] [--max-frames N]
//       the movie as an animated GIF (GIF89a bytes): the frames GIFTimeline plans (every shown
//       frame, or N a second; from shown frame FRAME, 0-based), WIDTH wide at most

let arguments = CommandLine.arguments.dropFirst()

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

/// The options after a command's positional arguments (from `first`), by name: `--window`
/// takes START LENGTH, every other one value; a name not `known` is exit 2.
func parsedOptions(_ rest: [String], from first: Int, known: Set<String>) -> [String: [String]] {
    var found: [String: [String]] = [:]
    var at = first
    while at < rest.count {
        let name = rest[at]
        guard known.contains(name) else { fail("unknown option \(name)", status: 2) }
        let count = name == "--window" ? 2 : 1
        guard at + count < rest.count else { fail("\(name) takes \(count == 2 ? "START LENGTH" : "a value")", status: 2) }
        found[name] = Array(rest[(at + 1)...(at + count)])
        at += 1 + count
    }
    return found
}

/// A whole number option of at least `minimum`, or `otherwise` when absent.
func number(_ options: [String: [String]], _ name: String, minimum: Int = 1, otherwise: Int) -> Int {
    guard let text = options[name]?.first else { return otherwise }
    guard let value = Int(text), value >= minimum else { fail("\(name) takes a number of at least \(minimum)", status: 2) }
    return value
}

/// `--window START LENGTH`: the bytes of the file that are the movie (a motion photo's).
func window(_ options: [String: [String]]) -> Range<Int64>? {
    guard let values = options["--window"] else { return nil }
    guard let start = Int64(values[0]), let length = Int64(values[1]), start >= 0, length > 0, start <= Int64.max - length else {
        fail("--window takes START LENGTH", status: 2)
    }
    return start..<(start + length)
}

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

/// The budget options every command takes (`CodecBudget.arguments`), out of `options`; the
/// address space limited for the largest pictures allowed (`--max-pixels`), lowered again by the
/// codec layer once it knows their size.
func budget(_ options: [String: [String]]) -> CodecBudget {
    var named: [String: String] = [:]
    for name in budgetOptions { if let value = options[name]?.first { named[name] = value } }
    guard let budget = CodecBudget(options: named) else { fail("--max-total-pixels, --max-memory and --max-output take a number from 1 to \(CodecBudget.maxValue)", status: 2) }
    HelperProcess.limitAddressSpace(budget.addressSpace(forPixels: number(options, "--max-pixels", otherwise: CodecLimits.maxPixels)))
    return budget
}
let budgetOptions: Set<String> = ["--max-total-pixels", "--max-memory", "--max-output"]

switch arguments.first {
case "probe":
    print("lpcheck-codec: FFmpeg \(CodecVersions.text)")
    // With a budget's options: the address-space limit the helper then runs under.
    let options = parsedOptions(Array(arguments.dropFirst()), from: 0, known: budgetOptions.union(["--max-pixels"]))
    if !options.isEmpty {
        _ = budget(options)
        print("lpcheck-codec: address space limited to \(HelperProcess.addressSpaceLimit.map(String.init) ?? "nothing") bytes")
    }
case "still":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 3, let sample = Int(rest[1]), sample >= 1, rest[2] == "jpeg" || rest[2] == "hevc" else { fail("usage: still MOVIE SAMPLE jpeg|hevc [--max-pixels N]", status: 2) }
    let options = parsedOptions(rest, from: 3, known: budgetOptions.union(["--max-pixels"]))
    let maxPixels = number(options, "--max-pixels", otherwise: CodecLimits.maxPixels)
    let budget = budget(options)
    let path = rest[0]
    let file = MediaFile.inspect(path: path, options: .full)
    guard file.error == nil, let movie = file.movie, let track = movie.primaryVideoTrack else {
        fail("\(path): no readable movie with a video track: \(file.error?.description ?? file.format.rawValue)", status: 2)
    }
    do {
        let source = try FileSource(path: path)
        let frame = try FrameReader.frame(movie, track: track, sampleIndex: sample - 1, source: source, path: path, budget: budget)
        guard frame.width * frame.height <= maxPixels else { fail("\(path): the decoder gives \(frame.width)×\(frame.height) frames, more than \(maxPixels) pixels", status: 2) }
        writeOut(try StillAnswer.encode(frame, as: rest[2]))
    } catch let failure as CodecBudget.Exceeded {
        fail(failure.description, status: 2)
    } catch {
        fail("\(error)", status: 1)
    }
case "gif":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 5, let stillFrame = Int(rest[1]), stillFrame >= 1, ["jpeg", "hevc"].contains(rest[2]),
          let codec = MovieEncoder.Codec(rawValue: rest[3]), rest[4].count == 6, let colour = UInt32(rest[4], radix: 16) else {
        fail("usage: gif GIF STILLFRAME jpeg|hevc h264|hevc RRGGBB [--max-pixels N] [--max-frames N]", status: 2)
    }
    let options = parsedOptions(rest, from: 5, known: budgetOptions.union(["--max-pixels", "--max-frames", "--scale"]))
    let budget = budget(options)
    answering {
        try GIFMovie.write(path: rest[0], stillFrame: stillFrame - 1, still: rest[2], codec: codec,
                           background: (UInt8(colour >> 16 & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour & 0xFF)),
                           scale: number(options, "--scale", otherwise: 1), maxPixels: number(options, "--max-pixels", otherwise: CodecLimits.maxPixels),
                           maxFrames: number(options, "--max-frames", otherwise: GIFStructure.maxFrames), budget: budget, progress: reportProgress, output: writeOut)
    }
case "frames":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 3, let order = ShownFrames.Order(rawValue: rest[1]), let codec = MovieEncoder.Codec(rawValue: rest[2]) else {
        fail("usage: frames MOVIE reverse|bounce h264|hevc [--window START LENGTH] [--max-pixels N] [--max-frames N]", status: 2)
    }
    let options = parsedOptions(rest, from: 3, known: budgetOptions.union(["--max-pixels", "--max-frames", "--window"]))
    let budget = budget(options)
    answering {
        try ReversedMovie.write(path: rest[0], window: window(options), order: order, codec: codec, maxPixels: number(options, "--max-pixels", otherwise: CodecLimits.maxPixels),
                                maxFrames: number(options, "--max-frames", otherwise: CodecLimits.maxFrames), budget: budget, progress: reportProgress, output: writeOut)
    }
case "movie-gif":
    let rest = Array(arguments.dropFirst())
    guard rest.count >= 2, let width = Int(rest[1]), width > 0 else {
        fail("usage: movie-gif MOVIE WIDTH [--fps N] [--opening FRAME] [--dither none|floyd-steinberg|sierra-lite] [--window START LENGTH] [--max-pixels N] [--max-frames N]", status: 2)
    }
    let options = parsedOptions(rest, from: 2, known: budgetOptions.union(["--fps", "--opening", "--dither", "--palette", "--window", "--max-pixels", "--max-frames"]))
    var settings = MovieGIF.Options(width: width)
    if let name = options["--dither"]?.first {
        guard let dither = GIFDither(rawValue: name) else { fail("--dither takes \(GIFDither.allCases.map(\.rawValue).joined(separator: ", "))", status: 2) }
        settings.dither = dither
    }
    if let name = options["--palette"]?.first {
        guard let scope = GIFPaletteScope(rawValue: name) else { fail("--palette takes clip or frame", status: 2) }
        settings.palette = scope
    }
    settings.rate = options["--fps"] == nil ? nil : number(options, "--fps", otherwise: 0)
    settings.opening = number(options, "--opening", minimum: 0, otherwise: 0)
    settings.maxPixels = number(options, "--max-pixels", otherwise: settings.maxPixels)
    settings.maxFrames = number(options, "--max-frames", otherwise: settings.maxFrames)
    settings.budget = budget(options)
    answering {
        try MovieGIF.write(path: rest[0], window: window(options), options: settings, progress: reportProgress, output: writeOut)
    }
default:
    fail("usage: lpcheck-codec probe | still MOVIE SAMPLE jpeg|hevc [--max-pixels N] | gif GIF STILLFRAME jpeg|hevc h264|hevc RRGGBB", status: 2)
}
