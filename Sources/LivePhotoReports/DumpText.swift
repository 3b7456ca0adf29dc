import LivePhotoCheck
import LivePhotoFormats

/// `lpcheck dump` for people: the Live Photo markers first (what pairs a still and a movie),
/// Content Credentials and the capture facts, then the structure as a tree. All text that
/// comes from the file is made terminal-safe.
public enum DumpText {
    /// `tableLimit`: how many entries of each sample table to print (nil: all). `gif`: an
    /// animated GIF's blocks, when the file is one.
    public static func render(_ file: MediaFile, tableLimit: Int? = 8, stats: Bool = false, gif: GIFStructure? = nil) -> String {
        var out = Output(limit: tableLimit)
        out.line(0, "\(file.path.terminalSafe): \(file.kind.rawValue), \(file.format.rawValue), \(file.size) bytes")
        if let error = file.error { out.line(1, "ERROR \(error.description.terminalSafe)") }
        for warning in file.warnings { out.line(1, "warning: \(warning.description.terminalSafe)") }
        out.line(1, "Live Photo markers")
        out.line(2, "content identifier: \(file.contentIdentifier?.terminalSafe ?? "none")")
        if let movie = file.movie {
            if let time = movie.stillImageTime {
                let moment = time.seconds.map { SecondsText.format($0) + " s" } ?? "not presented by the edit list"
                out.line(2, "still-image-time: value \(time.value.map(String.init) ?? "undecodable"), at \(moment) (sample \(time.sampleIndex + 1) of track \(time.trackID): media time \(time.mediaTime)/\(time.mediaTimescale), duration \(time.duration))")
            } else {
                out.line(2, "still-image-time: none")
            }
            if let durations = movie.frameDurations {
                out.line(2, "video frames: \(durations.frameCount), duration nominal \(durations.nominal) min \(durations.minimum) max \(durations.maximum) (timescale \(durations.timescale)\(durations.seconds(durations.nominal).map { ", nominal " + SecondsText.format($0) + " s" } ?? ""))")
            }
        }
        for (depth, line) in DumpCredentials.lines(file) { out.line(depth, line.terminalSafe) }
        let capture = file.still.map(CaptureFacts.init(still:)) ?? file.movie.map(CaptureFacts.init(movie:))
        if let capture, !capture.isEmpty {
            out.line(1, "Capture (what the agreement rules compare)")
            for line in capture.lines { out.line(2, line.terminalSafe) }
        }
        if let still = file.still { out.still(still) }
        if let movie = file.movie { out.movie(movie) }
        if let gif { out.gif(gif) }
        if stats { out.line(1, "stats: read \(file.stats.bytesRead) of \(file.size) bytes in \(file.stats.reads) reads") }
        return out.text
    }

    struct Output {
        var text = ""
        let limit: Int?
        /// Levels added to every line (a motion photo's embedded movie is shown inside it).
        var indent = 0

        mutating func line(_ depth: Int, _ content: String) {
            text += String(repeating: "  ", count: depth + indent) + content + "\n"
        }

        /// The box tree; an `ilst`'s children are named by the `keys` entry they give a value
        /// for (their type is that entry's number).
        mutating func boxes(_ list: [Box], depth: Int, keyIndices: Bool = false) {
            for box in list {
                let name = keyIndices ? "key \(box.type.value)" : box.type.description.terminalSafe
                line(depth, "\(name) @\(box.offset) size \(box.size)")
                boxes(box.children, depth: depth + 1, keyIndices: box.type == "ilst")
            }
        }

