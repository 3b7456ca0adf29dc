import LivePhotoCheck
import LivePhotoFormats

/// `lpcheck check --format json` (schema: Reports/check.schema.json). Field names are a
/// contract read by QA scripts: extend, never rename.
public enum CheckJSON: Sendable {
    public static let schemaVersion = 1

    public static func render(_ report: CheckReport) -> String {
        var text = ""
        write(report) { text += $0 }
        return text
    }

    /// Streams the same document in pieces (one item at a time), so a report on a large library
    /// never exists twice in memory. `render` and `document` give the same bytes.
    public static func write(_ report: CheckReport, to sink: (String) -> Void) {
        guard case .object(let head) = document(report, items: []) else { return }
        sink("{")
        for (index, (key, value)) in head.enumerated() {
            sink(index == 0 ? "\n  " : ",\n  ")
            sink(JSONValue.string(key).serialized(indent: nil) + ": ")
            if key == "items" {
                if report.items.isEmpty {
                    sink("[]")
                    continue
                }
                sink("[")
                let items = report.items
                ParallelPieces.stream(count: items.count, { position in
                    json(items[position], after: position == 0 ? "\n    " : ",\n    ")
                }, to: sink)
                sink("\n  ]")
            } else {
                sink(value.serialized(indent: 1))
            }
        }
        sink("\n}\n")
    }

    public static func document(_ report: CheckReport) -> JSONValue { document(report, items: Array(report.items)) }

    static func document(_ report: CheckReport, items: [CheckItem]) -> JSONValue {
        .object([
            ("tool", .string(report.tool)),
            ("version", .string(report.version)),
            ("schemaVersion", .int(Int64(schemaVersion))),
            ("roots", .array(report.roots.map(JSONValue.string))),
            ("summary", summary(report)),
            ("items", .array(items.map(item))),
            ("rules", .array(report.rules.map(rule))),
        ])
    }

