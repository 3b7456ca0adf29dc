/// Groups files into report items: by content identifier first, across folders and names; then
/// by folder and base name when an identifier is missing on one side. Every file lands in exactly
/// one item. Several files with one identifier are reported (`sharingIdentifier`), never resolved
/// silently. Works on indices, so a large library's facts are not copied along the way.
public enum Pairing {
    /// How many of the other files sharing an identifier an item lists.
    static let listedSharers = 10

    public static func items(_ files: [FileFacts]) -> [CheckItem] {
        var pairs: [(still: Int, movie: Int, method: CheckItem.PairingMethod)] = []
        var leftovers: [Int] = []
        // Files of an identifier carried by several: index -> group number.
        var sharedGroup: [Int: Int] = [:]
        var sharedGroups: [[Int]] = []

        // 1. By identifier.
        var groups: [String: (stills: [Int], movies: [Int])] = [:]
        for index in files.indices {
            let isStill = files[index].isStill
            guard files[index].error == nil, let identifier = files[index].contentIdentifier, isStill || files[index].isMovie else {
                leftovers.append(index)
                continue
            }
            if isStill { groups[identifier, default: ([], [])].stills.append(index) } else { groups[identifier, default: ([], [])].movies.append(index) }
        }
        for identifier in groups.keys.sorted() {
            guard let group = groups[identifier] else { continue }
            if group.stills.count > 1 || group.movies.count > 1 {
                let members = (group.stills + group.movies).sorted { files[$0].path < files[$1].path }
                for member in members { sharedGroup[member] = sharedGroups.count }
                sharedGroups.append(members)
            }
            if group.stills.count == 1 && group.movies.count == 1 {
                pairs.append((group.stills[0], group.movies[0], .identifier))
                continue
            }
            // Several: pair those that also share folder and name; the rest wait for the name pass.
            var movies = group.movies
            var movieByName: [String: [Int]] = [:]
            for (slot, movie) in movies.enumerated() { movieByName[nameKey(files[movie]), default: []].append(slot) }
            var used = Set<Int>()
            for still in group.stills {
                if let slot = movieByName[nameKey(files[still])]?.first(where: { !used.contains($0) }) {
                    used.insert(slot)
                    pairs.append((still, movies[slot], .identifier))
                } else {
                    leftovers.append(still)
                }
            }
            movies = movies.enumerated().filter { !used.contains($0.offset) }.map(\.element)
            leftovers += movies
        }

        // 2. By folder and base name, when at least one side carries a Live Photo marker.
        var byName: [String: (stills: [Int], movies: [Int])] = [:]
        var singles: [Int] = []
        for index in leftovers {
            let isStill = files[index].isStill
            guard isStill || files[index].isMovie else { singles.append(index); continue }
            let key = nameKey(files[index])
            if isStill { byName[key, default: ([], [])].stills.append(index) } else { byName[key, default: ([], [])].movies.append(index) }
        }
        for key in byName.keys.sorted() {
            guard let group = byName[key] else { continue }
            if group.stills.count == 1, group.movies.count == 1,
               files[group.stills[0]].hasLivePhotoMarker || files[group.movies[0]].hasLivePhotoMarker {
                pairs.append((group.stills[0], group.movies[0], .name))
            } else {
                singles += group.stills + group.movies
            }
        }

        // 3. Items, sorted by their first file's path; shared identifiers listed (the first few).
        func sharing(_ own: [Int]) -> (listed: [String], count: Int) {
            guard let group = own.lazy.compactMap({ sharedGroup[$0] }).first else { return ([], 0) }
            let members = sharedGroups[group]
            var listed: [String] = []
            for member in members where !own.contains(member) {
                listed.append(files[member].path)
                if listed.count == listedSharers { break }
            }
            return (listed, members.count - own.filter { sharedGroup[$0] != nil }.count)
        }
        var items: [CheckItem] = []
        items.reserveCapacity(pairs.count + singles.count)
        for pair in pairs {
            var item = CheckItem(kind: .pair, still: files[pair.still], movie: files[pair.movie], pairedBy: pair.method)
            (item.sharingIdentifier, item.sharingCount) = sharing([pair.still, pair.movie])
            items.append(item)
        }
        for index in singles {
            var item = single(files[index])
            (item.sharingIdentifier, item.sharingCount) = sharing([index])
            items.append(item)
        }
        // Sort by key, then move each item once (items are large values).
        let order = items.indices.map { ($0, items[$0].primary?.path ?? "") }.sorted { $0.1 < $1.1 }
        return order.map { items[$0.0] }
    }

    static func single(_ file: FileFacts) -> CheckItem {
        let damaged = file.error != nil || file.warnings.contains { $0.code == .truncated }
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
        if file.isMovie { item.movie = file } else { item.still = file }
        return item
    }

    static func nameKey(_ file: FileFacts) -> String { file.folder + "/" + file.baseName.lowercased() }
}
