import LivePhotoFormats

/// Content that does not match the file name's extension.
enum ExtensionMismatch: Rule {
    static let description = RuleDescription(
        identifier: "extension-mismatch", title: "Content does not match the extension", severity: .warning, category: .structure,
        confidence: .medium, evidence: [.practitioners("importers choosing a reader by extension (Immich, PhotoPrism)")],
        rationale: "Importers and Photos decide by extension before they look inside; JPEG data named .HEIC, or an MP4 named .MOV, is imported wrongly or paired with nothing.",
        fix: "Rename the file to match its content.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard file.error == nil, file.format != .unknown, let allowed = file.formatsByExtension, !allowed.contains(file.format) else { return nil }
            return finding("The file is named .\(file.fileExtension) but holds \(file.format.rawValue) data.", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("JPEG named .HEIC", CheckItem(kind: .notLivePhoto, still: Example.still("IMG_2762.HEIC", identifier: nil, format: .jpeg))),
        .passes("camera pair", Example.pair()),
    ]
}
