import LivePhotoFormats

/// A HEIF motion photo declared in an XMP packet the platform readers do not read.
enum MotionPhotoXMPNotPrimary: Rule {
    static let description = RuleDescription(
        identifier: "motion-photo-xmp-not-primary", title: "Motion photo XMP is not the primary image's", severity: .error, category: .motionPhoto,
        confidence: .high, evidence: [.reference("Google libmotionphoto, heif_container_splitter.cc (ChooseXmpItemId)"), .specification("ISO/IEC 23008-12 (cdsc item references)")],
        rationale: "In HEIF, XMP is an item whose cdsc reference says which item it describes. Google's reader takes the first XMP item that describes the primary item, and the first XMP item only when none does (libmotionphoto, heif_container_splitter.cc, ChooseXmpItemId); libheif gives the primary image only an XMP item that describes it. An iPhone HEIC with an HDR gain map has two XMP items, the gain map's own first: GCamera and Container properties written there (or into any item that describes another image) are found by ExifTool, which reads every packet, but not by Google Photos or libheif.",
        fix: "Write the properties into the XMP item whose cdsc names the primary, or add such an item (cdsc to the primary, and to a tmap item where there is one). `lpcheck convert --to motion-photo` writes them there.")

    static func check(_ item: CheckItem, context: RuleContext) -> [Finding] {
        guard let still = item.still, let motion = still.motionPhoto, let roles = motion.xmpItems,
              let declaring = roles.first(where: \.declaresMotionPhoto) else { return [] }
        let libheif = XMPItemRole.primaryChoice(roles, primary: motion.primaryItem)
        if libheif?.declaresMotionPhoto == true { return [] }
        let primary = motion.primaryItem.map { "the primary item \($0)" } ?? "the primary item (no pitm)"
        let google = XMPItemRole.googleChoice(roles, primary: motion.primaryItem)
        var message = "The motion photo is declared in XMP item \(declaring.item) (\(describing(declaring))), not in an XMP item that describes \(primary). "
        if let libheif {
            message += "Google's reader and libheif read XMP item \(libheif.item) (\(describing(libheif))), which declares no motion photo."
        } else if let google, google.item == declaring.item {
            message += "No XMP item describes it: Google's reader falls back to the first XMP item, \(google.item), and finds the motion photo there, but libheif gives the primary image no XMP."
        } else {
            message += "No XMP item describes it: Google's reader falls back to the first XMP item, \(google.map { String($0.item) } ?? "none"), which declares no motion photo, and libheif gives the primary image no XMP."
        }
        return [finding(message, still)]
    }

    /// "describes item 63", "describes items 46, 66", "describes no item".
    static func describing(_ role: XMPItemRole) -> String {
        switch role.describes.count {
        case 0: return "describes no item"
        case 1: return "describes item \(role.describes[0])"
        default: return "describes items " + role.describes.map(String.init).joined(separator: ", ")
        }
    }

    static let examples: [RuleExample] = [
        .triggers("motion XMP on the gain map's item", Example.heicMotionPhotoItem(declaring: [64])),
        .triggers("no item describes the primary; the first holds it", Example.heicMotionPhotoItem(declaring: [64], items: [(64, [63])])),
        .passes("motion XMP on the primary's item", Example.heicMotionPhotoItem(declaring: [68])),
        .passes("JPEG", Example.motionPhotoItem()),
    ]
}
