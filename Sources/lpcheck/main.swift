import ArgumentParser
internal import CMallocTuning

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exit codes: 0 success, 1 findings (or unreadable files for dump), 2 bad usage.
do {
    var command = try LPCheck.parseAsRoot(LPCheck.arguments(Array(CommandLine.arguments.dropFirst())))
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
