import ArgumentParser
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRun

struct LPCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lpcheck",
        abstract: "Live Photo forensics and validation: read, check, report, repair and convert Apple Live Photos (and Android motion photos).",
        discussion: "`lpcheck DIR...` is `lpcheck check DIR...`.",
        version: Release.version,
        subcommands: [Check.self, Scan.self, Dump.self, Repair.self, Make.self, Convert.self, Export.self, Rules.self]
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
}
