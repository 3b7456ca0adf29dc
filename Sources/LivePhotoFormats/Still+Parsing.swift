extension Still {
    /// Reads a JPEG, PNG or HEIF-family still: its structure, EXIF, the Apple MakerNote and XMP.
    /// Problems in one part (say a broken MakerNote) become warnings; the rest is still read.
    public static func read(from source: ByteSource, format: FileFormat, options: InspectOptions = .full) throws -> Still {
        var still = Still(format: format, jpeg: nil, heif: nil, boxes: [], tiff: nil, exif: [], makerNote: nil, xmp: nil, motionPhoto: nil, warnings: [])
        var payloads = Payloads()
        switch format {
        case .jpeg:
            let jpeg = try JPEGStructure.read(from: source)
            still.jpeg = jpeg
            still.warnings += jpeg.warnings
            if let exif = jpeg.exif { payloads.exif = (exif.tiff, exif.offset, "APP1 Exif") }
            if let xmp = jpeg.xmp { payloads.xmp = (xmp.bytes, xmp.offset, "APP1 XMP") }
        case .png:
            let png = try PNGStructure.read(from: source)
            still.png = png
            still.warnings += png.warnings
            if let exif = png.exif { payloads.exif = (exif.tiff, exif.offset, "eXIf") }
            if let xmp = png.xmp { payloads.xmp = (xmp.bytes, xmp.offset, "iTXt XMP") }
        default:
            payloads = try readHEIF(into: &still, source: source, options: options)
        }
        if let exif = payloads.exif { try readExif(exif, into: &still, options: options) }
        if let xmp = payloads.xmp, options.xmpProperties || XMPPacket.mayHoldMotionPhoto(xmp.bytes) {
            do {
                still.xmp = try XMPPacket.parse(xmp.bytes, base: xmp.offset, path: xmp.path)
            } catch let error as ParseError {
                still.warnings.append(error)
            }
        }
        try readMotionPhoto(into: &still, payloads: &payloads, source: source, options: options)
        // A segment walk that already ran into the end of the file has said where the file is cut.
        if format == .jpeg, !still.warnings.contains(where: { $0.code == .truncated }), let warning = try missingEndOfImage(still, source: source) {
            still.warnings.append(warning)
        }
        return still
    }

    /// What a still's container gives the metadata readers: the EXIF (TIFF) bytes, the XMP packet
    /// read, and in HEIF every XMP item's role with a motion-photo packet found off the primary.
    struct Payloads {
        var exif: (tiff: [UInt8], offset: Int64, path: String)?
        var xmp: (bytes: [UInt8], offset: Int64, path: String)?
        var xmpRoles: [XMPItemRole] = []
        var misplacedPacket: XMPPacket?
    }

    /// The HEIF structure (boxes, `meta`, items) and its metadata items.
    static func readHEIF(into still: inout Still, source: ByteSource, options: InspectOptions) throws -> Payloads {
        var payloads = Payloads()
        let layout = try TopLevelLayout.read(from: source)
        still.warnings += layout.warnings
        still.boxes = layout.boxes
        guard let metaIndex = layout.boxes.firstIndex(where: { $0.type == "meta" }) else {
            throw ParseError(.invalidValue, "HEIF file without a top-level 'meta' box", offset: 0, path: "meta")
        }
        let meta = layout.boxes[metaIndex]
        let payload = try source.payload(of: meta, path: "meta")
        var heif = try HEIFStructure.parse(payload, metadataItemsOnly: !options.allItems)
        heif.metaPath = "meta"
        still.warnings += heif.warnings
        var inner = payload
        try inner.skip(4)
        if options.boxTree { still.boxes[metaIndex].children = try BoxTable.tree(inner, depth: 1) } else { try BoxTable.checkStructure(inner, depth: 1) }
        still.heif = heif
        if let item = heif.items.first(where: { $0.type == "Exif" }) {
            do {
                let (bytes, offset) = try heif.data(of: item, from: source)
                let start = try HEIFStructure.exifTIFFStart(bytes, base: offset, path: "meta/iloc/item[\(item.id)]")
                payloads.exif = (Array(bytes[start...]), offset + Int64(start), "meta/item[\(item.id)] Exif")
            } catch let error as ParseError {
                still.warnings.append(error)
            }
        }
        // The packet read is the one Google's reader reads (`HEIFStructure.xmpItem`). Other
        // XMP items (a gain map's own) are parsed only when they may declare a motion photo:
        // a writer that put it there wrote where neither Google nor libheif looks.
        let chosen = heif.xmpItem
        // At most 16 XMP items are read (a file of thousands would be a read of each): the one
        // read and the first others, where a writer puts a packet.
        for (index, item) in heif.xmpItems.enumerated() where index < 16 || item.id == chosen?.id {
            var declares = false
            do {
                let (bytes, offset) = try heif.data(of: item, from: source)
                if item.id == chosen?.id {
                    payloads.xmp = (bytes, offset, "meta/item[\(item.id)] XMP")
                } else if XMPPacket.mayHoldMotionPhoto(bytes) {
                    let packet = try XMPPacket.parse(bytes, base: offset, path: "meta/item[\(item.id)] XMP")
                    declares = packet.declaresMotionPhoto
                    if declares && payloads.misplacedPacket == nil { payloads.misplacedPacket = packet }
                }
            } catch let error as ParseError {
                still.warnings.append(error)
            }
            payloads.xmpRoles.append(XMPItemRole(item: item.id, describes: heif.described(by: item.id), declaresMotionPhoto: declares))
        }
        return payloads
    }

    /// The TIFF structure, standard EXIF, the thumbnail and the Apple MakerNote.
    static func readExif(_ exif: (tiff: [UInt8], offset: Int64, path: String), into still: inout Still, options: InspectOptions) throws {
        do {
            let tiff = try TIFFLayout.read(exif.tiff, base: exif.offset, path: exif.path)
            still.tiff = tiff
            if options.standardExif {
                still.exif = ExifReader.tags(tiff: exif.tiff, makerNoteRange: tiff.makerNoteRange)
            }
            if options.thumbnail, let range = tiff.thumbnailRange, exif.tiff[range].starts(with: [0xFF, 0xD8]) {
                still.thumbnail = Array(exif.tiff[range])
            }
            if let range = tiff.makerNoteRange, AppleMakerNote.isAppleMakerNote(exif.tiff[range]) {
                still.makerNote = try AppleMakerNote.read(Array(exif.tiff[range]), base: exif.offset + Int64(range.lowerBound), path: exif.path + "/MakerApple",
                                                          decodePlists: options.decodePlists)
            }
        } catch let error as ParseError {
            still.warnings.append(error)
        }
    }

    /// The motion photo and its embedded movie.
    static func readMotionPhoto(into still: inout Still, payloads: inout Payloads, source: ByteSource, options: InspectOptions) throws {
        // A HEIF motion photo declared only in another item's packet is still one (ExifTool and
        // the file's own writer see it); `motion-photo-xmp-not-primary` says where it is.
        let read = still.xmp?.declaresMotionPhoto == true ? still.xmp : payloads.misplacedPacket ?? still.xmp
        if let index = payloads.xmpRoles.firstIndex(where: { $0.item == still.heif?.xmpItem?.id }) {
            payloads.xmpRoles[index].declaresMotionPhoto = still.xmp?.declaresMotionPhoto == true
        }
        still.motionPhoto = try motionPhoto(still, xmp: read, source: source)
        if still.motionPhoto != nil, !payloads.xmpRoles.isEmpty {
            still.motionPhoto?.xmpItems = payloads.xmpRoles
            still.motionPhoto?.primaryItem = still.heif?.primaryItemID
        }
        if let range = still.motionPhoto?.movieRange {
            still.embeddedMovie = try? Movie.read(from: WindowSource(source, range: range), options: options, whole: "the embedded movie")
            // Media data the embedded movie's tables put outside it is the file's damage.
            for var warning in still.embeddedMovie?.warnings ?? [] where warning.code == .outsideFile {
                warning.offset = range.lowerBound &+ warning.offset
                warning.path = "movie@\(range.lowerBound)/" + warning.path
                still.warnings.append(warning)
            }
        }
    }

    /// A JPEG cut short loses its EOI marker. The image ends where its own EOI is, and vendors put
    /// data between it and an embedded motion-photo movie (Pixel's HDR+ `aecDebug` block), or after
    /// it (Samsung's `SEFT` trailer). First the last bytes before the end of the image data (the
    /// file's end, or where the embedded movie starts) are looked at; when they hold no EOI, the
    /// entropy-coded data after the last start of scan is walked to the image's own EOI, so
    /// vendor data after it is never taken for damage. Only that case reads the scan.
    static func missingEndOfImage(_ still: Still, source: ByteSource) throws -> ParseError? {
        var end = source.size
        if let motion = still.motionPhoto, motion.videoFound, let offset = motion.videoOffset { end = offset }
        let window = Int(min(end, 64))
        if window >= 2 {
            let tail = try source.read(at: end - Int64(window), count: window)
            if end == source.size, tail.suffix(4).elementsEqual(Array("SEFT".utf8)) { return nil }
            for index in stride(from: tail.count - 2, through: 0, by: -1) where tail[index] == 0xFF && tail[index + 1] == 0xD9 {
                return nil
            }
        }
        guard let scan = still.jpeg?.segments.last(where: { $0.marker == 0xDA }) else {
            return ParseError(.invalidValue, "no start-of-scan marker before byte \(end): the JPEG holds no image data", offset: end, path: "SOS")
        }
        let (dataStart, overflow) = scan.payloadOffset.addingReportingOverflow(Int64(scan.length))
        guard !overflow, dataStart <= end else { return nil }
        if try endOfImage(in: source, from: dataStart, to: end) != nil { return nil }
        return ParseError(.truncated, "no EOI marker between the image data at byte \(dataStart) and byte \(end): the image data is cut short", offset: end, path: "EOI")
    }

    /// The offset of the EOI marker that ends the entropy-coded data starting at `start`, or nil
    /// when none comes before `end`. Stuffed bytes (FF 00), fill bytes and restart markers belong
    /// to the data; other marker segments between scans (progressive JPEGs) are skipped by length.
    static func endOfImage(in source: ByteSource, from start: Int64, to end: Int64) throws -> Int64? {
        let block = 1 << 16
        var buffer: [UInt8] = []
        var bufferStart = start
        func byte(_ position: Int64) throws -> UInt8? {
            guard position < end else { return nil }
            if position < bufferStart || position >= bufferStart + Int64(buffer.count) {
                bufferStart = position
                buffer = try source.read(at: position, count: Int(min(Int64(block), end - position)))
            }
            return buffer[Int(position - bufferStart)]
        }
        var position = start
        while let value = try byte(position) {
            guard value == 0xFF else {
                position += 1
                continue
            }
            guard let marker = try byte(position + 1) else { return nil }
            switch marker {
            case 0x00, 0xD0...0xD7, 0x01:
                position += 2
            case 0xFF:
                position += 1
            case 0xD9:
                return position
            default:
                guard let high = try byte(position + 2), let low = try byte(position + 3) else { return nil }
                let length = Int64(high) << 8 | Int64(low)
                guard length >= 2 else { return nil }
                position += 2 + length
            }
        }
        return nil
    }

    /// Finds an embedded movie from XMP (`GCamera:MicroVideo*`, `GCamera:MotionPhoto` with a
    /// `Container:Directory`) or a Samsung `mpvd` box, and checks that a movie starts where it is said to.
    static func motionPhoto(_ still: Still, xmp: XMPPacket?, source: ByteSource) throws -> MotionPhoto? {
        var tail: [UInt8]?
        func lastBytes() -> [UInt8]? {
            // The last 64 bytes of a JPEG, read once for both probes (the range the EOI check reads).
            if tail == nil, still.format == .jpeg, source.size >= 8 { tail = try? source.read(at: source.size - min(source.size, 64), count: Int(min(source.size, 64))) }
            return tail
        }
        guard var motion = try declaredMotionPhoto(still, xmp: xmp, source: source) ?? trailerMotionPhoto(still, tail: lastBytes(), source: source)
                ?? trailingMotionPhoto(still, tail: lastBytes(), source: source) else { return nil }
        motion.directory = xmp?.directory ?? []
        let trailer = SamsungTrailer.read(from: source)
        motion.samsungTrailer = trailer?.range
        // In HEIC, Samsung wraps the trailer in a top-level 'sefd' box.
        if let range = trailer?.range, let box = still.boxes.first(where: { $0.type == "sefd" && $0.offset < range.lowerBound && range.lowerBound <= $0.payloadOffset }) {
            motion.samsungTrailer = box.offset..<range.upperBound
        }
        let mpvd = still.boxes.first { $0.type == "mpvd" }
        func cutShort(_ cut: (type: String, offset: Int64, size: Int64)?, ending end: Int64, _ what: String) -> String? {
            cut.map { "box '\($0.type)' at byte \($0.offset) claims \($0.size) bytes, but \(what) ends \(end - $0.offset) bytes after its start" }
        }
        motion.mpvd = mpvd.map { $0.offset..<$0.end }
        motion.locators = locators(still, xmp: xmp, mpvd: mpvd, trailer: trailer, source: source)
        motion.cameraMotionPhoto = xmp?.value(XMPPacket.cameraNamespace, "MotionPhoto")
        motion.containerVersion = xmp?.value(XMPPacket.containerNamespace, "Version")
        // Where the movie is: the mpvd box, the trailer's record, the described offset, else a search.
        if let mpvd, let walk = EmbeddedMovie.walk(at: mpvd.payloadOffset, in: source, limit: mpvd.end) {
            (motion.movieRange, motion.foundBy) = (walk.range, .mpvd)
            motion.movieCutShort = cutShort(walk.cutShort, ending: min(mpvd.end, source.size), "the mpvd box")
        } else if let record = trailer?.motionPhoto, let range = EmbeddedMovie.extent(at: record.data.lowerBound, in: source, limit: record.data.upperBound) {
            (motion.movieRange, motion.foundBy) = (range, .samsungTrailer)
        } else if motion.source == .trailingMovie {
            motion.foundBy = .ftypSearch
        } else if motion.videoFound, let offset = motion.videoOffset, let walk = EmbeddedMovie.walk(at: offset, in: source) {
            (motion.movieRange, motion.foundBy) = (walk.range, .described)
            motion.movieCutShort = cutShort(walk.cutShort, ending: source.size, "the file")
        } else if let scan = still.jpeg?.segments.last(where: { $0.marker == 0xDA }),
                  let start = EmbeddedMovie.search(in: source, range: scan.payloadOffset..<source.size),
                  let walk = EmbeddedMovie.walk(at: start, in: source) {
            (motion.movieRange, motion.foundBy) = (walk.range, .ftypSearch)
            motion.movieCutShort = cutShort(walk.cutShort, ending: source.size, "the file")
        }
        if still.format == .jpeg, let movie = motion.movieRange {
            // Where the directory puts the image's end (file size − Padding − Length), tried first.
            var said: Int64?
            if let padding = motion.directory.first?.padding, let length = motion.directory.last?.length, motion.directory.count >= 2,
               padding >= 0, length >= 0, padding <= source.size, length <= source.size {
                said = source.size - padding - length
            }
            motion.imageEnd = try imageEnd(before: movie.lowerBound, said: said, source: source)
        }
        return motion
    }

    /// Where the image data ends before `movieStart`: after the EOI marker (FF D9) at `said` (the
    /// directory's own image end) when one ends there, else after the last EOI marker in the 64
    /// KiB before the movie: the image's end when the vendor data between it and the movie
    /// (Pixel's `aecDebug`) holds no FF D9. The last 64 bytes come first, the range the EOI check
    /// reads; most files end their image there.
    static func imageEnd(before movieStart: Int64, said: Int64?, source: ByteSource) throws -> Int64? {
        for window in [Int64(64), 1 << 16] {
            let count = min(window, movieStart)
            guard count >= 2 else { return nil }
            let start = movieStart - count
            let tail = try source.read(at: start, count: Int(count))
            if let said, said - 2 >= start, said <= movieStart, tail[Int(said - 2 - start)] == 0xFF, tail[Int(said - 1 - start)] == 0xD9 {
                return said
            }
            for index in stride(from: tail.count - 2, through: 0, by: -1) where tail[index] == 0xFF && tail[index + 1] == 0xD9 {
                return start + Int64(index) + 2
            }
            if count < window { return nil }
        }
        return nil
    }

    /// Every locator the file has, each judged on its own.
    static func locators(_ still: Still, xmp: XMPPacket?, mpvd: Box?, trailer: SamsungTrailer?, source: ByteSource) -> [MotionPhotoLocator] {
        var found: [MotionPhotoLocator] = []
        func add(_ name: MotionPhotoLocator.Name, _ offset: Int64?, _ value: Int64?) {
            // A number from the end that is negative places the movie past the file: no byte of it.
            let inFile = offset.flatMap { (0...source.size).contains($0) ? $0 : nil }
            found.append(MotionPhotoLocator(name: name, offset: inFile, value: value, found: inFile.map { movieStarts(at: $0, in: source) } ?? false))
        }
        if let xmp {
            if let index = xmp.directory.firstIndex(where: { ($0.mime ?? "").hasPrefix("video/") || $0.semantic == "MotionPhoto" }) {
                let tail = xmp.directory[index...].reduce(Int64(0)) { $0 &+ max(0, $1.length ?? 0) }
                add(MotionPhotoLocator.Name.directory, fromEnd(tail, size: source.size), tail)
            }
            for (name, field) in [(MotionPhotoLocator.Name.motionPhotoOffset, "MotionPhotoOffset"), (MotionPhotoLocator.Name.microVideoOffset, "MicroVideoOffset")] {
                if let distance = xmp.value(XMPPacket.cameraNamespace, field).flatMap({ Int64($0) }) {
                    add(name, fromEnd(distance, size: source.size), distance)
                }
            }
        }
        if let mpvd { add(MotionPhotoLocator.Name.mpvd, mpvd.payloadOffset, mpvd.payloadSize) }
        // In a JPEG the trailer's MotionPhoto_Data record holds the movie; in a HEIC it holds a
        // few bytes of Samsung's own and the mpvd box holds the movie, so it locates nothing.
        if still.format == .jpeg, let record = trailer?.motionPhoto {
            add(MotionPhotoLocator.Name.samsungTrailer, record.data.lowerBound, Int64(record.data.count))
        }
        return found
    }

    static func declaredMotionPhoto(_ still: Still, xmp: XMPPacket?, source: ByteSource) throws -> MotionPhoto? {
        let described = try describedMotionPhoto(xmp, source: source)
        // Samsung HEIF motion photos keep the movie in a top-level 'mpvd' box; their XMP
        // directory lengths describe a trailer instead. Where the XMP misses, the box decides.
        if described?.videoFound != true, let box = still.boxes.first(where: { $0.type == "mpvd" }) {
            let found = movieStarts(at: box.payloadOffset, in: source)
            if found || described == nil {
                return MotionPhoto(source: .mpvd, version: described?.version, videoOffset: box.payloadOffset, videoLength: box.payloadSize,
                                   videoFound: found, presentationTimestampUs: described?.presentationTimestampUs)
            }
        }
        return described
    }

    static func movieStarts(at offset: Int64, in source: ByteSource) -> Bool {
        guard offset >= 0, offset + 8 <= source.size, let head = try? source.read(at: offset, count: 8) else { return false }
        return head[4..<8].elementsEqual(Array("ftyp".utf8))
    }

    /// `size - distance` for a distance read from XMP: nil when it cannot be an offset in the file.
    static func fromEnd(_ distance: Int64, size: Int64) -> Int64? {
        let (offset, overflow) = size.subtractingReportingOverflow(distance)
        return overflow || offset < 0 ? nil : offset
    }

    static func describedMotionPhoto(_ xmp: XMPPacket?, source: ByteSource) throws -> MotionPhoto? {
        func fromEnd(_ distance: Int64) -> Int64? { Self.fromEnd(distance, size: source.size) }
        func movieStarts(at offset: Int64) -> Bool { Self.movieStarts(at: offset, in: source) }
        let camera = XMPPacket.cameraNamespace
        if let xmp {
            let timestamp = (xmp.value(camera, "MotionPhotoPresentationTimestampUs") ?? xmp.value(camera, "MicroVideoPresentationTimestampUs")).flatMap { Int64($0) }
            if xmp.value(camera, "MotionPhoto") == "1" || !xmp.directory.isEmpty && xmp.value(camera, "MotionPhoto") != nil {
                var offset: Int64?
                var length: Int64?
                // Items after the primary are stored back to back at the end of the file.
                if let index = xmp.directory.firstIndex(where: { ($0.mime ?? "").hasPrefix("video/") || $0.semantic == "MotionPhoto" }) {
                    let lengths = xmp.directory[index...].map { $0.length ?? 0 }
                    let tail = lengths.reduce(Int64(0)) { $0 &+ max(0, $1) }
                    length = xmp.directory[index].length
                    offset = fromEnd(tail)
                } else if let fromEnd = (xmp.value(camera, "MotionPhotoOffset") ?? xmp.value(camera, "MicroVideoOffset")).flatMap({ Int64($0) }) {
                    // Vendors without a directory give the movie's distance from the end of the file.
                    offset = Self.fromEnd(fromEnd, size: source.size)
                    length = fromEnd
                }
                let found = offset.map(movieStarts(at:)) ?? false
                return MotionPhoto(source: .container, version: xmp.value(camera, "MotionPhotoVersion"), videoOffset: offset, videoLength: length, videoFound: found, presentationTimestampUs: timestamp)
            }
            if xmp.value(camera, "MicroVideo") == "1" {
                let fromEnd = xmp.value(camera, "MicroVideoOffset").flatMap { Int64($0) }
                let offset = fromEnd.flatMap { Self.fromEnd($0, size: source.size) }
                return MotionPhoto(source: .microVideo, version: xmp.value(camera, "MicroVideoVersion"), videoOffset: offset, videoLength: fromEnd,
                                   videoFound: offset.map(movieStarts(at:)) ?? false, presentationTimestampUs: timestamp)
            }
        }
        return nil
    }
}
