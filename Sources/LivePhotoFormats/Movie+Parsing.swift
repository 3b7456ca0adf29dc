extension Movie {
    /// Reads a movie from `source`: top-level box headers, the whole of `moov`, and the samples
    /// of timed-metadata tracks. `mdat` is never read.
    /// `whole` names what the source holds in messages ("the file"; "the embedded movie" for
    /// the movie inside a motion photo).
    public static func read(from source: ByteSource, options: InspectOptions = .full, whole: String = "the file") throws -> Movie {
        let layout = try TopLevelLayout.read(from: source)
        var parser = MovieParser(source: source, warnings: layout.warnings, allTimedSamples: options.allTimedSamples, boxTree: options.boxTree,
                                 chunkTables: options.chunkTables)
        parser.whole = whole
        return try parser.parse(layout: layout)
    }
}

/// Parsing state for one movie: the source (for timed samples) and the warnings so far.
struct MovieParser {
    let source: ByteSource
    var warnings: [ParseError]
    var allTimedSamples = true
    var boxTree = true
    var chunkTables = true
    /// What the source holds, in messages.
    var whole = "the file"

    static let maxTimedSamplesPerTrack = 4096
    static let maxTimedSampleBytes: UInt32 = 1 << 20

    mutating func parse(layout: TopLevelLayout) throws -> Movie {
        var boxes = layout.boxes
        guard let moovIndex = boxes.firstIndex(where: { $0.type == "moov" }) else {
            let at = layout.boxes.last.map { $0.end } ?? 0
            if let first = layout.warnings.first { throw first }
            throw ParseError(.invalidValue, "no 'moov' box: not a QuickTime movie or the movie header is missing",
                             offset: min(at, source.size))
        }
        var majorBrand: FourCC?
        var compatible: [FourCC] = []
        if let ftyp = boxes.first(where: { $0.type == "ftyp" }), ftyp.end <= source.size, ftyp.payloadSize <= 4096 {
            let box = try model(try source.payload(of: ftyp, path: "ftyp"), as: FileTypeBox.self, "ftyp")
            majorBrand = box.majorBrand
            compatible = box.compatibleBrands
        }
        let moov = boxes[moovIndex]
        let payload = try source.payload(of: moov, path: "moov")
        // Without the tree, its walk still runs: a movie dump refuses is refused here too.
        if boxTree { boxes[moovIndex].children = try BoxTable.tree(payload, depth: 1) } else { try BoxTable.checkStructure(payload, depth: 1) }

        var movie = Movie(
            boxes: boxes, majorBrand: majorBrand, compatibleBrands: compatible, timescale: 0, duration: 0,
            metadataHandler: nil, metadata: [], userDataMetadata: [], userData: [], tracks: [], warnings: [])
        var sawHeader = false
        var extends: ByteReader?
        // Fragments append to every track's tables: a fragmented movie keeps all of them (asked
        // before the tracks are read; `mvex` follows them).
        if !chunkTables {
            var children = try BoxIterator.walk(payload)
            while let child = children.next() {
                if child.type == "mvex" { chunkTables = true; break }
            }
        }
        var walk = try BoxIterator.walk(payload)
        // At most one track per child: room for them at once (a camera movie has four).
        movie.tracks.reserveCapacity(min(walk.count, Limits.maxTracks))
        while let box = walk.next() {
            let child = walk.payload
            switch box.type {
            case "mvhd":
                let header = try model(child, as: MovieHeaderBox.self, "mvhd")
                movie.timescale = header.timescale
                movie.duration = header.duration
                movie.creationTime = header.creationTime
                sawHeader = true
            case "trak":
                guard movie.tracks.count < Limits.maxTracks else {
                    throw child.error(.limitExceeded, "more than \(Limits.maxTracks) tracks")
                }
                movie.tracks.append(try track(child))
            case "mvex":
                extends = child
            case "meta":
                let (handler, items) = try QuickTimeMeta.read(child)
                movie.metadataHandler = handler
                movie.metadata += items
            case "udta":
                movie.userData += try userData(child)
                // ffmpeg (-movflags use_metadata_tags) writes keys/ilst into moov/udta/meta.
                for (inner, payload) in try BoxIterator.all(child) where inner.type == "meta" {
                    if let (handler, items) = try? QuickTimeMeta.read(payload), handler == "mdta" {
                        movie.userDataMetadata += items
                    }
                }
            default:
                break
            }
        }
        if let extends { try readFragments(extends, boxes: layout.boxes, into: &movie) }
        if !sawHeader {
            warnings.append(ParseError(.invalidValue, "'moov' has no 'mvhd' movie header", offset: moov.offset, path: "moov"))
        }
        for index in movie.tracks.indices where readsSamples(of: movie.tracks[index]) {
            do {
                movie.tracks[index].timedMetadata = try timedSamples(movie.tracks[index])
            } catch let error as ParseError {
                movie.tracks[index].timedMetadataError = error
                warnings.append(error)
            }
        }
        // Google's reader reads the first sample of the first motion-photo metadata track.
        if let index = movie.tracks.firstIndex(where: \.isMotionPhotoMetadata) {
            do {
                movie.tracks[index].motionPhotoMetadata = try motionPhotoMetadata(movie.tracks[index])
            } catch let error as ParseError {
                movie.tracks[index].timedMetadataError = error
                warnings.append(error)
            }
        }
        movie.warnings = warnings
        return movie
    }

