import LivePhotoFormats

/// Paths given with wildcards that name no file or folder (quoted, so no shell expanded them):
/// `'Samples/*.jpg'` walks `Samples` and keeps the files the pattern matches, as `--include`
/// does. Any other folder given beside one keeps all its files (its own `FOLDER/**`).
public enum GlobPaths {
    static let wildcards: Set<Character> = ["*", "?", "["]

    /// The roots to walk and the include patterns that stand for the globs (none when no path is one).
    public static func split(_ paths: [String], exists: (String) -> Bool = PathBytes.exists) -> (roots: [String], include: [String]) {
        let globs = paths.filter { path in !path.contains("://") && path.contains(where: wildcards.contains) && !exists(path) }
        guard !globs.isEmpty else { return (paths, []) }
        var roots: [String] = [], include: [String] = []
        for path in paths {
            let trimmed = trimmedFolder(path)
            guard globs.contains(path) else {
                roots.append(path)
                // A file given by name is read whatever the patterns; a folder keeps all it holds.
                if !path.contains("://") { include.append(trimmed.isEmpty ? "**" : trimmed + "/**") }
                continue
            }
            let components = trimmed.split(separator: "/", omittingEmptySubsequences: false)
            let fixed = components.prefix { !$0.contains(where: wildcards.contains) }
            let root = fixed.joined(separator: "/")
            roots.append(path.hasPrefix("/") && root.isEmpty ? "/" : root.isEmpty ? "." : root)
            include.append(trimmed)
        }
        var seen = Set<String>()
        return (roots.filter { seen.insert($0).inserted }, include)
    }

    /// A path as a walk writes its files' paths: no leading `./`, no trailing `/`.
    static func trimmedFolder(_ path: String) -> String {
        var text = Substring(path)
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        while text.count > 1 && text.hasSuffix("/") { text = text.dropLast() }
        return text == "." ? "" : String(text)
    }
}