    public static func summary(_ report: CheckReport) -> JSONValue {
        .object([
            ("files", .int(Int64(report.fileCount))),
            ("items", .int(Int64(report.items.count))),
            ("passed", .bool(report.passed)),
            ("failOn", .string(report.failOn.rawValue)),
            ("errors", .int(Int64(report.count(.error)))),
            ("warnings", .int(Int64(report.count(.warning)))),
            ("infos", .int(Int64(report.count(.info)))),
            ("baselined", .int(Int64(report.baselinedCount))),
            ("kinds", .object(ItemKind.allCases.map { ($0.rawValue, .int(Int64(report.count($0)))) })),
            ("verdicts", .object(Target.allCases.map { target in
                (target.rawValue, .object(Verdict.allCases.map { ($0.rawValue, .int(Int64(report.count(target, $0)))) }))
            })),
            ("rules", .object(report.countsByRule.map { ($0.rule, .int(Int64($0.count))) })),
            ("ignoredFiles", .int(Int64(report.ignoredFiles))),
            ("bytesRead", .int(report.bytesRead)),
            ("unreadablePaths", .array(report.discoveryProblems.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })),
            ("leftOut", .array(report.leftOut.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })),
        ])
    }

    public static func item(_ item: CheckItem) -> JSONValue {
        var tree = JSONTree()
        write(item, to: &tree)
        return tree.value
    }

    /// An item's JSON text as the stream writes it, after `prefix`: written field by field, with
    /// no tree made (this runs for every item of a report).
    static func json(_ item: CheckItem, after prefix: String) -> String {
        var writer = JSONWriter(indent: 2, escaping: .report, prefix: prefix)
        write(item, to: &writer)
        return writer.text
    }

    /// An item's fields, declared once for the JSON stream and the tree (`item`).
    static func write<Fields: JSONFields>(_ item: CheckItem, to fields: inout Fields) {
        fields.object { fields in
            fields.field("kind", item.kind.rawValue)
            fields.field("still", item.still?.path)
            fields.field("movie", item.movie?.path)
            fields.field("contentIdentifier", item.contentIdentifier)
            fields.field("pairedBy", item.pairedBy?.rawValue)
            fields.field("stillIdentifier", item.still?.contentIdentifier)
            fields.field("movieIdentifier", item.movie?.contentIdentifier)
            fields.key("stillImageTime")
            if let time = item.movie?.movie?.stillImageTime {
                fields.object { fields in
                    fields.field("value", time.value)
                    fields.field("seconds", time.seconds)
                    fields.field("durationSeconds", time.durationSeconds)
                }
            } else {
                fields.null()
            }
            fields.key("findings")
            fields.array { fields in
                for finding in item.findings {
                    fields.element()
                    write(finding, to: &fields)
                }
            }
            fields.key("verdicts")
            write(item.verdicts, to: &fields)
            // Why a verdict is not pass: present only then.
            if !item.verdictReasons.isEmpty {
                fields.key("verdictReasons")
                fields.object { fields in
                    for target in Target.allCases where item.verdictReasons.contains(where: { $0.target == target }) {
                        fields.key(target.rawValue)
                        fields.array { fields in
                            for reason in item.verdictReasons where reason.target == target {
                                fields.element()
                                fields.object { fields in
                                    fields.field("rule", reason.rule)
                                    fields.field("reported", reason.reported)
                                }
                            }
                        }
                    }
                }
            }
            // Identifier groups, sidecars and same-named files: present when they say something
            // (absent means none, false or empty), so a plain pair costs no more than before.
            if let original = item.duplicateOf {
                fields.field("duplicateOf", original)
                fields.field("hardLink", item.hardLink)
            }
            if let original = item.variantOf {
                fields.key("variantOf")
                fields.object { fields in
                    fields.field("still", original.still)
                    fields.field("movie", original.movie)
                }
                fields.key("variantMarks")
                fields.array { fields in
                    for mark in item.variantMarks {
                        fields.element()
                        fields.string(mark.rawValue)
                    }
                }
            }
            if item.identifierConflict { fields.field("identifierConflict", true) }
            if let archive = item.archive { fields.field("archive", archive) }
            if let motionPhoto = item.embeddedMovieOf { fields.field("embeddedMovieOf", motionPhoto) }
            if item.carriers.stills + item.carriers.movies > item.fileCount {
                fields.key("carriers")
                fields.object { fields in
                    fields.field("stills", Int64(item.carriers.stills))
                    fields.field("movies", Int64(item.carriers.movies))
                }
            }
            if !item.nameMates.isEmpty {
                fields.key("nameMates")
                fields.array { fields in
                    for mate in item.nameMates {
                        fields.element()
                        fields.object { fields in
                            fields.field("path", mate.path)
                            fields.field("reason", mate.reason)
                        }
                    }
                }
            }
            if !item.sidecars.isEmpty {
                fields.key("sidecars")
                fields.array { fields in
                    for sidecar in item.sidecars {
                        fields.element()
                        fields.string(sidecar)
                    }
                }
            }
        }
    }

    /// An item's verdicts by target (targets the item was not judged for are left out).
    static func write<Fields: JSONFields>(_ verdicts: Verdicts, to fields: inout Fields) {
        fields.object { fields in
            verdicts.forEach { target, verdict in fields.field(target, verdict.rawValue) }
        }
    }

    public static func finding(_ finding: Finding) -> JSONValue {
        var tree = JSONTree()
        write(finding, to: &tree)
        return tree.value
    }

    static func write<Fields: JSONFields>(_ finding: Finding, to fields: inout Fields) {
        fields.object { fields in
            fields.field("rule", finding.rule)
            fields.field("severity", finding.severity.rawValue)
            fields.field("message", finding.message)
            fields.field("path", finding.path)
            fields.field("offset", finding.offset)
            fields.field("baselined", finding.baselined)
        }
    }

    public static func rule(_ rule: RuleDescription) -> JSONValue {
        .object([
            ("identifier", .string(rule.identifier)), ("title", .string(rule.title)), ("severity", .string(rule.severity.rawValue)),
            ("category", .string(rule.category.rawValue)), ("autofixable", .bool(rule.autofixable)),
            ("rationale", .string(rule.rationale)), ("fix", .string(rule.fix)),
            ("confidence", .string(rule.confidence.rawValue)), ("evidence", evidence(rule.evidence)),
            ("judges", .array(Target.allCases.filter { rule.targets.contains($0) }.map { target in
                var fields: [(String, JSONValue)] = [("target", .string(target.rawValue)), ("confidence", .string(rule.confidence(for: target).rawValue))]
                if target.followsReader { fields.append(("backing", .string(rule.backing.rawValue))) }
                return .object(fields)
            })),
        ])
    }

    /// A rule's sources: kind and citation each.
    public static func evidence(_ sources: [Evidence]) -> JSONValue {
        .array(sources.map { .object([("kind", .string($0.kind.rawValue)), ("citation", .string($0.citation))]) })
    }
}
