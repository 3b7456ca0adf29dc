import LivePhotoFormats

extension Pairing.Builder {
    /// What resolving one identifier group finds, step by step.
    struct GroupResolution {
        var stills: [Int]
        var movies: [Int]
        /// A hard link's other name that stands for it.
        var linkOf: [Int: Int] = [:]
        var pairs: [(still: Int, movie: Int, tier: Int)] = []
        var paired = Set<Int>()
        var copyOf: [Int: Int] = [:]
        var relatedTo: [Int: Int] = [:]
        var unrelated: [Int] = []
        var leftovers: [Int] = []
        var conflicted = Set<Int>()

        var all: [Int] { stills + movies }

        mutating func pair(_ still: Int, _ movie: Int, tier: Int) {
            pairs.append((still, movie, tier))
            paired.insert(still)
            paired.insert(movie)
        }
    }

    /// Resolves the files of one identifier into items: hard links, pairs by name, copies and
    /// renditions, loose pairs, then the items with the group's primary.
    mutating func resolve(_ stills: [Int], _ movies: [Int], identifier: String) {
        if stills.count + movies.count > Self.largeGroup {
            resolveLargeGroup(stills, movies, identifier: identifier)
            return
        }
        rank(stills + movies)
        var group = GroupResolution(stills: stills, movies: movies)
        separateHardLinks(&group)
        pairByName(&group)
        classifyLeftovers(&group)
        pairLoose(&group)
        addItems(group, identifier: identifier)
    }

    /// A group too large to compare every still with every movie: pairs by exact name only.
    mutating func resolveLargeGroup(_ stills: [Int], _ movies: [Int], identifier: String) {
        var movieByName: [String: [Int]] = [:]
        for movie in movies { movieByName[Pairing.nameKey(files[movie]), default: []].append(movie) }
        var used = Set<Int>()
        for still in stills {
            if let movie = movieByName[Pairing.nameKey(files[still])]?.first(where: { !used.contains($0) }) {
                used.insert(movie)
                var item = CheckItem(kind: .pair, pairedBy: .identifier)
                item.identifierConflict = true
                add(item, still: still, movie: movie, identifier: identifier)
            } else {
                used.insert(still)
                var item = Pairing.single(files[still])
                item.still = nil
                item.identifierConflict = true
                add(item, still: still, movie: nil, identifier: identifier)
            }
        }
        for movie in movies where !used.contains(movie) {
            var item = Pairing.single(files[movie])
            item.movie = nil
            item.identifierConflict = true
            add(item, still: nil, movie: movie, identifier: identifier)
        }
    }

    /// The group's name keys and ranks: fewest variant marks, camera-written, then path order.
    mutating func rank(_ members: [Int]) {
        ranks = [:]
        keys = [:]
        for index in members { keys[index] = files[index].nameKey }
        let preference = members.map { index in
            (index: index, marks: key(index).marks.count, camera: files[index].hasCameraMetadata ? 0 : 1, path: files[index].path)
        }.sorted { ($0.marks, $0.camera, $0.path) < ($1.marks, $1.camera, $1.path) }
        for (position, entry) in preference.enumerated() { ranks[entry.index] = position }
    }

    /// 1. Hard links: one file under several names. The name that pairs by folder and name, else
    /// the best-ranked, stands for it; the others leave the group.
    func separateHardLinks(_ group: inout GroupResolution) {
        var byIdentity: [FileIdentity: Int] = [:]
        var fullName: [Int: String] = [:]
        for index in group.all { fullName[index] = Pairing.nameKey(files[index]) }
        let stillNames = Set(group.stills.compactMap { fullName[$0] }), movieNames = Set(group.movies.compactMap { fullName[$0] })
        var pairsByName: [Int: Int] = [:]
        for index in group.all {
            pairsByName[index] = (files[index].isStill ? movieNames : stillNames).contains(fullName[index] ?? "") ? 0 : 1
        }
        for index in group.all.sorted(by: { (pairsByName[$0] ?? 1, rank($0)) < (pairsByName[$1] ?? 1, rank($1)) }) {
            guard let identity = files[index].identity else { continue }
            if let first = byIdentity[identity] { group.linkOf[index] = first } else { byIdentity[identity] = index }
        }
        group.stills.removeAll { group.linkOf[$0] != nil }
        group.movies.removeAll { group.linkOf[$0] != nil }
    }

    /// 2. Pairs by name: same folder and name, same name without marks, related names.
    func pairByName(_ group: inout GroupResolution) {
        func tier(_ still: Int, _ movie: Int) -> Int? {
            let a = files[still], b = files[movie]
            if a.folder == b.folder && a.baseName.lowercased() == b.baseName.lowercased() { return 0 }
            let keyA = key(still), keyB = key(movie)
            if keyA.stem == keyB.stem { return 1 }
            return keyA.isRelated(to: keyB) ? 2 : nil
        }
        var candidates: [(still: Int, movie: Int, tier: Int, distance: Int)] = []
        for still in group.stills {
            for movie in group.movies {
                if let tier = tier(still, movie) { candidates.append((still, movie, tier, Pairing.distance(files[still], files[movie]))) }
            }
        }
        candidates.sort { ($0.tier, $0.distance, rank($0.still), rank($0.movie)) < ($1.tier, $1.distance, rank($1.still), rank($1.movie)) }
        for candidate in candidates where !group.paired.contains(candidate.still) && !group.paired.contains(candidate.movie) {
            group.pair(candidate.still, candidate.movie, tier: candidate.tier)
        }
    }

