/// Sidecar files that describe a media file beside them: Photos' edit recipes (`IMG_1234.AAE`,
/// `IMG_O1234.AAE` for the original's), XMP sidecars (`IMG_1234.xmp`, `IMG_1234.HEIC.xmp`), and
/// Google Takeout's metadata (`IMG_1234.HEIC.json`, `IMG_1234.HEIC.supplemental-metadata.json`,
/// that suffix cut short when the name would pass 51 characters).
public enum Sidecars {
    static let extensions: Set<String> = ["aae", "xmp", "json"]

    public static func isSidecar(_ file: FileFacts) -> Bool { extensions.contains(file.fileExtension) }

    /// The names a sidecar may describe, lower-cased with their folder: a full file name
    /// (`dir/img_1234.heic`) or a base name (`dir/img_1234`).
    static func describedNames(_ sidecar: FileFacts) -> [String] {
        var name = sidecar.fileName.lowercased()
        let ext = sidecar.fileExtension
        name.removeLast(ext.count + 1)
        if ext == "json", let dot = name.lastIndex(of: ".") {
            let suffix = name[name.index(after: dot)...]
            if !suffix.isEmpty, "supplemental-metadata".hasPrefix(suffix) { name = String(name[..<dot]) }
        }
        var names = [name]
        if ext == "aae", name.hasPrefix("img_o"), name.dropFirst(5).allSatisfy(\.isNumber) { names.append("img_" + name.dropFirst(5)) }
        let folder = sidecar.folder
        return names.map { folder + "/" + $0 }
    }

    /// The names a sidecar ties it to, as `Pairing.relationKeys` gives them for media files.
    public static func relationKeys(_ sidecar: FileFacts) -> [String] { describedNames(sidecar).map { "n" + $0 } }

    /// Attaches each sidecar to the item holding the file it describes; returns the sidecars
    /// that describe no file of the scan.
    public static func attach(_ sidecars: [FileFacts], to items: inout [CheckItem]) -> [FileFacts] {
        guard !sidecars.isEmpty else { return [] }
        var owner: [String: Int] = [:]
        for index in items.indices {
            for file in items[index].files {
                let folder = file.folder + "/"
                let full = folder + file.fileName.lowercased(), base = folder + file.baseName.lowercased()
                if owner[full] == nil { owner[full] = index }
                if owner[base] == nil { owner[base] = index }
            }
        }
        var unattached: [FileFacts] = []
        for sidecar in sidecars {
            if let index = describedNames(sidecar).lazy.compactMap({ owner[$0] }).first {
                items[index].sidecars.append(sidecar.path)
                if let time = sidecar.capture?.time { items[index].sidecarTimes.append(CheckItem.SidecarTime(path: sidecar.path, time: time)) }
                if let reason = sidecar.capture?.unusableTime { items[index].unusableSidecarTimes.append(CheckItem.UnusableSidecarTime(path: sidecar.path, reason: reason)) }
            } else {
                unattached.append(sidecar)
            }
        }
        return unattached
    }
}
