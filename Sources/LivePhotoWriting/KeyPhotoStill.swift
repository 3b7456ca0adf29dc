import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// `lpcheck keyphoto`: the old still of a pair, whose Exif and MakerNote the new key photo
/// carries (`ExifEditor.keyPhotoTIFF`: orientation and size made the new picture's, the old
/// thumbnail unlinked). Its identifier must be the movie's: the two are one Live Photo.
public struct KeyPhotoStill: Sendable {
    public let path: String
    /// The old still's TIFF; nil when it has no Exif (the new still's is then made from the
    /// movie's capture facts, as make's).
    let exif: [UInt8]?
    /// The old picture's stored size.
    let size: PixelSize?
    /// The new pair replaces the old one where it is (keyphoto without --output), with backups or not.
    var inPlace = false, backup = true

    init(_ path: String, movieIdentifier: String?, movie: String) throws {
        self.path = path
        let file = MediaFile.inspect(path: path, options: .full)
        guard let still = file.still, file.error == nil else { throw RepairProblem("\(path) is not a readable still: \(file.error?.description ?? file.format.rawValue)") }
        guard let identifier = still.contentIdentifier, let movieIdentifier, identifier.uppercased() == movieIdentifier.uppercased() else {
            throw RepairProblem("\(path) and \(movie) are not one Live Photo: the still's content identifier is \(still.contentIdentifier ?? "none"), the movie's \(movieIdentifier ?? "none") (with its still-image-time)")
        }
        exif = try StillRewriter.exifTIFF(still, source: try FileSource(path: path))
        size = still.jpeg?.frameSize ?? still.heif?.primaryImage?.size
    }

    /// The new still's TIFF: the old one made true of the new picture, or make's own.
    func tiff(for tags: NewStillTags, identifier: String) throws -> (tiff: [UInt8], note: String) {
        guard let exif else {
            return (ExifEditor.newTIFF(tags, identifier: identifier), "Exif with the movie's capture facts and MakerApple 0x0011 (the old still has no Exif)")
        }
        let carried = try ExifEditor.keyPhotoTIFF(exif, width: tags.pixelWidth ?? 0, height: tags.pixelHeight ?? 0, orientation: tags.orientation ?? 1)
        return (carried.tiff, carried.note)
    }

    /// The plan's first reason: what is kept, what moves, what the new picture is.
    func reason(identifier: String, from old: Double, to new: Double, size new2: (width: Int, height: Int)) -> String {
        let sizes = "\(new2.width)×\(new2.height), the movie's frame" + (size.map { " (the old still: \($0.width)×\($0.height))" } ?? "")
        let place = !inPlace
            ? "what else the old file holds, listed as dropped below, stays with it; the new pair takes the old one's place: kept beside it in one library, the two would share the identifier"
            : backup ? "the new pair replaces the old one in place: what else the old still holds, listed as dropped below, is kept only in its backup (.lpcheck-backup/ beside it)"
            : "the new pair replaces the old one in place, without a backup: what else the old still holds, listed as dropped below, is gone"
        return "a new key photo for \(path): the content identifier \(identifier) is kept in both files; the still moment moves from \(SecondsText.format(old)) s to \(SecondsText.format(new)) s; the new still is \(sizes); its Exif and MakerNote are the old still's; \(place)"
    }
}
