import ArgumentParser
import LivePhotoCheck
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRun

struct LPCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lpcheck",
        abstract: "Live Photo forensics and validation: read, check, report, repair and convert Apple Live Photos (and Android motion photos).",
        discussion: """
        `lpcheck DIR...` is `lpcheck check DIR...`.

        Exit status, the same for every command: 0 success (no finding at or above --fail-on; \
        everything asked written); 1 findings at or above --fail-on, or a write that failed or \
        was refused; 2 bad usage, an input that cannot be read or used as asked, or an output \
        that exists (without --force) or cannot be written. Each command's --help says its own.
        """,
        version: Release.version,
        subcommands: [Check.self, Scan.self, Dump.self, Repair.self, Make.self, Convert.self, Export.self, KeyPhoto.self, Strip.self, Rules.self]
    )

    /// The arguments ArgumentParser is given: `check`'s own when the first names no command and
    /// is none of the root's flags (`lpcheck DIR...` is `lpcheck check DIR...`). Chosen here
    /// rather than as ArgumentParser's default subcommand, which builds check's whole argument
    /// set by reflection once more on every start to learn whether it passes arguments through
    /// (5.6M instructions of a 30M run: BENCHMARKS.md, issue 37).
    static func arguments(_ given: [String]) -> [String] {
        let commands = Set(configuration.subcommands.map { $0._commandName } + ["help"])
        let rootFlags: Set<String> = ["-h", "--help", "-help", "--version", "--generate-completion-script", "--experimental-dump-help"]
        guard let first = given.first else { return ["check"] }
        if commands.contains(first) || rootFlags.contains(first) || first.hasPrefix("--generate-completion-script=") { return given }
        return ["check"] + given
    }

    /// The command a first argument was probably meant to be, when it names no file or folder
    /// (nor standard input, an option or an object) and is within two edits of a command's name:
    /// `lpcheck dumpp x.jpg` is a typo, not two paths to check.
    static func mistypedCommand(_ given: [String], exists: (String) -> Bool) -> String? {
        guard let first = given.first, !first.isEmpty, !first.hasPrefix("-"), !first.contains("/"), !first.contains("://"),
              !configuration.subcommands.contains(where: { $0._commandName == first }), !exists(first) else { return nil }
        return nearest(first, among: configuration.subcommands.map { $0._commandName })
    }

    /// The word of `words` nearest `typed` (`NearestWord`).
    static func nearest(_ typed: String, among words: [String]) -> String? { NearestWord.to(typed, among: words) }
}