        /// An animated GIF's screen, loop and frames: place, delay, disposal, palette, transparency.
        mutating func gif(_ gif: GIFStructure) {
            let loop = gif.loopCount.map { $0 == 0 ? "NETSCAPE2.0 loop count 0 (forever)" : "NETSCAPE2.0 loop count \($0)" } ?? "no loop extension (shown once)"
            line(1, "GIF \(gif.version.terminalSafe) \(gif.width)×\(gif.height), \(Plural.count(gif.frames.count, "frame")), \(loop)\(gif.complete ? "" : ", no trailer: cut short")")
            if let palette = gif.globalPalette { line(2, "global palette: \(palette.count) colours at \(palette.offset), background index \(gif.backgroundIndex)") }
            let shown = limit.map { min($0, gif.frames.count) } ?? gif.frames.count
            var start = 0
            for (index, frame) in gif.frames.enumerated() {
                if index < shown {
                    let palette = frame.localPalette.map { ", local palette of \($0.count)" } ?? ""
                    let transparent = frame.transparentIndex.map { ", transparent index \($0)" } ?? ""
                    line(2, "frame \(index + 1) @\(frame.offset): \(frame.width)×\(frame.height) at (\(frame.left), \(frame.top)), delay \(frame.delay) cs (shown \(frame.shownDelay) cs from \(start) cs), disposal \(frame.disposal)\(frame.interlaced ? ", interlaced" : "")\(palette)\(transparent)")
                }
                start += frame.shownDelay
            }
            if gif.frames.count > shown { line(2, "… \(gif.frames.count - shown) more frames; --full shows all") }
        }

        mutating func list<T>(_ depth: Int, _ title: String, _ values: [T], _ show: (T) -> String) {
            let shown = limit.map { min($0, values.count) } ?? values.count
            let more = values.count > shown ? " … (\(values.count - shown) more; --full shows all)" : ""
            line(depth, "\(title) (\(values.count)): " + values.prefix(shown).map(show).joined(separator: " ") + more)
        }

        mutating func still(_ still: Still) {
            if let jpeg = still.jpeg {
                line(1, "segments")
                for segment in jpeg.segments {
                    line(2, "\(segment.name) @\(segment.offset) length \(segment.length)\(segment.label.map { " " + $0 } ?? "")")
                }
            }
            if let png = still.png {
                line(1, "chunks")
                for chunk in png.chunks { line(2, "\(chunk.type) @\(chunk.offset) length \(chunk.length)") }
            }
            if !still.boxes.isEmpty {
                line(1, "boxes")
                boxes(still.boxes, depth: 2)
            }
            if let heif = still.heif {
                line(1, "items (primary \(heif.primaryItemID.map(String.init) ?? "none"))")
                for item in heif.items {
                    let extents = item.extents.map { "\(item.baseOffset &+ $0.offset)+\($0.length)" }.joined(separator: ",")
                    line(2, "\(item.id) \(item.type.description.terminalSafe)\(item.hidden ? " hidden" : "") method \(item.constructionMethod) extents \(extents)")
                }
                // Which packet a reader takes: the one describing the primary (Google's and libheif's choice).
                for item in heif.xmpItems {
                    let targets = heif.described(by: item.id)
                    let chosen = item.id == heif.xmpItem?.id
                    let read = !chosen ? "" : heif.primaryItemID.map(targets.contains) == true
                        ? ": the primary's XMP (what Google's motion-photo reader and libheif read)"
                        : ": Google's motion-photo reader falls back to it (no XMP item describes the primary); libheif gives the primary no XMP"
                    let declares = still.motionPhoto?.xmpItems?.contains { $0.item == item.id && $0.declaresMotionPhoto } == true ? "; its packet declares the motion photo" : ""
                    line(2, "XMP item \(item.id) describes " + (targets.isEmpty ? "no item (no cdsc)" : Plural.noun(targets.count, "item") + " " + targets.map(String.init).joined(separator: ", ")) + read + declares)
                }
            }
            if let note = still.makerNote {
                line(1, "MakerApple (version \(note.version), \(note.entries.count) entries)")
                for entry in note.entries {
                    let name = entry.name ?? "Apple_0x" + String(entry.tag, radix: 16).leftPadded(4)
                    line(2, "0x\(String(entry.tag, radix: 16).leftPadded(4)) \(name) [type \(entry.type) × \(entry.count)]: \(entry.value.displayText.terminalSafe)")
                }
            }
            if !still.exif.isEmpty {
                line(1, "EXIF (libexif)")
                for tag in still.exif { line(2, "\(tag.ifd) 0x\(String(tag.tag, radix: 16).leftPadded(4)) \(tag.name): \(tag.value.terminalSafe)") }
            }
            if let xmp = still.xmp {
                let google = xmp.properties.filter { $0.namespace.contains("ns.google.com") }
                line(1, "XMP (\(xmp.properties.count) properties" + (google.count == xmp.properties.count ? ")"
                    : "; the \(google.count) in Google's namespaces shown, --format json lists all)"))
                for property in google {
                    line(2, "\(property.name.terminalSafe) = \(property.value.terminalSafe)")
                }
                for (index, item) in xmp.directory.enumerated() {
                    line(2, "directory[\(index)]: " + item.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)".terminalSafe }.joined(separator: " "))
                }
            }
            if let motion = still.motionPhoto { motionPhoto(motion, embedded: still.embeddedMovie) }
        }

