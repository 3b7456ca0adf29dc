import LivePhotoFormats

/// Content that does not match the file name's extension.
enum ExtensionMismatch: Rule {
    static let description = RuleDescription(
        identifier: "extension-mismatch", title: "Content does not match the extension", severity: .warning, category: "structure",
        rationale: "Importers and Photos decide by extension before they look inside; JPEG data named .HEIC, or an MP4 named .MOV, is imported wrongly or paired with nothing.",
        fix: "Rename the file to match its content.")

    static let expected: [String: Set<FileFormat>] = [
        "jpg": [.jpeg], "jpeg": [.jpeg], "jpe": [.jpeg], "heic": [.heic, .heif], "heif": [.heic, .heif], "hif": [.heic, .heif],
        "avif": [.avif], "png": [.png], "gif": [.gif], "tif": [.tiff], "tiff": [.tiff], "webp": [.webp],
        "mov": [.quickTime], "qt": [.quickTime], "mp4": [.mp4, .quickTime], "m4v": [.mp4, .quickTime],
    ]

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        item.compactMapFiles { file in
            guard file.error == nil, file.format != .unknown, let allowed = expected[file.fileExtension], !allowed.contains(file.format) else { return nil }
            return finding("The file is named .\(file.fileExtension) but holds \(file.format.rawValue) data.", file)
        }
    }

    static let examples: [RuleExample] = [
        .triggers("JPEG named .HEIC", CheckItem(kind: .notLivePhoto, still: Example.still("IMG_2762.HEIC", identifier: nil, format: .jpeg))),
        .passes("camera pair", Example.pair()),
    ]
}
