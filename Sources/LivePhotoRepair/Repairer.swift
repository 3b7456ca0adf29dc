import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// Which identifier wins when still and movie disagree.
public enum IdentifierPreference: String, Sendable, CaseIterable {
    case still, movie, new
}

public struct RepairOptions: Sendable {
    public var prefer: IdentifierPreference = .still
    /// Where to place the still (seconds in movie time), or which video frame (0-based).
    public var time: Double?
    public var frame: Int?
    public var backup = true
    /// The identifier to use instead of a new one (`make --identifier`).
    public var identifier: String?

    public init() {}
}

/// What will be written to one file, and what must hold when it is read back.
public struct FilePlan: Sendable {
    public var path: String
    public var destination: String
    public var patch: FilePatch
    public var identity: SafeFileWriter.Identity?
    /// Expected after writing.
    public var identifier: String?
    public var stillImageTime: StillImagePlacement?
    public var quickTimeBrand = false
}

/// The repair of one item: the files to write, the findings it fixes and those it leaves.
public struct ItemPlan: Sendable {
    public var item: CheckItem
    public var files: [FilePlan] = []
    public var fixes: [Finding] = []
    public var leaves: [Finding] = []
    /// Why a fixable finding cannot be fixed here.
    public var problems: [String] = []
}

public struct ItemOutcome: Sendable {
    public var plan: ItemPlan
    public var written: [SafeFileWriter.Written] = []
    public var failure: String?
}

/// Plans and applies repairs through LivePhotoFormats' writers, with safe replacement.
public enum Repairer {
    static let identifierRules: Set<String> = ["still-missing-identifier", "movie-missing-identifier", "identifier-mismatch", "identifier-not-uuid",
                                               "identifier-not-canonical", "identifier-shared", "metadata-handler-not-mdta",
                                               "identifier-in-user-data"]
    static let trackRules: Set<String> = ["still-image-time-missing", "still-image-time-no-sample", "still-image-time-data-type", "still-image-time-value",
                                          "still-image-time-outside-movie", "still-image-time-not-on-frame", "still-image-time-duration", "missing-cdsc-reference"]
    static let brandRules: Set<String> = ["movie-not-quicktime"]

    /// Plans every item of a check report that has a finding repair fixes.
    public static func plan(_ report: CheckReport, options: RepairOptions) -> [ItemPlan] {
        report.items.compactMap { item in
            let fixable = item.findings.filter { identifierRules.union(trackRules).union(brandRules).contains($0.rule) }
            guard !fixable.isEmpty else { return nil }
            return plan(item, options: options)
        }
    }

    public static func plan(_ item: CheckItem, options: RepairOptions, destinations: [String: String] = [:]) -> ItemPlan {
        var plan = ItemPlan(item: item)
        let rules = Set(item.findings.map(\.rule))
        var identifier: String?
        if !rules.isDisjoint(with: identifierRules) || options.identifier != nil {
            identifier = chooseIdentifier(item, options: options)
        }
        var placement: StillImagePlacement?
        var brand = false
        if let movie = item.movie?.movie {
            if !rules.isDisjoint(with: trackRules) || destinations[item.movie?.path ?? ""] != nil && movie.stillImageTime == nil {
                do {
                    placement = StillImagePlacement(seconds: try moment(movie, options: options))
                } catch {
                    plan.problems.append("\(error)")
                }
            }
            brand = rules.contains("movie-not-quicktime") || (destinations[item.movie?.path ?? ""] != nil && !movie.isQuickTime)
        }
        for finding in item.findings {
            let fixed = identifierRules.contains(finding.rule) && identifier != nil
                || trackRules.contains(finding.rule) && placement != nil
                || brandRules.contains(finding.rule) && brand
            if fixed { plan.fixes.append(finding) } else { plan.leaves.append(finding) }
        }
        do {
            if let still = item.still, let identifier, still.contentIdentifier != identifier || destinations[still.path] != nil {
                let file = MediaFile.inspect(path: still.path, options: .check)
                guard let model = file.still, file.error == nil else { throw RepairProblem("\(still.path): \(file.error?.description ?? "not a still")") }
                let source = try FileSource(path: still.path)
                let identity = try SafeFileWriter.Identity.of(still.path)
                let patch = try StillRewriter.settingContentIdentifier(model, source: source, identifier: identifier)
                plan.files.append(FilePlan(path: still.path, destination: destinations[still.path] ?? still.path, patch: patch, identity: identity, identifier: identifier))
            } else if let still = item.still, let destination = destinations[still.path] {
                plan.files.append(FilePlan(path: still.path, destination: destination, patch: try copyPatch(still.path), identity: nil, identifier: identifier))
            }
            if let movie = item.movie {
                var edits = MovieEdits()
                let rewriteMeta = rules.contains("metadata-handler-not-mdta") || rules.contains("identifier-in-user-data") || destinations[movie.path] != nil
                if let identifier, movie.contentIdentifier != identifier || rewriteMeta {
                    edits.contentIdentifier = identifier
                }
                edits.stillImageTime = placement
                edits.quickTimeBrand = brand
                if !edits.isEmpty {
                    let file = MediaFile.inspect(path: movie.path, options: .check)
                    guard let model = file.movie, file.error == nil else { throw RepairProblem("\(movie.path): \(file.error?.description ?? "not a movie")") }
                    let source = try FileSource(path: movie.path)
                    let identity = try SafeFileWriter.Identity.of(movie.path)
                    let patch = try MovieRewriter.rewrite(model, source: source, edits: edits)
                    plan.files.append(FilePlan(path: movie.path, destination: destinations[movie.path] ?? movie.path, patch: patch, identity: identity,
                                               identifier: edits.contentIdentifier ?? movie.contentIdentifier, stillImageTime: placement, quickTimeBrand: brand))
                } else if let destination = destinations[movie.path] {
                    plan.files.append(FilePlan(path: movie.path, destination: destination, patch: try copyPatch(movie.path), identity: nil, identifier: identifier))
                }
            }
        } catch {
            plan.problems.append("\(error)")
            plan.files = []
            plan.leaves += plan.fixes
            plan.fixes = []
        }
        return plan
    }