        /// A motion photo: what declares it, each locator, the movie and its tracks.
        mutating func motionPhoto(_ motion: MotionPhoto, embedded: Movie?) {
            let declared = [.container: "GCamera:MotionPhoto", .microVideo: "GCamera:MicroVideo (no GCamera:MotionPhoto)"][motion.source] ?? motion.source.rawValue
            line(1, "motion photo (declared by \(declared)\(motion.version.map { ", version \($0.terminalSafe)" } ?? ""))")
            // Each locator on its own: where it places the movie and whether one starts there.
            for locator in motion.locators ?? [] {
                let number: String
                switch locator.name {
                case MotionPhotoLocator.Name.directory: number = "items after the primary \(locator.value.map(String.init) ?? "?") bytes, counted from the end"
                case MotionPhotoLocator.Name.mpvd, MotionPhotoLocator.Name.samsungTrailer: number = "payload \(locator.value.map(String.init) ?? "?") bytes"
                default: number = "\(locator.value.map(String.init) ?? "?") bytes from the end"
                }
                line(2, "\(locator.name) (\(number)): movie at \(locator.offset.map(String.init) ?? "no byte of the file"), \(locator.found ? "found" : "NOT found")")
            }
            if let range = motion.movieRange {
                line(2, "movie: \(range.upperBound - range.lowerBound) bytes at \(range.lowerBound) (found by \(motion.foundBy?.rawValue ?? "?"))")
            }
            if let trailer = motion.samsungTrailer { line(2, "Samsung trailer: \(trailer.upperBound - trailer.lowerBound) bytes at \(trailer.lowerBound)") }
            if let embedded {
                line(2, "embedded movie: brand \(embedded.majorBrand?.description.terminalSafe ?? "none"), \(Plural.count(embedded.tracks.count, "track")) (offsets below count from the movie's first byte)")
                for track in embedded.tracks {
                    let formats = track.sampleDescriptions.map { $0.format.description + ($0.mimeFormat.map { " (\($0))" } ?? "") }.joined(separator: ", ")
                    line(3, "track \(track.id): \(track.handler.description) \(formats)".terminalSafe)
                }
                // Each track with its sample tables, as a movie's are shown.
                indent += 2
                for track in embedded.tracks { self.track(embedded, track) }
                indent -= 2
            }
        }

        /// The decoded first sample of a Google motion-photo metadata track.
        mutating func motionPhotoMetadata(_ track: Track, depth: Int) {
            guard let metadata = track.motionPhotoMetadata else { return }
            let times = metadata.highResFrameTimestampsUs
            line(depth, "motion-photo metadata (sample 1): primary image frame at \(metadata.primaryFrameTimestampUs) µs, \(Plural.count(times.count, "scored high-resolution frame"))"
                + (times.isEmpty ? "" : " at " + times.prefix(8).map(String.init).joined(separator: ", ") + (times.count > 8 ? ", …" : "") + " µs"))
        }

