import ArgumentParser
import LivePhotoCheck
import LivePhotoReports
import LivePhotoRun

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "List the rules: identifier, severity, whether repair fixes it, title; or show the rules named.",
        discussion: """
        `lpcheck rules ID...` shows those rules with their rationale, fix, confidence and sources. \
        --format json (or --json) prints them as a check report's rules list gives them \
        (Reports/rules.schema.json); markdown is the catalogue in docs/rules.md.

        Exit status: 0 listed; 2 bad usage or a rule identifier that names no rule.
        """)

    @Argument(help: "Rule identifiers to show (default: every rule).")
    var identifiers: [String] = []

    @Flag(help: "Also print each rule's rationale, fix, confidence and sources (always, for rules named).")
    var details = false

    @Option(name: .shortAndLong, help: "text, json (Reports/rules.schema.json) or markdown (the catalogue in docs/rules.md).")
    var format: RulesFormat = .text

    @Flag(help: "The same as --format json.")
    var json = false

    enum RulesFormat: String, ExpressibleByArgument { case text, json, markdown }

    func validate() throws {
        let known = Set(RuleRegistry.descriptions.map(\.identifier))
        let unknown = identifiers.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            let said = unknown.map { name -> String in
                let nearest = LPCheck.nearest(name, among: Array(known))
                return "'\(name)'" + (nearest.map { " (did you mean \($0)?)" } ?? "")
            }
            throw ValidationError("no rule \(said.joined(separator: ", ")); `lpcheck rules` lists them")
        }
    }

    func run() {
        let rules = identifiers.isEmpty ? RuleRegistry.descriptions : RuleRegistry.descriptions.filter { identifiers.contains($0.identifier) }
        switch json ? .json : format {
        case .markdown: print(RuleCatalogue.markdown(rules), terminator: "")
        case .text: print(RuleCatalogue.text(rules, details: details || !identifiers.isEmpty), terminator: "")
        case .json:
            let document = JSONValue.object([("tool", .string("lpcheck")), ("version", .string(Release.version)), ("rules", .array(rules.map(CheckJSON.rule)))])
            print(document.serialized())
        }
    }
}