    /// The first sample of a motion-photo metadata track, decoded; nil when the track has none.
    func motionPhotoMetadata(_ track: Track) throws -> MotionPhotoMetadata? {
        guard let sample = try track.sampleTable.resolve(limit: 1, path: track.path).first else { return nil }
        let path = "\(track.path)/sample[1]"
        guard sample.size <= Self.maxTimedSampleBytes, let offset = Int64(exactly: sample.offset) else {
            throw ParseError(.limitExceeded, "motion-photo metadata sample of \(sample.size) bytes at \(sample.offset)",
                             offset: min(Int64(clamping: sample.offset), source.size), path: path)
        }
        return try MotionPhotoMetadata.decode(try readSample(offset: offset, size: Int(sample.size), path: path), base: offset, path: path)
    }

    /// A box model from its payload, with a warning for any byte it leaves unread.
    mutating func model<T: BoxModel>(_ reader: ByteReader, as type: T.Type, _ name: FourCC) throws -> T {
        var reader = reader
        let value = try T(parsing: &reader)
        if reader.remaining > 0 { noteUnread(reader, name.description) }
        return value
    }

    mutating func model<T: TypedBoxModel>(_ reader: ByteReader, as type: T.Type, _ name: FourCC) throws -> T {
        var reader = reader
        let value = try T(parsing: &reader, type: name)
        if reader.remaining > 0 { noteUnread(reader, name.description) }
        return value
    }

    /// `what` is named only when bytes are left (nearly never).
    mutating func noteUnread(_ reader: ByteReader, _ what: @autoclosure () -> String) {
        if reader.remaining > 0 {
            warnings.append(reader.error(.invalidSize, "\(reader.remaining) unread bytes after \(what())"))
        }
    }

    // MARK: Tracks

    mutating func track(_ reader: ByteReader) throws -> Track {
        var track = Track(
            path: reader.path, id: 0, flags: 0, duration: 0, width: 0, height: 0, handler: FourCC(0), handlerName: "",
            mediaTimescale: 0, mediaDuration: 0, language: "", editList: nil, references: [], sampleDescriptions: [],
            sampleTable: SampleTable(), timedMetadata: [], timedMetadataError: nil)
        var walk = try BoxIterator.walk(reader)
        while let box = walk.next() {
            switch box.type {
            case "tkhd":
                let header = try model(walk.payload, as: TrackHeaderBox.self, "tkhd")
                track.flags = header.flags
                track.id = header.trackID
                track.duration = header.duration
                track.width = header.width
                track.height = header.height
                track.matrix = header.matrix
            case "edts":
                var edits = try BoxIterator.walk(walk.payload)
                while let inner = edits.next() {
                    guard inner.type == "elst" else { continue }
                    track.editList = try model(edits.payload, as: EditListBox.self, "elst").edits
                }
            case "tref":
                var references = try BoxIterator.walk(walk.payload)
                while let inner = references.next() {
                    track.references.append(TrackReference(type: inner.type, trackIDs: try model(references.payload, as: TrackReferenceTypeBox.self, inner.type).trackIDs))
                }
            case "mdia":
                try media(walk.payload, into: &track)
            default:
                break
            }
        }
        return track
    }