    static func copyPatch(_ path: String) throws -> FilePatch {
        FilePatch(pieces: [.copy(0..<(try SafeFileWriter.Identity.of(path)).size)], notes: ["copied unchanged"])
    }

    /// The identifier both files should carry.
    static func chooseIdentifier(_ item: CheckItem, options: RepairOptions) -> String {
        if let given = options.identifier { return given }
        func usable(_ text: String?) -> String? {
            guard let text, isUUID(text) else { return nil }
            return text.uppercased()
        }
        // A shared identifier stays with the first file that carries it; the others get new ones.
        let own = item.files.map(\.path).min() ?? ""
        let keepsShared = item.sharingCount == 0 || item.sharingIdentifier.allSatisfy { $0 > own }
        let still = keepsShared ? usable(item.still?.contentIdentifier) : nil
        let movie = keepsShared ? usable(item.movie?.contentIdentifier) : nil
        switch options.prefer {
        case .still: return still ?? movie ?? newIdentifier()
        case .movie: return movie ?? still ?? newIdentifier()
        case .new: return newIdentifier()
        }
    }

    public static func newIdentifier() -> String { UUID().uuidString.uppercased() }

    static func isUUID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// The still moment: --time, else --frame, else the current one when it is valid, else the middle frame.
    static func moment(_ movie: MovieFacts, options: RepairOptions) throws -> Double {
        let duration = movie.durationSeconds ?? movie.frames.map(\.end).max() ?? 0
        if let time = options.time {
            guard time >= 0, time <= duration else { throw RepairProblem("--time \(time) is outside the movie (0–\(duration) s)") }
            return time
        }
        var starts: [Double] = []
        for run in movie.frames where starts.count < 100_000 {
            for index in 0..<run.count { starts.append(run.start + Double(index) * run.duration) }
        }
        starts = starts.filter { $0 < duration || duration == 0 }
        if let frame = options.frame {
            guard starts.indices.contains(frame) else { throw RepairProblem("--frame \(frame): the movie has \(starts.count) frames") }
            return starts[frame]
        }
        if let current = movie.stillImageTime?.seconds, current >= 0, current <= duration,
           movie.frames.contains(where: { current >= $0.start && current < $0.end }) {
            return current
        }
        guard !starts.isEmpty else { throw RepairProblem("the movie has no video frames to place the still on") }
        return starts[starts.count / 2]
    }

    /// Writes the plan's files to temporary files, reads them back and re-checks them, then renames
    /// them all into place. A failure before the renames leaves every original untouched.
    public static func apply(_ plan: ItemPlan, options: RepairOptions) -> ItemOutcome {
        var outcome = ItemOutcome(plan: plan)
        guard plan.problems.isEmpty else {
            outcome.failure = plan.problems.joined(separator: "; ")
            return outcome
        }
        var staged: [(FilePlan, SafeFileWriter.Staged)] = []
        do {
            for file in plan.files {
                staged.append((file, try SafeFileWriter.stage(file.patch, original: file.path, destination: file.destination, identity: file.identity)))
            }
            try verify(staged, item: plan.item)
            FaultInjection.step("verified")
            for (_, file) in staged {
                outcome.written.append(try SafeFileWriter.commit(file, backup: options.backup && file.destination == file.original))
            }
        } catch {
            for (_, file) in staged where !outcome.written.contains(where: { $0.path == file.destination }) { SafeFileWriter.discard(file) }
            outcome.failure = "\(error)"
        }
        return outcome
    }

    /// Reads the temporary files back: identifiers, still-image-time and the rules must hold.
    static func verify(_ staged: [(FilePlan, SafeFileWriter.Staged)], item: CheckItem) throws {
        var still = item.still
        var movie = item.movie
        for (plan, file) in staged {
            let read = MediaFile.inspect(path: file.temporary, options: .check)
            if let error = read.error { throw RepairProblem("the written \(plan.destination) does not read back: \(error)") }
            if let identifier = plan.identifier, read.contentIdentifier != identifier {
                throw RepairProblem("the written \(plan.destination) carries \(read.contentIdentifier ?? "no identifier"), not \(identifier)")
            }
            if let placement = plan.stillImageTime {
                guard let time = read.movie?.stillImageTime, time.value == Int64(placement.value), let seconds = time.seconds,
                      abs(seconds - placement.seconds) <= 1.0 / Double(max(1, time.mediaTimescale)) + 1e-9 else {
                    throw RepairProblem("the written \(plan.destination) has no still-image-time at \(placement.seconds) s")
                }
            }
            var facts = FileFacts(read)
            facts.path = plan.path
            if facts.isStill { still = facts } else { movie = facts }
        }
        var rechecked = item
        rechecked.still = still
        rechecked.movie = movie
        rechecked.kind = still != nil && movie != nil ? .pair : item.kind
        let fixable = identifierRules.union(trackRules).union(brandRules)
        let remaining = RuleRegistry.all.filter { fixable.contains($0.description.identifier) }
            .flatMap { $0.check(rechecked, context: RuleContext()) }
            .filter { $0.rule != "identifier-shared" }
        if let first = remaining.first {
            throw RepairProblem("after writing, \(first.rule) still holds: \(first.message)")
        }
    }
}

public struct RepairProblem: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
