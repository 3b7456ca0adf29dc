/// Groups files into report items: by content identifier first, across folders and names; then
/// by folder and base name when an identifier is missing on one side. Every file lands in exactly
/// one item. Several files with one identifier are reported (`sharingIdentifier`), never resolved
/// silently.
public enum Pairing {
    public static func items(_ files: [FileFacts]) -> [CheckItem] {
        var items: [CheckItem] = []
        var leftovers: [FileFacts] = []
        // Files of an identifier carried by several: path -> the group's paths (one array per group,
        // shared, so a degenerate library with thousands of copies stays linear in memory).
        var sharing: [String: [String]] = [:]

        // 1. By identifier.
        var groups: [String: (stills: [FileFacts], movies: [FileFacts])] = [:]
        for file in files {
            guard file.error == nil, let identifier = file.contentIdentifier, file.isStill || file.isMovie else {
                leftovers.append(file)
                continue
            }
            if file.isStill { groups[identifier, default: ([], [])].stills.append(file) } else { groups[identifier, default: ([], [])].movies.append(file) }
        }
        for identifier in groups.keys.sorted() {
            guard let group = groups[identifier] else { continue }
            let all = group.stills + group.movies
            if group.stills.count > 1 || group.movies.count > 1 {
                let paths = all.map(\.path).sorted()
                for file in all { sharing[file.path] = paths }
            }
            if group.stills.count == 1 && group.movies.count == 1 {
                items.append(CheckItem(kind: .pair, still: group.stills[0], movie: group.movies[0], pairedBy: .identifier))
                continue
            }
            // Several: pair those that also share folder and name; the rest wait for the name pass.
            var movies = group.movies
            for still in group.stills {
                if let index = movies.firstIndex(where: { sameName(still, $0) }) {
                    items.append(CheckItem(kind: .pair, still: still, movie: movies.remove(at: index), pairedBy: .identifier))
                } else {
                    leftovers.append(still)
                }
            }
            leftovers += movies
        }

        // 2. By folder and base name, when at least one side carries a Live Photo marker.
        var byName: [String: (stills: [FileFacts], movies: [FileFacts])] = [:]
        var singles: [FileFacts] = []
        for file in leftovers {
            guard file.isStill || file.isMovie else { singles.append(file); continue }
            let key = nameKey(file)
            if file.isStill { byName[key, default: ([], [])].stills.append(file) } else { byName[key, default: ([], [])].movies.append(file) }
        }
        for key in byName.keys.sorted() {
            guard let group = byName[key] else { continue }
            if group.stills.count == 1, group.movies.count == 1,
               group.stills[0].hasLivePhotoMarker || group.movies[0].hasLivePhotoMarker {
                items.append(CheckItem(kind: .pair, still: group.stills[0], movie: group.movies[0], pairedBy: .name))
            } else {
                singles += group.stills + group.movies
            }
        }

        // 3. Singles.
        for file in singles {
            items.append(single(file))
        }
        for index in items.indices {
            let own = items[index].files.map(\.path)
            guard let group = own.lazy.compactMap({ sharing[$0] }).first else { continue }
            // Linear in the listed few, not in the group: thousands of copies of one file must not
            // make pairing quadratic.
            let ownInGroup = own.filter { sharing[$0] != nil }.count
            items[index].sharingCount = group.count - ownInGroup
            var listed: [String] = []
            for path in group where !own.contains(path) {
                listed.append(path)
                if listed.count == Self.listedSharers { break }
            }
            items[index].sharingIdentifier = listed
        }
        // Sort by key, then move each item once (items are large values).
        let order = items.indices.map { ($0, items[$0].primary?.path ?? "") }.sorted { $0.1 < $1.1 }
        return order.map { items[$0.0] }
    }

    /// How many of the other files sharing an identifier an item lists.
    static let listedSharers = 10

    static func single(_ file: FileFacts) -> CheckItem {
        let damaged = file.error != nil || file.warnings.contains { $0.code == .truncated }
        let place: (inout CheckItem) -> Void = { item in
            if file.isMovie { item.movie = file } else { item.still = file }
        }
        var item: CheckItem
        if file.error != nil {
            item = CheckItem(kind: .unreadable)
        } else if file.kind == .motionPhoto {
            item = CheckItem(kind: .motionPhoto)
        } else if file.isStill && file.contentIdentifier != nil {
            item = CheckItem(kind: .stillOnly)
        } else if file.isMovie && file.hasLivePhotoMarker {
            item = CheckItem(kind: .movieOnly)
        } else if damaged {
            item = CheckItem(kind: .unreadable)
        } else {
            item = CheckItem(kind: .notLivePhoto)
        }
        place(&item)
        return item
    }

    static func nameKey(_ file: FileFacts) -> String { file.folder + "/" + file.baseName.lowercased() }

    static func sameName(_ a: FileFacts, _ b: FileFacts) -> Bool { nameKey(a) == nameKey(b) }
}