    mutating func media(_ reader: ByteReader, into track: inout Track) throws {
        var walk = try BoxIterator.walk(reader)
        while let box = walk.next() {
            switch box.type {
            case "mdhd":
                let header = try model(walk.payload, as: MediaHeaderBox.self, "mdhd")
                track.mediaTimescale = header.timescale
                track.mediaDuration = header.duration
                track.language = header.language
            case "hdlr":
                let handler = try HandlerBox(parsing: &walk.payload)
                track.handler = handler.subtype
                track.handlerName = handler.name
            case "minf":
                var information = try BoxIterator.walk(walk.payload)
                while let inner = information.next() {
                    guard inner.type == "stbl" else { continue }
                    try sampleTable(information.payload, into: &track)
                }
            default:
                break
            }
        }
    }

    /// Whether `parse` reads the samples of `track` (so it needs its chunk tables).
    func readsSamples(of track: Track) -> Bool {
        track.isTimedMetadata && (allTimedSamples || track.declaresStillImageTime)
    }

    /// Whether `parse` reads a sample of `track` (the `mebx` samples above, or a motion photo's
    /// metadata sample), so keeps its chunk tables.
    func keepsChunks(of track: Track) -> Bool {
        readsSamples(of: track) || track.isMotionPhotoMetadata
    }

    mutating func sampleTable(_ reader: ByteReader, into track: inout Track) throws {
        var table = SampleTable()
        // Chunk tables are kept unless asked not to; then they are skipped for a track whose
        // samples are not read, known once `stsd` has been read as the first child (as it
        // nearly always is; anywhere else, every table is kept).
        var keepChunks = true
        var extent = SampleDataExtent()
        var stsdOffset: Int64?
        var describedCount = 0
        var countsAt = TableOffsets()
        var walk = try BoxIterator.walk(reader)
        var position = 0
        while let box = walk.next() {
            defer { position += 1 }
            switch box.type {
            case "stsd":
                let descriptions = try SampleDescriptionBox(parsing: &walk.payload, keepingConfiguration: chunkTables)
                track.sampleDescriptions = descriptions.descriptions
                if descriptions.descriptions.count != Int(descriptions.declaredCount) {
                    warnings.append(walk.payload.error(.invalidValue, "stsd declares \(descriptions.declaredCount) entries but holds \(descriptions.descriptions.count)"))
                }
                if !descriptions.configurationProblems.isEmpty { warnings += descriptions.configurationProblems }
                stsdOffset = walk.payload.offset
                // Readers take the declared count: entries past it are no descriptions to them.
                describedCount = min(descriptions.descriptions.count, Int(descriptions.declaredCount))
                if position == 0 { keepChunks = chunkTables || keepsChunks(of: track) }
            case "stts":
                countsAt.timeToSample = walk.payload.offset
                table.timeToSample = try model(walk.payload, as: TimeToSampleBox.self, "stts").entries
            case "ctts":
                countsAt.compositionOffsets = walk.payload.offset
                table.compositionOffsets = try model(walk.payload, as: CompositionOffsetBox.self, "ctts").entries
            case "stss":
                if keepChunks {
                    table.syncSamples = try model(walk.payload, as: SyncSampleBox.self, "stss").samples
                } else {
                    try SyncSampleBox.skip(&walk.payload)
                    noteUnread(walk.payload, "stss")
                }
            case "stsc":
                extent.sampleToChunk = walk.payload.position..<walk.payload.end
                if keepChunks {
                    table.sampleToChunk = try model(walk.payload, as: SampleToChunkBox.self, "stsc").entries
                } else {
                    try SampleToChunkBox.skip(&walk.payload)
                    noteUnread(walk.payload, "stsc")
                }
            case "stsz", "stz2":
                (extent.sizes, extent.sizeType) = (walk.payload.position..<walk.payload.end, box.type)
                let sizes: SampleSizeBox
                if keepChunks {
                    sizes = try model(walk.payload, as: SampleSizeBox.self, box.type)
                } else {
                    sizes = try SampleSizeBox(skippingSizes: &walk.payload, type: box.type)
                    noteUnread(walk.payload, box.type.description)
                }
                table.sizeBox = sizes.type
                table.constantSampleSize = sizes.constantSize
                table.sampleCount = sizes.sampleCount
                table.sampleSizes = sizes.sizes
            case "stco", "co64":
                (extent.chunks, extent.chunkType) = (walk.payload.position..<walk.payload.end, box.type)
                table.chunkOffsetBox = box.type
                if keepChunks {
                    table.chunkOffsets = try model(walk.payload, as: ChunkOffsetBox.self, box.type).offsets
                } else {
                    try ChunkOffsetBox.skip(&walk.payload, type: box.type)
                    noteUnread(walk.payload, box.type.description)
                }
            default:
                break
            }
        }
        track.sampleTable = table
        if let problem = extent.problem(in: reader, fileSize: source.size, whole: whole) { warnings.append(problem) }
        // The box path is built only for a contradiction found (a path costs more than the checks).
        let contradictions = Self.tableContradictions(table, descriptions: describedCount, stsdOffset: stsdOffset, countsAt: countsAt, path: reader.path)
        if !contradictions.isEmpty { warnings += contradictions }
        if describedCount > 0, let problem = extent.descriptionIndexProblem(in: reader, descriptions: describedCount) { warnings.append(problem) }
    }

