import Foundation
import LivePhotoFormats

/// Facts kept from earlier runs (`--cache`): a file whose stamp is unchanged is not read again.
/// EXIF thumbnails (for the cards an HTML report shows) are kept apart from the facts, for the
/// stamp they were read at. Called from several threads at once.
public protocol FactsStore: AnyObject, Sendable {
    /// Called once before the first `facts(for:stamp:)`, on one thread (a store may load then).
    func load()
    func facts(for path: String, stamp: FileStamp) -> FileFacts?
    func remember(_ facts: FileFacts, stamp: FileStamp)
    /// The file's EXIF thumbnail: nil when not known, `.some(nil)` when known to have none.
    func thumbnail(for path: String, stamp: FileStamp) -> [UInt8]??
    func remember(thumbnail: [UInt8]?, for path: String, stamp: FileStamp)
}
