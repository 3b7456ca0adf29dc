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
        subcommands: [Check.self, Scan.self, Dump.self, Repair.self, Make.self, Convert.self, Rules.self],
        defaultSubcommand: Check.self
    )
}