    /// 3. What is left: copies, renditions named like a grouped file, or unrelated files.
    /// Originals are looked for among the pairs, then the better-ranked leftovers.
    func classifyLeftovers(_ group: inout GroupResolution) {
        let leftovers = group.all.filter { !group.paired.contains($0) }.sorted { rank($0) < rank($1) }
        let pairedFiles = group.paired.sorted { rank($0) < rank($1) }
        for (position, index) in leftovers.enumerated() {
            let earlier = pairedFiles + leftovers[..<position].filter { group.copyOf[$0] == nil }
            let own = key(index)
            if let original = earlier.first(where: { isCopy(index, of: $0) }) {
                group.copyOf[index] = original
            } else if let relative = earlier.first(where: { key($0).isRelated(to: own) }) {
                group.relatedTo[index] = relative
            } else {
                group.unrelated.append(index)
            }
        }
    }

    /// 4. Unrelated stills and movies: pair closest first; a tie is a conflict.
    func pairLoose(_ group: inout GroupResolution) {
        let looseStills = group.unrelated.filter { files[$0].isStill }, looseMovies = group.unrelated.filter { files[$0].isMovie }
        var loose: [(still: Int, movie: Int, distance: Int)] = []
        for still in looseStills { for movie in looseMovies { loose.append((still, movie, Pairing.distance(files[still], files[movie]))) } }
        loose.sort { ($0.distance, rank($0.still), rank($0.movie)) < ($1.distance, rank($1.still), rank($1.movie)) }
        for candidate in loose where !group.paired.contains(candidate.still) && !group.paired.contains(candidate.movie) {
            let rivals = loose.filter {
                $0.distance == candidate.distance && ($0.still == candidate.still) != ($0.movie == candidate.movie)
                    && !group.paired.contains($0.still) && !group.paired.contains($0.movie)
            }
            group.pair(candidate.still, candidate.movie, tier: 3)
            if !rivals.isEmpty { group.conflicted.formUnion([candidate.still, candidate.movie] + rivals.flatMap { [$0.still, $0.movie] }) }
        }
        group.leftovers = group.unrelated.filter { !group.paired.contains($0) }
        group.conflicted.formUnion(group.leftovers)
    }

    /// 5. The items: the group's primary (the pair whose still is the camera original, else the
    /// best single), its variant pairs, copies, renditions, singles and hard links.
    mutating func addItems(_ group: GroupResolution, identifier: String) {
        var group = group
        group.pairs.sort { (rank($0.still), $0.tier) < (rank($1.still), $1.tier) }
        let (primary, primaryFiles) = self.primary(group)
        let primaryKey = primaryFiles.first.map { key($0) }
        for (index, pair) in group.pairs.enumerated() {
            var item = CheckItem(kind: .pair, pairedBy: .identifier)
            if index > 0 {
                item.variantOf = primary
                if let primaryKey { item.variantMarks = key(pair.still).marksBeyond(primaryKey) }
            }
            item.identifierConflict = group.conflicted.contains(pair.still) || group.conflicted.contains(pair.movie)
            add(item, still: pair.still, movie: pair.movie, identifier: identifier)
        }
        for index in group.all where !group.paired.contains(index) {
            var item: CheckItem
            if let original = group.copyOf[index] {
                item = CheckItem(kind: .duplicate)
                item.duplicateOf = files[original].path
            } else if let relative = group.relatedTo[index], !primaryFiles.contains(index) {
                item = CheckItem(kind: .variant)
                item.variantOf = primaryFiles.contains(relative) || group.paired.contains(relative) ? reference(of: relative, pairs: group.pairs) : primary
                item.variantMarks = key(index).marksBeyond(key(relative))
            } else {
                item = Pairing.single(files[index])
                item.still = nil
                item.movie = nil
                item.identifierConflict = group.conflicted.contains(index) && (group.conflicted.count > 1 || !group.pairs.isEmpty)
            }
            add(item, still: files[index].isStill ? index : nil, movie: files[index].isMovie ? index : nil, identifier: identifier)
            if item.kind == .duplicate { drafts[drafts.count - 1].original = group.copyOf[index] }
        }
        for (link, first) in group.linkOf {
            var item = CheckItem(kind: .duplicate)
            item.duplicateOf = files[first].path
            item.hardLink = true
            add(item, still: files[link].isStill ? link : nil, movie: files[link].isMovie ? link : nil, identifier: identifier)
        }
    }

    /// The group's primary item and its files (the pairs sorted first).
    func primary(_ group: GroupResolution) -> (ItemReference, [Int]) {
        if let first = group.pairs.first {
            return (ItemReference(still: files[first.still].path, movie: files[first.movie].path), [first.still, first.movie])
        }
        let candidates = group.leftovers.isEmpty ? group.all.filter { group.relatedTo[$0] == nil && group.copyOf[$0] == nil } : group.leftovers
        if let best = candidates.sorted(by: { (files[$0].isStill ? 0 : 1, rank($0)) < (files[$1].isStill ? 0 : 1, rank($1)) }).first {
            return (ItemReference(still: files[best].isStill ? files[best].path : nil, movie: files[best].isMovie ? files[best].path : nil), [best])
        }
        return (ItemReference(still: nil, movie: nil), [])
    }
}
