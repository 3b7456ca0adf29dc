/// A file the readers could not read.
enum UnreadableFile: Rule {
    static let description = RuleDescription(
        identifier: "unreadable-file", title: "File cannot be read", severity: .error, category: .damage,
        confidence: .high, evidence: [.fileContent("the reader's error and byte offset"), .specification(Evidence.isoBMFF)],
        rationale: "The file's structure is broken where the Live Photo markers live (or it cannot be opened), so nothing about it can be checked.",
        fix: "Restore the file from a backup or re-export it; the message gives the byte offset and box or segment path of the damage.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard let error = file.error else { return nil }
            let location = error.path.isEmpty ? "" : " in \(error.path)"
            return finding("\(error.message) (\(error.code.rawValue) at byte \(error.offset)\(location)).", file, offset: error.offset)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("box past its parent", {
            var movie = Example.movie()
            movie.error = .init(.invalidSize, "box 'tkhd' claims 9999 bytes but its parent has 84 left", offset: 1234, path: "moov/trak/tkhd")
            return CheckItem(kind: .unreadable, movie: movie)
        }()),
        .passes("camera pair", Example.pair()),
    ]
}
