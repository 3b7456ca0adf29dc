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
                    item(items[position]).serialized(indent: 2, after: position == 0 ? "\n    " : ",\n    ")
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
        var fields: [(String, JSONValue)] = [
            ("kind", .string(item.kind.rawValue)),
            ("still", .optional(item.still?.path)),
            ("movie", .optional(item.movie?.path)),
            ("contentIdentifier", .optional(item.contentIdentifier)),
            ("pairedBy", .optional(item.pairedBy?.rawValue)),
            ("stillIdentifier", .optional(item.still?.contentIdentifier)),
            ("movieIdentifier", .optional(item.movie?.contentIdentifier)),
            ("stillImageTime", item.movie?.movie?.stillImageTime.map { time in
                .object([("value", time.value.map(JSONValue.int) ?? .null), ("seconds", .optional(time.seconds)),
                         ("durationSeconds", .optional(time.durationSeconds))])
            } ?? .null),
            ("findings", .array(item.findings.map(finding))),
            ("verdicts", verdicts(item.verdicts)),
        ]
        // Identifier groups, sidecars and same-named files: present when they say something
        // (absent means none, false or empty), so a plain pair costs no more than before.
        if let original = item.duplicateOf {
            fields.append(("duplicateOf", .string(original)))
            fields.append(("hardLink", .bool(item.hardLink)))
        }
        if let original = item.variantOf {
            fields.append(("variantOf", .object([("still", .optional(original.still)), ("movie", .optional(original.movie))])))
            fields.append(("variantMarks", .array(item.variantMarks.map { .string($0.rawValue) })))
        }
        if item.identifierConflict { fields.append(("identifierConflict", .bool(true))) }
        if let motionPhoto = item.embeddedMovieOf { fields.append(("embeddedMovieOf", .string(motionPhoto))) }
        if item.carriers.stills + item.carriers.movies > item.fileCount {
            fields.append(("carriers", .object([("stills", .int(Int64(item.carriers.stills))), ("movies", .int(Int64(item.carriers.movies)))])))
        }
        if !item.nameMates.isEmpty {
            fields.append(("nameMates", .array(item.nameMates.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })))
        }
        if !item.sidecars.isEmpty { fields.append(("sidecars", .array(item.sidecars.map(JSONValue.string)))) }
        return .object(fields)
    }

    /// An item's verdicts by target: built field by field (this runs for every item).
    static func verdicts(_ verdicts: Verdicts) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let photos = verdicts.photos { fields.append(("photos", .string(photos.rawValue))) }
        if let wallpaper = verdicts.wallpaper { fields.append(("wallpaper", .string(wallpaper.rawValue))) }
        if let google = verdicts.googlePhotos { fields.append(("google-photos", .string(google.rawValue))) }
        return .object(fields)
    }

    public static func finding(_ finding: Finding) -> JSONValue {
        .object([
            ("rule", .string(finding.rule)),
            ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
            ("path", .optional(finding.path)),
            ("offset", finding.offset.map(JSONValue.int) ?? .null),
            ("baselined", .bool(finding.baselined)),
        ])
    }

    public static func rule(_ rule: RuleDescription) -> JSONValue {
        .object([
            ("identifier", .string(rule.identifier)), ("title", .string(rule.title)), ("severity", .string(rule.severity.rawValue)),
            ("category", .string(rule.category.rawValue)), ("autofixable", .bool(rule.autofixable)),
            ("rationale", .string(rule.rationale)), ("fix", .string(rule.fix)),
            ("confidence", .string(rule.confidence.rawValue)), ("evidence", evidence(rule.evidence)),
        ])
    }

    /// A rule's sources: kind and citation each.
    public static func evidence(_ sources: [Evidence]) -> JSONValue {
        .array(sources.map { .object([("kind", .string($0.kind.rawValue)), ("citation", .string($0.citation))]) })
    }
}
