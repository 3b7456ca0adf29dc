import LivePhotoCheck
import LivePhotoFormats

/// Decides what `repair` changes, per identifier group, so that a repair never makes a library
/// worse:
/// - it acts on findings of fixable rules at warning or error (info only with `includeInfo`),
///   never on baselined ones, and only by their fix kind;
/// - an identifier stays on every pair that works and on the group's camera original; only files
///   in a true conflict (`identifierConflict`) that are not the keeper get a new identifier;
/// - duplicates (hard links, copies) are never touched; variants carry their identifier by design
///   and never get another (their other fixes, such as a track, still apply);
/// - new identifiers are deterministic, so the dry run prints what the real run writes;
/// - a track is rewritten keeping its keys and values, and the plan names anything it would lose.
public enum RepairPlanner {
    public static func plan(_ report: CheckReport, options: RepairOptions) -> [ItemPlan] {
        let groups = Groups(report)
        var plans: [ItemPlan] = []
        for item in report.items where item.kind != .duplicate {
            // A variant carries its Live Photo's identifier by design: never changed here.
            let acted = item.findings.filter { acts(on: $0, options: options) && !(item.kind == .variant && RuleRegistry.fixKind($0.rule) == .identifier) }
            let kinds = Set(acted.compactMap { RuleRegistry.fixKind($0.rule) })
            // --time/--frame move a valid moment of any movie given.
            let moves = (options.time != nil || options.frame != nil) && item.movie?.movie?.stillImageTime != nil
            guard !kinds.isEmpty || moves else { continue }
            var edits = ItemEdits()
            var reasons: [String] = []
            var problems: [String] = []
            if kinds.contains(.identifier) {
                edits.identifier = identifier(for: item, groups: groups, options: options, reasons: &reasons)
            }
            if kinds.contains(.stillImageTimeTrack) || kinds.contains(.cdscReference) || moves, let movie = item.movie?.movie {
                do {
                    edits.moment = try moment(movie, options: options)
                } catch {
                    problems.append("\(error)")
                }
            }
            edits.brand = kinds.contains(.brand)
            if kinds.contains(.captureTime) {
                switch captureDate(item) {
                case .success(let date):
                    edits.captureDate = date
                    reasons.append("align dates: the movie gets the still's capture instant, \(date.keyText)")
                case .failure(let why):
                    problems.append(why.description)
                }
            }
            var plan = PlanWriter.plan(item, edits: edits, acting: acted)
            if item.identifierConflict, let current = item.contentIdentifier, groups.keeper[current] == groups.key(item) {
                plan.settledBy = groups.members[current, default: []].filter { $0 != groups.key(item) }
            }
            plan.reasons = reasons + plan.reasons
            // Resolving a conflict must not silently take a camera original's identifier: that
            // unlinks it from its movie wherever that is. Named, and only with --force.
            if item.identifierConflict, let still = item.still, let old = still.contentIdentifier, let new = edits.identifier, new != old.uppercased(),
               still.hasCameraMetadata, still.nameKey.marks.isEmpty {
                plan.losses.append("\(still.path) is a camera original: its identifier \(old) would be replaced by \(new), so a movie of \(old) elsewhere would no longer pair with it")
            }
            plan.problems += problems
            // A .livp's members are windows of the archive, not files: repair never writes one
            // (a file named ARCHIVE:MEMBER beside it would be written instead).
            if let archived = item.files.first(where: { $0.archive != nil }), let archive = archived.archive {
                plan.problems.append("\(archived.path) is a member of the archive \(archive): repair writes no archive; unpack it first (lpcheck convert \(archive) --to live-photo -o DIR), then repair the files")
            }
            // Left: everything not fixed, info findings only when repair was asked to act on them.
            let fixes = plan.fixes
            plan.leaves = item.findings.filter { !fixes.contains($0) && ($0.severity != .info || acted.contains($0)) }
            plans.append(plan)
        }
        return plans
    }

    /// Whether repair acts on a finding: a fixable rule, not baselined, at warning or error
    /// unless info is included.
    public static func acts(on finding: Finding, options: RepairOptions) -> Bool {
        guard let kind = RuleRegistry.fixKind(finding.rule), !finding.baselined else { return false }
        // Dates change what a library shows: only when asked, then at any severity.
        if kind == .captureTime { return options.alignDates }
        return finding.severity >= .warning || options.includeInfo
    }

    /// The still's capture instant as the movie is to hold it; a still whose zone is unknown has
    /// no instant, and nothing is guessed.
    static func captureDate(_ item: CheckItem) -> Result<CaptureDateEdit, RepairProblem> {
        guard let time = item.still?.capture?.time else { return .failure(RepairProblem("cannot align dates: the still has no readable DateTimeOriginal")) }
        guard let instant = time.instant, let text = time.keyText else {
            return .failure(RepairProblem("cannot align dates: the still names no zone (OffsetTimeOriginal), so its instant is unknown; nothing is guessed"))
        }
        let quickTime = instant.rounded(.down) + 2_082_844_800
        guard quickTime >= 0, quickTime < 1.8e19, let seconds = UInt64(exactly: quickTime) else {
            return .failure(RepairProblem("cannot align dates: the still's time is out of range"))
        }
        return .success(CaptureDateEdit(keyText: text, quickTimeSeconds: seconds))
    }

