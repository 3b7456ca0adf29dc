/// Conversions between an Android motion photo (one file: a still with its movie appended, Motion
/// Photo format 1.0) and a Live Photo (a still and a QuickTime movie), as patches: image and
/// media bytes are only ever copied, never decoded or re-encoded.
public enum MotionPhotoWriter {
    static let xmpHeader = JPEGStructure.xmpHeader

    // MARK: Motion photo → Live Photo

    /// The Live Photo's still: the motion photo's own bytes up to its movie, the identifier in an
    /// Apple MakerNote, the motion-photo XMP fields (and the directory's movie item) removed.
    public static func livePhotoStill(_ still: Still, source: ByteSource, identifier: String) throws -> FilePatch {
        try stillWithoutMovie(still, source: source, identifier: identifier)
    }

    /// The still up to its movie, the XMP's motion-photo fields removed; `identifier` written in
    /// an Apple MakerNote, or (nil) a pairing key the still holds removed, the same size.
    static func stillWithoutMovie(_ still: Still, source: ByteSource, identifier: String?) throws -> FilePatch {
        guard let motion = still.motionPhoto, let movie = motion.movieRange else {
            throw WriteError(.missingStructure, "no embedded movie was found in this motion photo")
        }
        var patch: FilePatch
        var losses = trailerLosses(motion, movie: movie, source: source)
        if identifier != nil, let range = still.tiff?.makerNoteRange, still.makerNote == nil {
            losses.append("the vendor MakerNote (\(range.count) bytes) is replaced by an Apple MakerNote: Exif holds one MakerNote and Photos reads the identifier there")
        }
        switch still.format {
        case .jpeg:
            guard let jpeg = still.jpeg else { throw WriteError(.missingStructure, "no JPEG structure") }
            let cut = min(movie.lowerBound, motion.samsungTrailer?.lowerBound ?? movie.lowerBound)
            var replacements: [(range: Range<Int64>, bytes: [UInt8])] = []
            var notes: [String] = []
            if let identifier {
                let exif = try StillRewriter.jpegExif(still, identifier: identifier)
                (replacements, notes) = ([(exif.range, exif.bytes)], [exif.note])
            } else if let removal = try StillRewriter.removingContentIdentifier(still, source: source) {
                (replacements, notes) = ([(removal.offset..<(removal.offset + Int64(removal.bytes.count)), removal.bytes)], [removal.note])
            }
            if let segment = jpeg.segments.first(where: { $0.label == "XMP" }), let xmp = jpeg.xmp {
                let edited = try XMPEditor.removingMotionPhoto(xmp.bytes, path: "APP1 XMP")
                replacements.append((segment.offset..<(segment.payloadOffset + Int64(segment.length)), try xmpSegment(edited.bytes)))
                notes.append("XMP: removed \(edited.removed.joined(separator: ", "))")
            }
            guard replacements.allSatisfy({ $0.range.upperBound <= cut }) else {
                throw WriteError(.inconsistentInput, "the movie at byte \(movie.lowerBound) starts inside the still's metadata segments")
            }
            patch = FilePatch.replacingRanges(replacements, end: cut)
            notes.append("the still: bytes 0..<\(cut) (the image's bytes copied as they are); the movie (\(movie.count) bytes at \(movie.lowerBound)) is not part of it")
            patch.notes = notes
        case .heic, .heif:
            guard let heif = still.heif, let mpvd = motion.mpvd, mpvd.lowerBound <= movie.lowerBound, movie.upperBound <= mpvd.upperBound else {
                throw WriteError(.unsupportedLayout, "a HEIC motion photo converts when its movie is in a top-level mpvd box; this one's is not")
            }
            for item in heif.items where item.constructionMethod == 0 {
                for extent in item.extents {
                    let (end, overflow) = item.baseOffset.addingReportingOverflow(extent.offset &+ extent.length)
                    guard !overflow, end <= UInt64(mpvd.lowerBound) else {
                        throw WriteError(.unsupportedLayout, "item \(item.id) has data after the mpvd box at \(mpvd.lowerBound); cutting the movie out would move it")
                    }
                }
            }
            let window = WindowSource(source, range: 0..<mpvd.lowerBound)
            if let identifier {
                patch = try StillRewriter.heif(still, source: window, identifier: identifier)
            } else {
                patch = FilePatch.withReplacements([], size: window.size)
                if let removal = try StillRewriter.removingContentIdentifier(still, source: window) {
                    patch = try patch.overlaying(removal.bytes, at: removal.offset)
                    patch.notes.append(removal.note)
                }
            }
            // The packet that declares the motion photo, wherever a writer put it.
            let declaring = motion.xmpItems?.first(where: \.declaresMotionPhoto).flatMap { role in heif.items.first { $0.id == role.item } }
            if let item = declaring ?? heif.xmpItem,
               item.constructionMethod == 0, item.extents.count == 1 {
                let (bytes, offset) = try heif.data(of: item, from: window)
                let edited = try XMPEditor.removingMotionPhoto(bytes, path: "XMP item")
                guard let padded = XMPEditor.padded(edited.bytes, to: bytes.count) else {
                    throw WriteError(.fieldOverflow, "the XMP item would grow when the motion-photo fields are removed")
                }
                patch = try patch.overlaying(padded, at: offset)
                patch.notes.append("XMP item \(item.id): removed \(edited.removed.joined(separator: ", ")) (same size, padded)")
            }
            patch.notes.append("the still: bytes 0..<\(mpvd.lowerBound); the mpvd box (\(mpvd.count) bytes) is not part of it")
        default:
            throw WriteError(.unsupportedLayout, "converting a \(still.format.rawValue) motion photo is not supported (JPEG and HEIC are)")
        }
        patch.losses = losses
        return patch
    }

