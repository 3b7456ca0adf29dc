/// A file cut short after the parts the readers need.
enum TruncatedFile: Rule {
    static let description = RuleDescription(
        identifier: "truncated-file", title: "File is truncated", severity: .error, category: .damage,
        confidence: .high, evidence: [.fileContent("a structure announced past the end of the file"), .specification("ITU-T T.81 (JPEG EOI) and ISO/IEC 14496-12 (box sizes)")],
        rationale: "The file ends before a structure it announces (media data cut off, a JPEG without its end marker): the image or movie will not display completely, even if its metadata reads.",
        fix: "Restore the complete file from its source; the message gives where it ends.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard file.error == nil, let warning = file.warnings.first(where: { $0.code == .truncated }) else { return nil }
            let location = warning.path.isEmpty ? "" : " (\(warning.path))"
            return finding("Truncated: \(warning.message)\(location).", file, offset: warning.offset)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("mdat cut", {
            var still = Example.still("river.heic", identifier: nil, format: .heic)
            still.warnings = [.init(.truncated, "box 'mdat' claims 3001901 bytes but the file ends 1812 bytes after its start", offset: 6380, path: "mdat")]
            return CheckItem(kind: .unreadable, still: still)
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
