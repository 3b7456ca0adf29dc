import LivePhotoFormats

/// A Motion Photo 1.0 directory that Google's checker rejects on its own terms.
enum MotionPhotoDirectoryInvalid: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-directory-invalid", title: "Motion photo directory is malformed", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.checker(Evidence.checker + " (CheckContainerMetadata)"), .specification(Evidence.motionPhotoFormat)],
        rationale: "Google's motion-photo checker (libmotionphoto, motion_photo_checker.cc, CheckContainerMetadata) requires a Container:Directory of exactly 2 items, or 3 when one has Item:Semantic GainMap, in the order Primary, GainMap, MotionPhoto (semantics compared without case); Item:Mime image/jpeg, image/heic or image/avif for the images and video/mp4 for the movie; the primary's Item:Length absent or 0; the other items' Item:Length present and not negative; no negative Item:Padding; Container:Version, when given, 1. That is the checker's letter: Google's reader takes a JPEG's movie from the Item:Length of the item whose Item:Semantic is MotionPhoto and reads no directory in a HEIF file, so this rule decides the google-photos verdict at medium confidence. Samsung's HEIF layout is motion-photo-samsung-layout's.",
        fix: "Rewrite the directory as Motion Photo 1.0 lays it out (`lpcheck convert` writes one from a Live Photo).")

    static let imageMimes = ["image/jpeg", "image/heic", "image/avif"]

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        // Samsung's layout is motion-photo-samsung-layout's.
        guard let still = item.still, let motion = still.motionPhoto, motion.source != .microVideo, motion.cameraMotionPhoto != nil,
              MotionPhotoSamsungLayout.recognized(still) == nil else { return [] }
        let problems = self.problems(motion)
        guard !problems.isEmpty else { return [] }
        let reader = still.format.isHEIFFamily && motion.mpvd != nil && motion.movieRange != nil
            ? " Google's reader does not read the directory in a HEIF file: it takes the movie from the mpvd box." : ""
        return [finding("Google's checker (CheckContainerMetadata) rejects the Container:Directory: " + problems.joined(separator: "; ") + "." + reader, still)]
    }

    static func problems(_ motion: MotionPhoto) -> [String] {
        let items = motion.directory
        var problems: [String] = []
        if let version = motion.containerVersion, version != "1" { problems.append("Container:Version is '\(version)', not 1") }
        let gainMap = items.contains { $0.semantic?.lowercased() == "gainmap" }
        let expected = gainMap ? ["Primary", "GainMap", "MotionPhoto"] : ["Primary", "MotionPhoto"]
        if items.count != expected.count {
            problems.append("it has \(items.count) item\(items.count == 1 ? "" : "s"); exactly \(expected.count) must be (\(expected.joined(separator: ", ")))")
        }
        for (index, entry) in items.prefix(expected.count).enumerated() {
            let name = "item \(index + 1)"
            if let semantic = entry.semantic {
                if semantic.lowercased() != expected[index].lowercased() { problems.append("\(name)'s Item:Semantic is '\(semantic)', not \(expected[index])") }
            } else {
                problems.append("\(name) has no Item:Semantic (\(expected[index]) expected)")
            }
            let mimes = index == expected.count - 1 ? ["video/mp4"] : imageMimes
            if let mime = entry.mime {
                if !mimes.contains(mime.lowercased()) { problems.append("\(name)'s Item:Mime is '\(mime)', not \(mimes.joined(separator: " or "))") }
            } else {
                problems.append("\(name) has no Item:Mime")
            }
            if index == 0 {
                if let length = entry.length, length != 0 { problems.append("the primary's Item:Length is \(length), not 0") }
            } else if let length = entry.length {
                if length < 0 { problems.append("\(name)'s Item:Length is \(length), negative") }
            } else {
                problems.append("\(name) has no Item:Length")
            }
            if let padding = entry.padding, padding < 0 { problems.append("\(name)'s Item:Padding is \(padding), negative") }
        }
        return problems
    }

    static let examples: [RuleExample] = [
        .triggers("three items in the wrong order", Example.motionPhotoItem { motion in
            motion.cameraMotionPhoto = "1"
            motion.directory = [motion.directory[0], motion.directory[1], XMPPacket.DirectoryItem(fields: ["Mime": "image/jpeg", "Semantic": "GainMap", "Length": "100"])]
        }),
        .triggers("movie item without a length", Example.motionPhotoItem { motion in
            motion.cameraMotionPhoto = "1"
            motion.directory[1].fields["Length"] = nil
        }),
        .triggers("no directory (MicroVideoOffset only)", Example.motionPhotoItem { motion in
            (motion.cameraMotionPhoto, motion.directory) = ("1", [])
        }),
        .passes("Pixel directory", Example.motionPhotoItem { $0.cameraMotionPhoto = "1" }),
    ]
}