    /// The identifier both files of `item` should carry.
    static func identifier(for item: CheckItem, groups: Groups, options: RepairOptions, reasons: inout [String]) -> String {
        func usable(_ text: String?) -> String? {
            guard let text, IdentifierShape.isUUID(text) else { return nil }
            return text.uppercased()
        }
        let fresh = DeterministicIdentifier.make(([item.contentIdentifier ?? "-"] + item.files.map { "\($0.path)|\($0.size)" }).joined(separator: "\n"))
        if item.identifierConflict, let current = item.contentIdentifier {
            if let keeper = groups.keeper[current], keeper != groups.key(item) {
                reasons.append("\(current) stays with \(keeper) (\(groups.keeperReason[current] ?? "the group's keeper")); this item gets a new identifier \(fresh) so that it no longer competes")
                return fresh
            }
            reasons.append("\(current) stays here: \(groups.keeperReason[current] ?? "the group's keeper"); the other files that carry it get new identifiers")
        }
        let still = usable(item.still?.contentIdentifier)
        let movie = usable(item.movie?.contentIdentifier)
        let chosen: String
        switch options.prefer {
        case .still: chosen = still ?? movie ?? fresh
        case .movie: chosen = movie ?? still ?? fresh
        case .new: chosen = fresh
        }
        if chosen == fresh && options.prefer != .new { reasons.append("neither file carries a usable identifier: a new one, \(fresh)") }
        return chosen
    }

    /// `make`'s moment: `--time`, else `--frame`, else the middle frame.
    public static func moment(forMake movie: MovieFacts, options: RepairOptions) throws -> Moment {
        var movie = movie
        movie.stillImageTime = nil
        var moment = try self.moment(movie, options: options)
        if moment.origin == .guessed { moment.origin = .middle }
        return moment
    }

    /// The still moment: `--time`, else `--frame`, else the current one when it is valid, else the
    /// middle frame (a guess, said so).
    static func moment(_ movie: MovieFacts, options: RepairOptions) throws -> Moment {
        let duration = movie.durationSeconds ?? movie.frames.map(\.end).max() ?? 0
        let value: Int8 = movie.stillImageTime.flatMap { $0.value }.flatMap { $0 == 0 || $0 == -1 ? Int8($0) : nil } ?? -1
        if let time = options.time {
            guard time >= 0, time <= duration else { throw RepairProblem("--time \(time) is outside the movie (0–\(duration) s)") }
            return Moment(seconds: time, origin: .requested, value: value)
        }
        var starts: [Double] = []
        for run in movie.frames where starts.count < 100_000 {
            for index in 0..<run.count { starts.append(run.start + Double(index) * run.duration) }
        }
        starts = starts.filter { $0 < duration || duration == 0 }
        if let frame = options.frame {
            guard starts.indices.contains(frame) else { throw RepairProblem("--frame \(frame): the movie has \(starts.count) frames") }
            return Moment(seconds: starts[frame], origin: .requested, value: value)
        }
        if let current = movie.stillImageTime?.seconds, current >= 0, current <= duration,
           movie.frames.contains(where: { current >= $0.start && current < $0.end }) {
            return Moment(seconds: current, origin: .kept, value: value)
        }
        guard !starts.isEmpty else { throw RepairProblem("its video track shows no frame within the movie's duration (mvhd, the edit list and stts): no frame to place the still on") }
        return Moment(seconds: starts[starts.count / 2], origin: .guessed, value: -1)
    }

    /// Per identifier in conflict: which item keeps it. A pair that works keeps it; else the
    /// camera original (camera metadata, no variant mark), a pair before a single, then path order.
    struct Groups {
        var keeper: [String: String] = [:]
        var keeperReason: [String: String] = [:]
        /// The items in conflict per identifier (keys).
        var members: [String: [String]] = [:]

        func key(_ item: CheckItem) -> String { item.files.map(\.path).joined(separator: " + ") }

        init(_ report: CheckReport) {
            var grouped: [String: [CheckItem]] = [:]
            for item in report.items {
                guard let identifier = item.contentIdentifier, item.kind != .duplicate, item.kind != .variant else { continue }
                if item.identifierConflict || item.sharingCount > 0 { grouped[identifier, default: []].append(item) }
            }
            for (identifier, items) in grouped where items.contains(where: \.identifierConflict) {
                self.members[identifier] = items.filter(\.identifierConflict).map { key($0) }
                if let working = items.first(where: { $0.kind == .pair && !$0.identifierConflict }) {
                    keeper[identifier] = key(working)
                    keeperReason[identifier] = "a pair that works"
                    continue
                }
                let ranked = items.sorted { rank($0) < rank($1) }
                if let best = ranked.first {
                    keeper[identifier] = key(best)
                    keeperReason[identifier] = best.still?.hasCameraMetadata == true ? "the camera original" : "first of the group"
                }
            }
        }

        func rank(_ item: CheckItem) -> (Int, Int, Int, String) {
            let still = item.still
            return (still?.hasCameraMetadata == true ? 0 : 1, (still ?? item.movie)?.nameKey.marks.count ?? 0, item.kind == .pair ? 0 : 1, item.primary?.path ?? "")
        }
    }
}
