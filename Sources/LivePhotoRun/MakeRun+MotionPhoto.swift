import Foundation
import LivePhotoFormats
import LivePhotoWriting

/// `lpcheck keyphoto MOTION_PHOTO`: a motion photo's new key photo, planned by
/// `MotionPhotoKeyPhoto`, into OUTPUT/<its name> or (with --force) in place.
extension MakeRun {
    func runMotionPhotoKeyPhoto(_ input: String) throws {
        try RunSettings.refuseObjects([input], command: "keyphoto", io: io)
        let file = MediaFile.inspect(path: input, options: .check)
        guard MotionPhotoKeyPhoto.isMotionPhoto(file) else {
            io.error("lpcheck: \(input.terminalSafe) is not a motion photo whose movie lpcheck finds\(file.error.map { " (\($0.description.terminalSafe))" } ?? ""); a Live Photo takes its still and its movie: keyphoto STILL MOVIE")
            throw RunFailure(status: 2)
        }
        let destination = inPlace ? input : output + "/" + (input as NSString).lastPathComponent
        if !inPlace { try refuseOutputs([destination], inputs: [input]) }
        var request = MotionPhotoKeyPhoto.Request(input: input, destination: destination, settings: clip, options: options)
        request.inPlace = inPlace
        if let percent, let last = file.still?.embeddedMovie?.videoFrames().last {
            request.options.time = (last.start + last.duration) * percent / 100
        }
        if dryRun && !inPlace && !PathBytes.exists(output) {
            request.staging = NSTemporaryDirectory() + "/" + (input as NSString).lastPathComponent
        } else if !dryRun && !inPlace {
            try OutputFolder.make(output, io: io)
        }
        var plan: ItemPlan
        do {
            plan = try MotionPhotoKeyPhoto.plan(request)
        } catch let failure as MakePlanner.ClipFailure {
            io.error("lpcheck: \(failure.description.terminalSafe)")
            throw RunFailure(status: failure.status)
        }
        say(PlanText.describe(plan, force: force, size: PlanText.newBytesFirst, inputKeepsLosses: true, allowLoss: options.allowLoss, allowDamaged: options.allowDamaged))
        plan.losses = []
        if dryRun {
            record.withLock { $0.append(plan) }
            say("(dry run: nothing written)")
            return
        }
        var applying = options
        (applying.backup, applying.force) = (inPlace && options.backup, force)
        let outcome = apply(plan, options: applying)
        if let failure = outcome.failure {
            io.error("lpcheck: nothing written: \(failure.terminalSafe)")
            throw RunFailure(status: 1)
        }
    }
}
