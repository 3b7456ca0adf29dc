import LivePhotoFormats

/// Groups files into report items the way a person sorting a library would. Every file lands in
/// exactly one item.
///
/// 1. **Identifier groups.** Files carrying one content identifier belong together. One still and
///    one movie make a pair. A larger group (an original and its edit, a re-export, a downsized
///    movie, a copy) is resolved in steps: hard links of one file are one file (`duplicate`);
///    stills and movies pair by same folder and base name, then the same name once variant marks
///    are removed (`VariantMark`), then related names, each step closest path first, ties by path.
///    What is left is a byte-identical copy of a member (`duplicate`), another rendition of the
///    group's Live Photo (`variant`, named like one of its files), or, named like none of them, a
///    true conflict (`identifierConflict`). Several pairs per identifier are legal: the first
///    (camera original, fewest marks) is the group's primary and the others are `variantOf` it.
/// 2. **Names.** A file without an identifier pairs with the one file of the other kind that has
///    its folder and base name (or that name without variant marks) when one of them carries a
///    Live Photo marker.
/// 3. Single files say which same-named files did not pair with them and why (`nameMates`).
public enum Pairing {
    /// How many of the other files sharing an identifier an item lists.
    static let listedSharers = 10
    /// Identifier groups with more files than this are paired by exact folder and name only, and
    /// every member is reported as a conflict (the group is not told apart further).
    public static let largeGroup = 256

    /// `identical` tells whether two files of equal size hold the same bytes (the checker compares
    /// them; nil leaves copies undetected).
    public static func items(_ files: [FileFacts], identical: ((FileFacts, FileFacts) -> Bool)? = nil) -> [CheckItem] {
        var builder = Builder(files: files, identical: identical)
        return builder.run()
    }

    static func nameKey(_ file: FileFacts) -> String { file.folder + "/" + file.baseName.lowercased() }

    /// The facts pairing (with sidecars, copy detection and the left-out list) reads of a file,
    /// without the summaries only rules read: a movie's tracks and frames, a motion photo, a
    /// thumbnail. A file without an identifier keeps its movie summary, whose still-image-time
    /// track is a Live Photo marker pairing weighs. Pairing these gives the items pairing the
    /// full facts gives (a bounded check pairs large groups so, then reads the facts again).
    public static func pairingFacts(_ file: FileFacts) -> FileFacts {
        var facts = FileFacts(path: file.path, format: file.format, kind: file.kind, size: file.size, error: file.error,
                              warnings: file.warnings, contentIdentifier: file.contentIdentifier)
        (facts.bytesRead, facts.identity, facts.hasAppleMakerNote, facts.make, facts.model) =
            (file.bytesRead, file.identity, file.hasAppleMakerNote, file.make, file.model)
        if file.contentIdentifier == nil { facts.movie = file.movie }
        return facts
    }