    /// What lies after the movie and is not kept: Samsung trailer records other than the movie, other bytes.
    static func trailerLosses(_ motion: MotionPhoto, movie: Range<Int64>, source: ByteSource) -> [String] {
        if motion.samsungTrailer != nil, let trailer = SamsungTrailer.read(from: source) {
            let others = trailer.records.filter { $0.name != SamsungTrailer.motionPhotoData && !$0.data.isEmpty }.map(\.name)
            return others.isEmpty ? [] : ["the Samsung trailer's records \(others.joined(separator: ", ")) (Samsung Gallery data) are not kept"]
        }
        let after = (motion.mpvd?.upperBound ?? movie.upperBound)
        return after < source.size ? ["\(source.size - after) bytes after the movie (no known structure) are not kept"] : []
    }

    /// The Live Photo's movie: the embedded movie's bytes, the QuickTime brand, the identifier in
    /// `moov/meta` and a still-image-time track at `placement`.
    public static func livePhotoMovie(_ still: Still, source: ByteSource, identifier: String, placement: StillImagePlacement) throws -> FilePatch {
        guard let range = still.motionPhoto?.movieRange else { throw WriteError(.missingStructure, "no embedded movie was found in this motion photo") }
        let window = WindowSource(source, range: range)
        let movie = try still.embeddedMovie ?? Movie.read(from: window, options: .check)
        let patch = try MovieRewriter.rewrite(movie, source: window, edits: MovieEdits(contentIdentifier: identifier, stillImageTime: placement, quickTimeBrand: true))
        return patch.shifted(by: range.lowerBound)
    }

    // MARK: Live Photo → motion photo

    /// A Motion Photo 1.0 JPEG: the still's bytes with the motion-photo XMP (directory of the
    /// primary image and the movie), then the movie as a self-contained MP4, last.
    /// `sound`: the movie's PCM track encoded to AAC, written in its place (`ISOMovieWriter`).
    public static func motionPhotoJPEG(_ still: Still, source: ByteSource, movie: Movie, movieSource: ByteSource, moviePath: String, timestampUs: Int64,
                                       sound: (track: UInt32, encoded: EncodedSound)? = nil) throws -> FilePatch {
        try motionPhotoJPEG(still, source: source, video: try ISOMovieWriter.mp4(movie, source: movieSource, sound: sound), from: moviePath, timestampUs: timestampUs)
    }