    /// Where a sample table's counting boxes' payloads start, for messages.
    struct TableOffsets {
        var timeToSample: Int64 = 0
        var compositionOffsets: Int64 = 0
    }

    /// Tables of one track that contradict one another (`ParseError.Code.inconsistent`): the
    /// samples `stts` and `ctts` count against those `stsz` holds (checked sums: counts are the
    /// file's), and samples with no sample description to decode them by.
    static func tableContradictions(_ table: SampleTable, descriptions: Int, stsdOffset: Int64?, countsAt: TableOffsets, path: @autoclosure () -> String) -> [ParseError] {
        let samples = UInt64(table.sampleCount)
        guard samples > 0 else { return [] }
        func total<Entries: Sequence>(_ entries: Entries, _ count: (Entries.Element) -> UInt32) -> UInt64 {
            var sum: UInt64 = 0
            for entry in entries { sum = sum.addingReportingOverflow(UInt64(count(entry))).partialValue }
            return sum
        }
        let timed = total(table.timeToSample, \.count)
        let offset = table.compositionOffsets.isEmpty ? samples : total(table.compositionOffsets, \.count)
        guard descriptions == 0 || timed != samples || offset != samples else { return [] }
        var found: [ParseError] = []
        if descriptions == 0 {
            found.append(ParseError(.inconsistent, "the track has \(samples) samples, and its stsd describes none", offset: stsdOffset ?? 0, path: path() + "/stsd"))
        }
        if timed != samples {
            found.append(ParseError(.inconsistent, "stts counts \(timed) samples, stsz holds \(samples)", offset: countsAt.timeToSample, path: path() + "/stts"))
        }
        if offset != samples {
            found.append(ParseError(.inconsistent, "ctts counts \(offset) samples, stsz holds \(samples)", offset: countsAt.compositionOffsets, path: path() + "/ctts"))
        }
        return found
    }

    /// `udta` items: QuickTime international text (`©xyz` and friends), else raw bytes.
    func userData(_ reader: ByteReader) throws -> [UserDataItem] {
        var items: [UserDataItem] = []
        for (box, var child) in try BoxIterator.all(reader) {
            if box.type == "meta" { continue }
            if box.type.bytes[0] == 0xA9, child.remaining >= 4 {
                var probe = child
                let length = Int(try probe.u16())
                let language = try probe.u16()
                if length <= probe.remaining {
                    // A Macintosh language code of a Mac Roman language means Mac Roman text; other codes, UTF-8.
                    let bytes = try probe.read(length)
                    let text = MacRoman.isMacRomanLanguage(language) ? MacRoman.decode(bytes) : String(decoding: bytes, as: UTF8.self)
                    items.append(UserDataItem(type: box.type, value: .string(text)))
                    continue
                }
            }
            items.append(UserDataItem(type: box.type, value: .data(try child.restBytes())))
        }
        return items
    }
}
