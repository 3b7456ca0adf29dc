import ArgumentParser
import LivePhotoCheck
import LivePhotoReports

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rules", abstract: "List the rules: identifier, severity, whether repair fixes it, title.")

    @Flag(help: "Also print each rule's rationale, fix, confidence and sources.")
    var details = false

    @Option(name: .shortAndLong, help: "text or markdown (the catalogue in docs/rules.md).")
    var format: RulesFormat = .text

    enum RulesFormat: String, ExpressibleByArgument { case text, markdown }

    func run() {
        switch format {
        case .markdown: print(RuleCatalogue.markdown(RuleRegistry.descriptions), terminator: "")
        case .text: print(RuleCatalogue.text(RuleRegistry.descriptions, details: details), terminator: "")
        }
    }
}