    /// A Motion Photo 1.0 JPEG around `video`: an MP4's pieces, copied from `moviePath`
    /// (a motion photo's own movie, as it is, for keyphoto).
    public static func motionPhotoJPEG(_ still: Still, source: ByteSource, video: FilePatch, from moviePath: String, timestampUs: Int64) throws -> FilePatch {
        guard let jpeg = still.jpeg else { throw WriteError(.missingStructure, "no JPEG structure") }
        let fields = XMPEditor.MotionFields(primaryMime: "image/jpeg", primaryPadding: 0, movieLength: video.outputSize, presentationTimestampUs: timestampUs)
        let segment = jpeg.segments.first { $0.label == "XMP" }
        let packet = try XMPEditor.settingMotionPhoto(jpeg.xmp?.bytes, fields: fields, path: "APP1 XMP")
        let range: Range<Int64>
        if let segment {
            range = segment.offset..<(segment.payloadOffset + Int64(segment.length))
        } else {
            let exif = jpeg.segments.first { $0.label == "Exif" }
            let at = exif.map { $0.payloadOffset + Int64($0.length) } ?? StillRewriter.jpegInsertionPoint(jpeg)
            range = at..<at
        }
        // MPF offsets count from the MPF segment: nothing before it may change size.
        if let mpf = jpeg.segments.first(where: { $0.label == "MPF" }), mpf.offset < range.lowerBound {
            throw WriteError(.unsupportedLayout, "the XMP segment comes after the MPF segment at \(mpf.offset); resizing it would break the MPF image offsets")
        }
        var patch = FilePatch.replacingRanges([(range, try xmpSegment(packet))], end: source.size)
        patch.notes = ["XMP: GCamera:MotionPhoto 1, version 1, presentation timestamp \(timestampUs) µs, a directory of the primary image and the movie (\(video.outputSize) bytes)"]
        patch.append(video.copying(from: moviePath))
        return patch
    }

    /// A Motion Photo 1.0 HEIC. Nothing already in the file moves: the old `meta` becomes a `free`
    /// box of its size, and after the last byte come the new `meta` (an XMP item added to `iinf`,
    /// `iloc` and `iref`), an `mdat` holding the XMP, and the `mpvd` box holding the MP4, last.
    public static func motionPhotoHEIC(_ still: Still, source: ByteSource, movie: Movie, movieSource: ByteSource, moviePath: String, timestampUs: Int64,
                                       sound: (track: UInt32, encoded: EncodedSound)? = nil) throws -> FilePatch {
        try motionPhotoHEIC(still, source: source, video: try ISOMovieWriter.mp4(movie, source: movieSource, sound: sound), from: moviePath, timestampUs: timestampUs)
    }

