import ArgumentParser
internal import CMallocTuning

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Heaps grown and kept in 16 MiB steps, before anything is allocated (see the header).
_ = lpcheck_tune_malloc()

/// Exit codes: 0 success, 1 findings (or unreadable files for dump), 2 bad usage.
do {
    var command = try LPCheck.parseAsRoot()
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
