#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard error.
func printError(_ text: String) { writeError(text + "\n") }

/// Writes text to standard error as it is.
func writeError(_ text: String) {
    let line = Array(text.utf8)
    line.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count, let base = raw.baseAddress {
            let written = write(2, base + done, raw.count - done)
            if written <= 0 { return }
            done += written
        }
    }
}