    /// A Motion Photo 1.0 HEIC around `video`, copied from `moviePath`.
    public static func motionPhotoHEIC(_ still: Still, source: ByteSource, video: FilePatch, from moviePath: String, timestampUs: Int64) throws -> FilePatch {
        guard let heif = still.heif, let meta = still.boxes.first(where: { $0.type == "meta" }) else { throw WriteError(.missingStructure, "no HEIF meta box") }
        // The properties go where Google's reader and libheif both read them: the XMP item that
        // describes the primary, else a new one. An item that describes another image (an HDR gain
        // map's own XMP) is never written.
        let existing = heif.primaryXMPItem
        guard let primary = heif.primaryItemID, meta.size <= Int64(UInt32.max) else { throw WriteError(.missingStructure, "no primary item (pitm)") }
        // A new item describes the primary and, as Apple's and ExifTool's writers do, the ISO
        // 21496-1 tone-map item (`tmap`) derived from it.
        let described = [primary] + heif.items.filter { $0.type == "tmap" }.map(\.id)
        guard described.allSatisfy({ $0 <= 0xFFFF }) else { throw WriteError(.fieldOverflow, "item IDs \(described) do not fit iref version 0") }
        let mpvdHeader = video.outputSize + 8 <= Int64(UInt32.max) ? 8 : 16
        let fields = XMPEditor.MotionFields(primaryMime: "image/heic", primaryPadding: Int64(mpvdHeader), movieLength: video.outputSize, presentationTimestampUs: timestampUs)
        let packet = try XMPEditor.settingMotionPhoto(try existing.map { try heif.data(of: $0, from: source).bytes }, fields: fields, path: "XMP item")
        let itemID = existing?.id ?? (heif.items.map(\.id).max() ?? 0) + 1
        guard itemID <= 0xFFFF else { throw WriteError(.fieldOverflow, "item ID \(itemID) does not fit 16 bits") }

        var payload = try source.payload(of: meta, path: "meta")
        let versionAndFlags = try payload.read(4)
        var children = try BoxIterator.all(payload).map { (type: $0.box.type, offset: $0.box.offset, bytes: try MovieRewriter.raw($0.box, payload: $0.payload, header: payload)) }
        func replace(_ type: FourCC, _ change: ([UInt8]) throws -> [UInt8]) throws {
            guard let index = children.firstIndex(where: { $0.type == type }) else { throw WriteError(.missingStructure, "no \(type) box in meta") }
            children[index].bytes = try change(children[index].bytes)
        }
        if existing == nil {
            try replace("iinf") { try HEIFItemEditing.addingInfo(to: $0, itemID: UInt16(itemID)) }
            let reference = BoxWriter.box("cdsc", BoxWriter.u16(UInt16(itemID)) + BoxWriter.u16(UInt16(described.count)) + described.flatMap { BoxWriter.u16(UInt16($0)) })
            if children.contains(where: { $0.type == "iref" }) {
                try replace("iref") { try HEIFItemEditing.addingReference(to: $0, reference) }
            } else {
                children.append(("iref", 0, BoxWriter.fullBox("iref", reference)))
            }
        }
        // The XMP's offset is known once the new meta's size is; its field has a fixed width.
        func metaBytes(xmpOffset: UInt64) throws -> [UInt8] {
            var all = children
            guard let index = all.firstIndex(where: { $0.type == "iloc" }) else { throw WriteError(.missingStructure, "no iloc box in meta") }
            if let existing {
                all[index].bytes = try HEIFItemEditing.relocating(existing, in: all[index].bytes, ilocOffset: all[index].offset, offset: xmpOffset, length: UInt64(packet.count))
            } else {
                all[index].bytes = try HEIFItemEditing.addingLocation(to: all[index].bytes, itemID: UInt16(itemID), offset: xmpOffset, length: UInt64(packet.count))
            }
            return BoxWriter.box("meta", versionAndFlags + all.flatMap(\.bytes))
        }
        let size = try metaBytes(xmpOffset: 0).count
        let newMeta = try metaBytes(xmpOffset: UInt64(source.size) + UInt64(size) + 8)
        guard newMeta.count == size else { throw WriteError(.inconsistentInput, "the new meta changed size with its offsets") }

        var patch = FilePatch()
        patch.copy(0..<meta.offset)
        patch.append(BoxWriter.free(size: Int(meta.size)))
        patch.copy(meta.end..<source.size)
        patch.append(newMeta)
        patch.append(BoxWriter.box("mdat", packet))
        patch.append(mpvdHeader == 8 ? BoxWriter.u32(UInt32(video.outputSize + 8)) + FourCC("mpvd").bytes
                                     : BoxWriter.u32(1) + FourCC("mpvd").bytes + BoxWriter.u64(UInt64(video.outputSize + 16)))
        patch.notes = [
            "meta (\(meta.size) bytes at \(meta.offset)) becomes free space; nothing in the file moves",
            "a new meta at the end with \(existing == nil ? "XMP item \(itemID) (iinf, iloc, iref cdsc → item\(described.count > 1 ? "s" : "") \(described.map(String.init).joined(separator: ", ")))" : "XMP item \(itemID)'s packet extended and moved (iloc)"): GCamera:MotionPhoto 1, version 1, presentation timestamp \(timestampUs) µs, a directory of the primary image (padding \(mpvdHeader)) and the movie (\(video.outputSize) bytes)",
            "the movie in a top-level mpvd box, last",
        ]
        patch.append(video.copying(from: moviePath))
        return patch
    }

    static func xmpSegment(_ packet: [UInt8]) throws -> [UInt8] {
        let length = 2 + xmpHeader.count + packet.count
        guard length <= 0xFFFF else { throw WriteError(.fieldOverflow, "the XMP segment would be \(length) bytes, more than a JPEG segment holds (65535)") }
        return [0xFF, 0xE1] + BoxWriter.u16(UInt16(length)) + xmpHeader + packet
    }
}
