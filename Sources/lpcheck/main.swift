import ArgumentParser
import LivePhotoFormats
import LivePhotoReports
internal import CMallocTuning

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A file-size limit (ulimit -f) passed is a write that fails (EFBIG), which the writers report
// naming the file, not a death by SIGXFSZ with nothing said.
signal(SIGXFSZ, SIG_IGN)

/// The arguments as the system gave them: a file name that is not UTF-8 keeps its bytes
/// (`PathBytes`), where `CommandLine.arguments` would replace them and name another file.
let given = (1..<Int(CommandLine.argc)).map { index -> String in
    guard let argument = CommandLine.unsafeArgv[index] else { return "" }
    return PathBytes.string(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
}

if let meant = LPCheck.mistypedCommand(given, exists: { path in var info = stat(); return PathBytes.status(path, &info) == 0 }) {
    printError("lpcheck: no such file or command '\(given[0].terminalSafe)' (did you mean `lpcheck \(meant)`?)")
    exit(2)
}

/// Exit codes: 0 success, 1 findings (or unreadable files for dump), 2 bad usage.
do {
    var command = try LPCheck.parseAsRoot(LPCheck.arguments(given))
    // The commands that read a whole library grow and keep their heaps in 16 MiB steps (see
    // CMallocTuning.h); the others (`--version`, `--help`, `dump`, `make`, `rules`) start
    // without it: the larger first growth shows in their start time (BENCHMARKS.md).
    if command is Check || command is Scan || command is Repair || command is Convert { _ = lpcheck_tune_malloc() }
    try command.run()
} catch {
    let code = LPCheck.exitCode(for: error)
    if code == .success {
        // --help and --version print to standard output.
        print(LPCheck.fullMessage(for: error))
        exit(0)
    }
    if let exitCode = error as? ExitCode { exit(exitCode.rawValue) }
    printError(LPCheck.fullMessage(for: error))
    exit(code == .validationFailure ? 2 : (code.rawValue == 1 ? 1 : 2))
}