    /// What ties a media file to the files pairing, copy detection, name mates and sidecars may
    /// relate it to: its identifier ("i" + identifier), and its names within its folder ("n" +
    /// folder/name: the base name, the base name without variant marks, the full name; the
    /// names sidecars describe, `Sidecars.relationKeys`). Two files that share no chain of keys
    /// are checked alike apart and together (`check --facts --bounded-memory` relies on it). A
    /// change to what pairing compares changes these keys.
    public static func relationKeys(_ file: FileFacts) -> [String] {
        let folder = file.folder + "/"
        var keys = ["n" + nameKey(file), "n" + folder + file.nameKey.stem, "n" + folder + file.fileName.lowercased()]
        if let identifier = file.contentIdentifier { keys.append("i" + identifier) }
        keys += embeddedMovieKeys(file).dropFirst().map { "n" + $0 }
        return keys
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

    /// Folders apart: components of the two folders not shared from the start.
    static func distance(_ a: FileFacts, _ b: FileFacts) -> Int {
        let left = a.folder.split(separator: "/", omittingEmptySubsequences: false)
        let right = b.folder.split(separator: "/", omittingEmptySubsequences: false)
        var common = 0
        while common < min(left.count, right.count), left[common] == right[common] { common += 1 }
        return left.count + right.count - 2 * common
    }

    struct Builder {
        let files: [FileFacts]
        let identical: ((FileFacts, FileFacts) -> Bool)?
        /// Items as (kind and fields, file indices); files are copied in once at the end.
        var drafts: [Draft] = []
        /// The draft each file went to (-1: none yet).
        var draftOfFile: [Int]
        var groups: [String: (stills: [Int], movies: [Int])] = [:]

        struct Draft {
            var item: CheckItem
            var still: Int?
            var movie: Int?
            var identifier: String?
            /// The pair is its identifier's whole group (one still, one movie).
            var wholeGroup = false
            /// A copy's original (a duplicate that is not a hard link).
            var original: Int?
            /// Joined into another item (`joinUnreadMates`): no item of its own.
            var merged = false
        }

        init(files: [FileFacts], identical: ((FileFacts, FileFacts) -> Bool)?) {
            self.files = files
            self.identical = identical
            draftOfFile = Array(repeating: -1, count: files.count)
            // Most of a library is pairs: room for one draft per two files, so that the list is
            // not copied into one twice its size just before it is complete.
            drafts.reserveCapacity(files.count / 2 + 1)
        }

        mutating func add(_ item: CheckItem, still: Int?, movie: Int?, identifier: String? = nil) {
            let index = drafts.count
            drafts.append(Draft(item: item, still: still, movie: movie, identifier: identifier))
            if let still { draftOfFile[still] = index }
            if let movie { draftOfFile[movie] = index }
        }

        mutating func run() -> [CheckItem] {
            var unpaired: [Int] = []
            // Room for a library of pairs (the table would otherwise grow a dozen times).
            groups.reserveCapacity(files.count / 2)
            for index in files.indices {
                let isStill = files[index].isStill
                guard files[index].error == nil, let identifier = files[index].contentIdentifier, isStill || files[index].isMovie else {
                    unpaired.append(index)
                    continue
                }
                if isStill { groups[identifier, default: ([], [])].stills.append(index) } else { groups[identifier, default: ([], [])].movies.append(index) }
            }
            // A group of one still and one movie (most of a library) is its pair: such a pair
            // touches nothing another group reads, so these are made first, in the order of
            // their stills (the walk's, nearly the path order the items are sorted into at the
            // end), without sorting the identifiers. The other groups are resolved in identifier
            // order, so that the files they leave unpaired are paired by name in the same order
            // every run.
            var whole: [(still: Int, movie: Int, identifier: String)] = []
            var others: [String] = []
            for (identifier, group) in groups {
                if group.stills.count == 1 && group.movies.count == 1 {
                    whole.append((group.stills[0], group.movies[0], identifier))
                } else {
                    others.append(identifier)
                }
            }
            whole.sort { $0.still < $1.still }
            drafts.reserveCapacity(whole.count + others.count)
            for pair in whole {
                add(CheckItem(kind: .pair, pairedBy: .identifier), still: pair.still, movie: pair.movie, identifier: pair.identifier)
                drafts[drafts.count - 1].wholeGroup = true
            }
            for identifier in others.sorted() {
                guard let group = groups[identifier] else { continue }
                switch (group.stills.count, group.movies.count) {
                case (1, 0), (0, 1):
                    unpaired += group.stills + group.movies
                default:
                    resolve(group.stills, group.movies, identifier: identifier)
                }
            }
            pairGroupLeftoversByName(&unpaired)
            pairByName(unpaired)
            return finish()
        }

        /// A file without an identifier beside a same-named file of the other kind that an
        /// identifier group left single (a variant, a file named like none of the group's, or a
        /// byte-identical copy under a name of its own) pairs with it by name, as it would with a
        /// movie that is alone: a web copy whose still lost its MakerNote is still a pair, a
        /// variant of the group's Live Photo, whether its movie was re-encoded or copied.
        mutating func pairGroupLeftoversByName(_ unpaired: inout [Int]) {
            var leftover: [String: Int] = [:]
            for (index, draft) in drafts.enumerated() where draft.identifier != nil && (draft.still == nil) != (draft.movie == nil) {
                guard let file = draft.still ?? draft.movie else { continue }
                let copyUnderOwnName = draft.item.kind == .duplicate && !draft.item.hardLink
                    && draft.original.map { Pairing.nameKey(files[$0]) != Pairing.nameKey(files[file]) } == true
                guard [.variant, .stillOnly, .movieOnly].contains(draft.item.kind) || copyUnderOwnName else { continue }
                leftover[Pairing.nameKey(files[file])] = index
            }
            guard !leftover.isEmpty else { return }
            unpaired.removeAll { index in
                let file = files[index]
                guard file.contentIdentifier == nil, file.error == nil, file.isStill || file.isMovie,
                      let draft = leftover[Pairing.nameKey(file)], (drafts[draft].still == nil) == file.isStill else { return false }
                leftover[Pairing.nameKey(file)] = nil
                if drafts[draft].item.kind == .duplicate, let original = drafts[draft].original, draftOfFile[original] >= 0 {
                    // The copy's pair is a variant of the item its original belongs to.
                    let owner = drafts[draftOfFile[original]]
                    drafts[draft].item.variantOf = ItemReference(still: owner.still.map { files[$0].path }, movie: owner.movie.map { files[$0].path })
                    drafts[draft].item.duplicateOf = nil
                }
                drafts[draft].item.kind = .pair
                drafts[draft].item.pairedBy = .name
                if file.isStill { drafts[draft].still = index } else { drafts[draft].movie = index }
                draftOfFile[index] = draft
                return true
            }
        }

        // MARK: Identifier groups

        /// Preference for the file that stands for a group: fewest variant marks, written by a
        /// camera, then path order. Set for the group being resolved.
        var ranks: [Int: Int] = [:]
        func rank(_ index: Int) -> Int { ranks[index] ?? Int.max }
        /// Name keys of the group being resolved, computed once per file.
        var keys: [Int: NameKey] = [:]
        func key(_ index: Int) -> NameKey { keys[index] ?? files[index].nameKey }
        /// Sorted paths of each identifier's files, computed once per identifier (for `sharingIdentifier`).
        var sortedMembers: [String: [String]] = [:]
        /// The first `listedSharers` of those, for the items that are not among them.
        var firstMembers: [String: [String]] = [:]

        /// Groups larger than this (a generator that stamped one identifier on everything) are
        /// resolved by exact names only: the full resolution compares every still with every movie.
        static let largeGroup = Pairing.largeGroup

        /// The item reference of a grouped file: its pair, or itself.
        func reference(of index: Int, pairs: [(still: Int, movie: Int, tier: Int)]) -> ItemReference {
            if let pair = pairs.first(where: { $0.still == index || $0.movie == index }) {
                return ItemReference(still: files[pair.still].path, movie: files[pair.movie].path)
            }
            return ItemReference(still: files[index].isStill ? files[index].path : nil, movie: files[index].isMovie ? files[index].path : nil)
        }

        /// A byte-identical copy: same kind, same size, and (asked of the checker) the same bytes.
        func isCopy(_ a: Int, of b: Int) -> Bool {
            guard let identical, files[a].isStill == files[b].isStill, files[a].size == files[b].size, files[a].size > 0 else { return false }
            return identical(files[a], files[b])
        }

        // MARK: Names

        mutating func pairByName(_ indices: [Int]) {
            var remaining = indices
            for normalised in [false, true] {
                var byName: [String: (stills: [Int], movies: [Int])] = [:]
                var others: [Int] = []
                for index in remaining {
                    let file = files[index]
                    guard file.isStill || file.isMovie else { others.append(index); continue }
                    let key = normalised ? file.folder + "/" + file.nameKey.stem : Pairing.nameKey(file)
                    if file.isStill { byName[key, default: ([], [])].stills.append(index) } else { byName[key, default: ([], [])].movies.append(index) }
                }
                remaining = others
                for key in byName.keys.sorted() {
                    guard let group = byName[key] else { continue }
                    if group.stills.count == 1, group.movies.count == 1, files[group.stills[0]].error == nil, files[group.movies[0]].error == nil,
                       files[group.stills[0]].hasLivePhotoMarker || files[group.movies[0]].hasLivePhotoMarker {
                        add(CheckItem(kind: .pair, pairedBy: .name), still: group.stills[0], movie: group.movies[0])
                    } else {
                        remaining += group.stills + group.movies
                    }
                }
            }
            for index in remaining.sorted() {
                var item = Pairing.single(files[index])
                item.still = nil
                item.movie = nil
                add(item, still: files[index].isStill || !files[index].isMovie ? index : nil, movie: files[index].isMovie ? index : nil)
            }
        }

        // MARK: Finishing

        /// Fills in files, identifier carriers, sharers and name mates; sorts by first path.
        mutating func finish() -> [CheckItem] {
            // Same-named files, for single items only: the names of those items first, then the
            // files that have one of them (not every file's name: a million of those is 70 MB).
            var byName: [String: [Int]] = [:]
            for draft in drafts where draft.item.kind == .stillOnly || draft.item.kind == .movieOnly {
                if let index = draft.still ?? draft.movie { byName[Pairing.nameKey(files[index])] = [] }
            }
            if !byName.isEmpty {
                for index in files.indices {
                    let key = Pairing.nameKey(files[index])
                    if byName[key] != nil { byName[key]?.append(index) }
                }
            }
            joinUnreadMates(byName)
            // Items in report order (by the primary file's path: the still, else the movie),
            // sorted before they are built so that the items exist once, not twice.
            let order = drafts.indices.filter { !drafts[$0].merged }.map { index in
                (index, (drafts[index].still ?? drafts[index].movie).map { files[$0].path } ?? "")
            }.sorted { $0.1 < $1.1 }
            var items: [CheckItem] = []
            items.reserveCapacity(drafts.count)
            for (index, _) in order {
                let draft = drafts[index]
                var item = draft.item
                item.still = draft.still.map { files[$0] }
                item.movie = draft.movie.map { files[$0] }
                let own = [draft.still, draft.movie].compactMap { $0 }
                // A pair that is its identifier's whole group (most of a library) shares nothing.
                if draft.wholeGroup {
                    item.carriers = CheckItem.Carriers(stills: 1, movies: 1)
                } else if let identifier = draft.identifier ?? item.contentIdentifier, let group = groups[identifier] {
                    item.carriers = CheckItem.Carriers(stills: group.stills.count, movies: group.movies.count)
                    let others = group.stills.count + group.movies.count - own.filter { files[$0].contentIdentifier == identifier && files[$0].error == nil }.count
                    if others > 0 {
                        if sortedMembers[identifier] == nil { sortedMembers[identifier] = (group.stills + group.movies).map { files[$0].path }.sorted() }
                        let members = sortedMembers[identifier] ?? []
                        let ownPaths = own.map { files[$0].path }
                        item.sharingCount = others
                        if members.prefix(Pairing.listedSharers).contains(where: ownPaths.contains) {
                            item.sharingIdentifier = Array(members.lazy.filter { !ownPaths.contains($0) }.prefix(Pairing.listedSharers))
                        } else {
                            // Not among the first members: the list is theirs, one array for
                            // every such item of the group (a large group's items mostly).
                            if firstMembers[identifier] == nil { firstMembers[identifier] = Array(members.prefix(Pairing.listedSharers)) }
                            item.sharingIdentifier = firstMembers[identifier] ?? []
                        }
                    }
                }
                if item.kind == .stillOnly || item.kind == .movieOnly, let index = own.first {
                    item.nameMates = (byName[Pairing.nameKey(files[index])] ?? []).filter { $0 != index }.map { mate in
                        NameMate(path: files[mate].path, reason: reason(mate, single: index))
                    }
                }
                items.append(item)
            }
            return items
        }

        /// A half (a still or movie with a Live Photo marker, alone) whose one same-named file could
        /// not be read (an I/O or network failure: its kind is unknown) may well have its other
        /// half there: the two become one unreadable item, whose finding is the read's failure,
        /// rather than a half judged alone as if its partner were absent.
        mutating func joinUnreadMates(_ byName: [String: [Int]]) {
            for index in drafts.indices where drafts[index].item.kind == .stillOnly || drafts[index].item.kind == .movieOnly {
                guard let own = drafts[index].still ?? drafts[index].movie else { continue }
                let unread = (byName[Pairing.nameKey(files[own])] ?? []).filter { $0 != own && files[$0].error?.code == .io }
                guard unread.count == 1, let mate = unread.first, draftOfFile[mate] >= 0 else { continue }
                let other = draftOfFile[mate]
                guard other != index, !drafts[other].merged, drafts[other].item.kind == .unreadable,
                      [drafts[other].still, drafts[other].movie].compactMap({ $0 }) == [mate] else { continue }
                drafts[other].merged = true
                drafts[index].item.kind = .unreadable
                if drafts[index].still == nil { drafts[index].still = mate } else { drafts[index].movie = mate }
                draftOfFile[mate] = index
            }
        }

        /// Why the same-named file `mate` did not pair with `single`.
        func reason(_ mate: Int, single: Int) -> String {
            let file = files[mate]
            if let error = file.error { return "it is unreadable (\(error.message))" }
            if file.isStill == files[single].isStill { return file.isStill ? "it is a still too" : "it is a movie too" }
            if !file.isStill && !file.isMovie { return "it is not an image or movie" }
            if draftOfFile[mate] >= 0 {
                let draft = draftOfFile[mate]
                let item = drafts[draft].item
                if item.kind == .pair, let partner = file.isStill ? drafts[draft].movie : drafts[draft].still {
                    return "it is paired with \(files[partner].path)" + (item.pairedBy == .identifier ? " by identifier" : "")
                }
                if let identifier = file.contentIdentifier, identifier != files[single].contentIdentifier {
                    return "it carries another identifier, \(identifier)"
                }
                return "it is a \(item.kind.rawValue) item"
            }
            return "it did not pair"
        }
    }
}
