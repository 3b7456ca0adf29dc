import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// What `lpcheck strip` may do beyond the still.
public struct StripOptions: Sendable {
    /// A Live Photo's movie written too, as an ordinary movie (its samples copied, the Live
    /// Photo keys and the still-image-time track left out).
    public var keepMovie = false
    public var force = false
    /// Accept the losses a plan names, and writing from damaged input (`RepairOptions`).
    public var allowLoss = false, allowDamaged = false
    /// Refuse a write after which an input's Content Credentials no longer bind.
    public var keepCredentials = false
    public init() {}
}

/// Plans `strip`: a motion photo or a Live Photo made a plain photo without re-encoding, one
/// item plan each, written by `PlanWriter` as every writer's plans are. The inputs are never
/// written: the outputs go to a folder of their own.
public enum Stripper {
    /// Whether `strip` acts on `item`: a motion photo, a Live Photo pair, a Live Photo still
    /// whose movie is absent.
    public static func strips(_ item: CheckItem) -> Bool {
        switch item.kind {
        case .motionPhoto, .pair, .stillOnly: return item.still != nil
        default: return false
        }
    }

    /// The still's output name: the input's, a motion photo's `.MP` mark dropped (Pixel's
    /// `PXL_….MP.jpg` becomes `PXL_….jpg`).
    static func stillName(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        guard base.uppercased().hasSuffix(".MP") else { return name }
        return String(base.dropLast(3)) + (ext.isEmpty ? "" : "." + ext)
    }

    public static func plan(_ item: CheckItem, options: StripOptions, folder: String) -> ItemPlan {
        var plan = ItemPlan(item: item)
        plan.verification = .outputsAlone
        do {
            if let archived = item.files.first(where: { $0.archive != nil }), let archive = archived.archive {
                throw RepairProblem("\(archived.path) is a member of the archive \(archive): strip reads no archive; unpack it first (lpcheck convert \(archive) --to live-photo -o DIR)")
            }
            guard let facts = item.still else { throw RepairProblem("the item has no still") }
            let file = MediaFile.inspect(path: facts.path, options: .check)
            guard let still = file.still, file.error == nil else { throw RepairProblem("\(facts.path): \(file.error?.description ?? "not a still")") }
            let source = try FileSource(path: facts.path)
            let stillPatch: FilePatch
            if item.kind == .motionPhoto {
                guard still.motionPhoto?.movieRange != nil else { throw RepairProblem("\(facts.path): the XMP marks a motion photo but no movie was found in the file") }
                stillPatch = try MotionPhotoWriter.plainStill(still, source: source)
                plan.reasons.append("the still: the motion photo's bytes up to its movie, the XMP's motion-photo fields removed; the image's bytes copied")
            } else {
                stillPatch = try StillRewriter.removingPairingKey(still, source: source)
                plan.reasons.append("the still: its bytes copied, the pairing key (MakerApple 0x0011) removed")
            }
            var stillFile = FilePlan(path: facts.path, destination: (folder as NSString).appendingPathComponent(stillName(facts.path)), patch: stillPatch)
            stillFile.readBack = .plainStill
            stillFile.newOutput = true
            stillFile.recordLedger([LedgerInput(path: facts.path)])
            plan.files = [stillFile]
            plan.losses = stillPatch.losses
            if let movie = item.movie {
                if options.keepMovie {
                    let movieSource = try FileSource(path: movie.path)
                    let model = try Movie.read(from: movieSource, options: .check)
                    let made = try LoopMovieWriter.loop(model, source: movieSource, count: 1)
                    var movieFile = FilePlan(path: movie.path, destination: (folder as NSString).appendingPathComponent((movie.path as NSString).lastPathComponent), patch: made.patch)
                    movieFile.readBack = .samples(made, source: movie.path, range: nil)
                    movieFile.newOutput = true
                    movieFile.recordLedger([LedgerInput(path: movie.path)])
                    plan.files.append(movieFile)
                    plan.reasons.append("the movie: an ordinary movie, its samples copied; the Live Photo keys and the still-image-time track left out")
                } else {
                    plan.reasons.append("the movie \(movie.path) is not written (--keep-movie writes it as an ordinary movie)")
                }
            }
            for file in plan.files where PathBytes.exists(file.destination) && !options.force {
                plan.problems.append("\(file.destination) exists (use --force to replace it)")
            }
        } catch let problem as RepairProblem {
            plan.problems.append(problem.description)
        } catch {
            plan.problems.append("\(item.still?.path ?? "the input"): \(error)")
        }
        if !plan.problems.isEmpty { plan.files = [] }
        plan.noteInputDamage(from: Set(item.files.map(\.path)))
        return plan
    }
}