        mutating func movie(_ movie: Movie) {
            line(1, "boxes")
            boxes(movie.boxes, depth: 2)
            line(1, "movie: brand \(movie.majorBrand?.description.terminalSafe ?? "none"), timescale \(movie.timescale), duration \(movie.duration)\(movie.durationSeconds.map { " (" + SecondsText.format($0) + " s)" } ?? "")")
            if let fragments = movie.fragments {
                line(1, "fragmented: \(Plural.count(fragments.count, "fragment")), \(Plural.count(fragments.runs, "track run"))\(fragments.randomAccess ? ", mfra" : "")\(fragments.fragmentDuration.map { ", mehd duration \($0)" } ?? ""): sample tables below list the fragments' samples\(fragments.headerDuration == 0 ? ", durations are their sums (the headers say 0)" : "")")
            }
            if !movie.metadata.isEmpty {
                line(1, "metadata (moov/meta, handler \(movie.metadataHandler?.description.terminalSafe ?? "none"))")
                for item in movie.metadata {
                    line(2, "\(item.key.terminalSafe) [\(WellKnownType.name(item.dataType))]: \(item.value.displayText.terminalSafe)")
                }
            }
            if !movie.userData.isEmpty {
                line(1, "user data (moov/udta)")
                for item in movie.userData { line(2, "\(item.type.description.terminalSafe): \(item.value.displayText.terminalSafe)") }
            }
            for track in movie.tracks { self.track(movie, track) }
        }

        mutating func track(_ movie: Movie, _ track: Track) {
            line(1, "track \(track.id) (\(track.path)): handler \(track.handler.description.terminalSafe)\(track.flags & 1 == 0 ? " disabled" : ""), media timescale \(track.mediaTimescale), media duration \(track.mediaDuration), language \(track.language)")
            if let edits = track.editList {
                list(2, "elst", edits) { "(\($0.segmentDuration), \($0.mediaTime), \($0.rate))" }
            }
            for reference in track.references {
                line(2, "tref \(reference.type.description.terminalSafe) -> \(reference.trackIDs.map(String.init).joined(separator: ","))")
            }
            for entry in track.sampleDescriptions {
                var text = "stsd \(entry.format.description.terminalSafe)"
                if let width = entry.width, let height = entry.height { text += " \(width)x\(height)" }
                if let name = entry.compressorName, !name.isEmpty { text += " '\(name.terminalSafe)'" }
                if !entry.childTypes.isEmpty { text += " [" + entry.childTypes.map { $0.description.terminalSafe }.joined(separator: " ") + "]" }
                line(2, text)
                for key in entry.metadataKeys {
                    line(3, "key \(key.localID): \(key.namespace.description.terminalSafe)/\(key.key.terminalSafe) type \(key.dataType.map { WellKnownType.name($0) } ?? "?")")
                }
            }
            let table = track.sampleTable
            list(2, "stts", table.timeToSample) { "\($0.count)×\($0.delta)" }
            if !table.compositionOffsets.isEmpty { list(2, "ctts", table.compositionOffsets) { "\($0.count)×\($0.offset)" } }
            if let sync = table.syncSamples { list(2, "stss", sync) { String($0) } }
            list(2, "stsc", table.sampleToChunk) { "(\($0.firstChunk),\($0.samplesPerChunk),\($0.descriptionIndex))" }
            if table.constantSampleSize != 0 {
                line(2, "\(table.sizeBox?.description ?? "stsz") (\(table.sampleCount)): all \(table.constantSampleSize) bytes")
            } else {
                list(2, table.sizeBox?.description ?? "stsz", table.sampleSizes) { String($0) }
            }
            list(2, table.chunkOffsetBox?.description ?? "stco", table.chunkOffsets) { String($0) }
            for timed in track.timedMetadata.prefix(limit ?? Int.max) {
                let moment = movie.movieSeconds(forMediaTime: Int64(clamping: timed.sample.decodeTime), in: track).map { SecondsText.format($0) + " s" } ?? "not presented"
                let items = timed.items.map { "\($0.key ?? "local \($0.localID)")=\($0.value.displayText)".terminalSafe }.joined(separator: "; ")
                line(2, "sample \(timed.sample.index + 1) @\(timed.sample.offset)+\(timed.sample.size) t=\(timed.sample.decodeTime) d=\(timed.sample.duration) (\(moment)): \(items)")
            }
            if let limit, track.timedMetadata.count > limit { line(2, "… \(track.timedMetadata.count - limit) more timed samples") }
            if let error = track.timedMetadataError { line(2, "timed metadata unreadable: \(error.description.terminalSafe)") }
            motionPhotoMetadata(track, depth: 2)
        }
    }
}
