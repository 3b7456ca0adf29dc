import LivePhotoCheck
import LivePhotoFormats

/// `lpcheck dump --format json`: one object per file (schema: Reports/dump.schema.json).
public enum DumpJSON {
    public static let schemaVersion = 1

    public static func document(_ files: [MediaFile], gifs: [String: GIFStructure] = [:]) -> JSONValue { .array(files.map { object($0, gif: gifs[$0.path]) }) }

    /// `gifs`: the blocks of the animated GIFs among `files`, by path.
    public static func render(_ files: [MediaFile], gifs: [String: GIFStructure] = [:]) -> String { document(files, gifs: gifs).serialized() + "\n" }

    public static func object(_ file: MediaFile, gif: GIFStructure? = nil) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("path", .string(file.path)),
            ("kind", .string(file.kind.rawValue)),
            ("format", .string(file.format.rawValue)),
            ("size", .int(file.size)),
            ("contentIdentifier", .optional(file.contentIdentifier)),
        ]
        if let movie = file.movie {
            pairs.append(("stillImageTime", movie.stillImageTime.map(stillImageTime) ?? .null))
            pairs.append(("frameDurations", movie.frameDurations.map(frameDurations) ?? .null))
        } else if file.format.isMovie {
            pairs.append(("stillImageTime", .null))
        }
        if file.credentials != nil || file.credentialsProblem != nil { pairs.append(("contentCredentials", DumpCredentials.json(file))) }
        pairs.append(("error", file.error.map(error) ?? .null))
        pairs.append(("warnings", .array(file.warnings.map(error))))
        pairs.append(("stats", .object([
            ("bytesRead", .int(file.stats.bytesRead)), ("reads", .int(Int64(file.stats.reads))),
            ("largestRead", .int(Int64(file.stats.largestRead))),
        ])))
        if let still = file.still { pairs += self.still(still) }
        if let embedded = file.still?.embeddedMovie { pairs.append(("embeddedMovie", .object(self.movie(embedded)))) }
        if let movie = file.movie { pairs += self.movie(movie) }
        if let gif { pairs.append(("gif", self.gif(gif))) }
        if let capture = file.still.map(CaptureFacts.init(still:)) ?? file.movie.map(CaptureFacts.init(movie:)), !capture.isEmpty {
            pairs.append(("capture", self.capture(capture)))
        }
        return .object(pairs)
    }

    /// What the agreement rules compare, as the scan records hold it.
    static func capture(_ capture: CaptureFacts) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let time = capture.time {
            let offset: JSONValue = time.offset.map { .int(Int64($0)) } ?? .null
            let fields: [(String, JSONValue)] = [("source", .string(time.source)), ("clock", .double(time.clock)), ("offset", offset), ("text", .string(time.text))]
            pairs.append(("time", .object(fields)))
        }
        if let headerTime = capture.headerTime { pairs.append(("headerTime", .double(headerTime))) }
        for (key, value) in [("make", capture.make), ("model", capture.model), ("software", capture.software)] {
            if let value { pairs.append((key, .string(value))) }
        }
        if let latitude = capture.latitude, let longitude = capture.longitude { pairs += [("latitude", .double(latitude)), ("longitude", .double(longitude))] }
        if let size = capture.size {
            let fields: [(String, JSONValue)] = [("width", .int(Int64(size.width))), ("height", .int(Int64(size.height)))]
            pairs.append(("size", .object(fields)))
        }
        if let turns = capture.quarterTurns { pairs.append(("quarterTurns", .int(Int64(turns)))) }
        if capture.mirrored == true { pairs.append(("mirrored", .bool(true))) }
        return .object(pairs)
    }

    public static func error(_ error: ParseError) -> JSONValue {
        .object([
            ("code", .string(error.code.rawValue)), ("message", .string(error.message)),
            ("offset", .int(error.offset)), ("path", .string(error.path)),
        ])
    }

    static func stillImageTime(_ time: StillImageTime) -> JSONValue {
        .object([
            ("value", time.value.map(JSONValue.int) ?? .null),
            ("seconds", .optional(time.seconds)),
            ("mediaTime", .uint(time.mediaTime)),
            ("mediaSeconds", .optional(time.mediaSeconds)),
            ("duration", .uint(UInt64(time.duration))),
            ("durationSeconds", .optional(time.durationSeconds)),
            ("timescale", .uint(UInt64(time.mediaTimescale))),
            ("trackID", .uint(UInt64(time.trackID))),
            ("track", .string(time.trackPath)),
            ("sampleIndex", .int(Int64(time.sampleIndex))),
            ("dataType", time.dataType.map { .uint(UInt64($0)) } ?? .null),
            ("editListApplied", .bool(time.hasEditList)),
        ])
    }

    static func frameDurations(_ durations: FrameDurations) -> JSONValue {
        .object([
            ("timescale", .uint(UInt64(durations.timescale))),
            ("frameCount", .uint(durations.frameCount)),
            ("nominal", .uint(UInt64(durations.nominal))),
            ("nominalSeconds", .optional(durations.seconds(durations.nominal))),
            ("minimum", .uint(UInt64(durations.minimum))),
            ("minimumSeconds", .optional(durations.seconds(durations.minimum))),
            ("maximum", .uint(UInt64(durations.maximum))),
            ("maximumSeconds", .optional(durations.seconds(durations.maximum))),
            ("zeroDurationFrames", .uint(durations.zeroDurationFrames)),
        ])
    }

    // MARK: Stills

    static func still(_ still: Still) -> [(String, JSONValue)] {
        var pairs: [(String, JSONValue)] = []
        if let jpeg = still.jpeg {
            pairs.append(("segments", .array(jpeg.segments.map { segment in
                .object([
                    ("marker", .string(segment.name)), ("offset", .int(segment.offset)),
                    ("length", .int(Int64(segment.length))), ("label", .optional(segment.label)),
                ])
            })))
        }
        if let png = still.png {
            pairs.append(("chunks", .array(png.chunks.map { chunk in
                .object([("type", .string(chunk.type.description)), ("offset", .int(chunk.offset)), ("length", .int(Int64(chunk.length)))])
            })))
        }
        if !still.boxes.isEmpty { pairs.append(("boxes", .array(still.boxes.map(box)))) }
        if let heif = still.heif {
            pairs.append(("primaryItem", heif.primaryItemID.map { .uint(UInt64($0)) } ?? .null))
            pairs.append(("items", .array(heif.items.map { item in
                .object([
                    ("id", .uint(UInt64(item.id))), ("type", .string(item.type.description)), ("name", .string(item.name)),
                    ("contentType", .optional(item.contentType)), ("constructionMethod", .uint(UInt64(item.constructionMethod))),
                    ("hidden", .bool(item.hidden)),
                    ("extents", .array(item.extents.map { .object([("offset", .uint(item.baseOffset &+ $0.offset)), ("length", .uint($0.length))]) })),
                ])
            })))
            pairs.append(("references", .array(heif.references.map { ref in
                .object([("type", .string(ref.type.description)), ("from", .uint(UInt64(ref.from))), ("to", .array(ref.to.map { .uint(UInt64($0)) }))])
            })))
        }
        pairs.append(("makerApple", still.makerNote.map(makerNote) ?? .null))
        pairs.append(("exif", .array(still.exif.map { tag in
            .object([("ifd", .string(tag.ifd)), ("tag", .string(hex16(tag.tag))), ("name", .string(tag.name)), ("value", .string(tag.value))])
        })))
        pairs.append(("xmp", still.xmp.map(xmp) ?? .null))
        pairs.append(("motionPhoto", still.motionPhoto.map(motionPhoto) ?? .null))
        return pairs
    }

    static func hex16(_ value: UInt16) -> String { "0x" + String(value, radix: 16).leftPadded(4) }

    static func makerNote(_ note: AppleMakerNote) -> JSONValue {
        .object([
            ("version", .uint(UInt64(note.version))),
            ("byteOrder", .string(note.littleEndian ? "II" : "MM")),
            ("entries", .array(note.entries.map { entry in
                .object([
                    ("tag", .string(hex16(entry.tag))), ("id", .uint(UInt64(entry.tag))), ("name", .optional(entry.name)),
                    ("type", .uint(UInt64(entry.type))), ("count", .uint(UInt64(entry.count))), ("value", makerValue(entry.value)),
                ])
            })),
        ])
    }

    static func makerValue(_ value: MakerValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .integers(let values): return values.count == 1 ? .int(values[0]) : .array(values.map(JSONValue.int))
        case .rationals(let values), .floats(let values): return values.count == 1 ? .double(values[0]) : .array(values.map(JSONValue.double))
        case .plist(let plist): return self.plist(plist)
        case .data(let bytes): return .string(hex(bytes))
        case .unknown: return .null
        }
    }

    static func plist(_ value: PlistValue) -> JSONValue {
        switch value {
        case .dictionary(let pairs): return .object(pairs.map { ($0.0, plist($0.1)) })
        case .array(let values): return .array(values.map(plist))
        case .string(let text): return .string(text)
        case .integer(let number): return .int(number)
        case .real(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .data(let bytes): return .string(hex(bytes))
        case .date(let seconds): return .double(seconds)
        }
    }

    static func hex(_ bytes: [UInt8], limit: Int = 4096) -> String {
        let digits = Array("0123456789abcdef")
        var text = "0x"
        for byte in bytes.prefix(limit) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        if bytes.count > limit { text += "…" }
        return text
    }

    static func xmp(_ packet: XMPPacket) -> JSONValue {
        .object([
            ("properties", .array(packet.properties.map { .object([("namespace", .string($0.namespace)), ("name", .string($0.name)), ("value", .string($0.value))]) })),
            ("directory", .array(packet.directory.map { item in .object(item.fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }) })),
        ])
    }

    static func motionPhoto(_ motion: MotionPhoto) -> JSONValue {
        .object([
            ("source", .string(motion.source.rawValue)), ("version", .optional(motion.version)),
            ("videoOffset", motion.videoOffset.map(JSONValue.int) ?? .null),
            ("videoLength", motion.videoLength.map(JSONValue.int) ?? .null),
            ("videoFound", .bool(motion.videoFound)),
            ("presentationTimestampUs", motion.presentationTimestampUs.map(JSONValue.int) ?? .null),
            ("movie", motion.movieRange.map(range) ?? .null),
            ("movieFoundBy", .optional(motion.foundBy?.rawValue)),
            ("mpvd", motion.mpvd.map(range) ?? .null),
            ("samsungTrailer", motion.samsungTrailer.map(range) ?? .null),
            ("locators", .array((motion.locators ?? []).map { locator in
                .object([("name", .string(locator.name.rawValue)), ("offset", locator.offset.map(JSONValue.int) ?? .null),
                         ("value", locator.value.map(JSONValue.int) ?? .null), ("found", .bool(locator.found))])
            })),
            ("xmpItems", .array((motion.xmpItems ?? []).map { role in
                .object([("item", .int(Int64(role.item))), ("describes", .array(role.describes.map { .int(Int64($0)) })),
                         ("declaresMotionPhoto", .bool(role.declaresMotionPhoto))])
            })),
            ("primaryItem", motion.primaryItem.map { .int(Int64($0)) } ?? .null),
        ])
    }

    static func range(_ range: Range<Int64>) -> JSONValue {
        .object([("offset", .int(range.lowerBound)), ("length", .int(range.upperBound - range.lowerBound))])
    }

    // MARK: Movies

    static func box(_ box: Box) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("type", .string(box.type.description)), ("offset", .int(box.offset)), ("size", .int(box.size))]
        if !box.children.isEmpty { pairs.append(("children", .array(box.children.map(self.box)))) }
        return .object(pairs)
    }

    static func metadataValue(_ value: MetadataValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .signed(let number): return .int(number)
        case .unsigned(let number): return .uint(number)
        case .float(let number): return .double(number)
        case .floats(let numbers): return .array(numbers.map(JSONValue.double))
        case .data(let bytes): return .string(hex(bytes))
        }
    }

    static func movie(_ movie: Movie) -> [(String, JSONValue)] {
        [
            ("brand", .optional(movie.majorBrand?.description)),
            ("compatibleBrands", .array(movie.compatibleBrands.map { .string($0.description) })),
            ("timescale", .uint(UInt64(movie.timescale))),
            ("duration", .uint(movie.duration)),
            ("durationSeconds", .optional(movie.durationSeconds)),
            ("metadataHandler", .optional(movie.metadataHandler?.description)),
            ("metadata", .array(movie.metadata.map { item in
                .object([
                    ("key", .string(item.key)), ("namespace", .string(item.namespace.description)),
                    ("dataType", .uint(UInt64(item.dataType))), ("dataTypeName", .string(WellKnownType.name(item.dataType))),
                    ("value", metadataValue(item.value)),
                ])
            })),
            ("userData", .array(movie.userData.map { .object([("type", .string($0.type.description)), ("value", metadataValue($0.value))]) })),
            ("tracks", .array(movie.tracks.map { track(movie, $0) })),
            ("boxes", .array(movie.boxes.map(box))),
        ] + (movie.fragments.map { fragments in
            [("fragments", .object([
                ("count", .uint(UInt64(fragments.count))), ("runs", .uint(UInt64(fragments.runs))),
                ("fragmentDuration", fragments.fragmentDuration.map { .uint($0) } ?? .null),
                ("headerDuration", .uint(fragments.headerDuration)), ("randomAccess", .bool(fragments.randomAccess)),
            ]))]
        } ?? [])
    }

    /// An animated GIF: screen, loop count, and each frame's place, delay and disposal.
    static func gif(_ gif: GIFStructure) -> JSONValue {
        .object([
            ("version", .string(gif.version)), ("width", .int(Int64(gif.width))), ("height", .int(Int64(gif.height))),
            ("loopCount", gif.loopCount.map { .int(Int64($0)) } ?? .null), ("complete", .bool(gif.complete)),
            ("frames", .array(gif.frames.map { frame in
                .object([
                    ("offset", .int(Int64(frame.offset))), ("left", .int(Int64(frame.left))), ("top", .int(Int64(frame.top))),
                    ("width", .int(Int64(frame.width))), ("height", .int(Int64(frame.height))), ("delay", .int(Int64(frame.delay))),
                    ("disposal", .int(Int64(frame.disposal))), ("interlaced", .bool(frame.interlaced)),
                    ("transparentIndex", frame.transparentIndex.map { .int(Int64($0)) } ?? .null), ("localPalette", .bool(frame.localPalette != nil)),
                ])
            })),
        ])
    }

    static func track(_ movie: Movie, _ track: Track) -> JSONValue {
        let table = track.sampleTable
        var pairs: [(String, JSONValue)] = [
            ("id", .uint(UInt64(track.id))), ("path", .string(track.path)),
            ("handler", .string(track.handler.description)), ("handlerName", .string(track.handlerName)),
            ("enabled", .bool(track.flags & 1 != 0)), ("flags", .uint(UInt64(track.flags))),
            ("duration", .uint(track.duration)), ("mediaTimescale", .uint(UInt64(track.mediaTimescale))),
            ("mediaDuration", .uint(track.mediaDuration)), ("language", .string(track.language)),
            ("width", .double(track.width)), ("height", .double(track.height)),
            ("editList", track.editList.map { edits in
                .array(edits.map { .object([("segmentDuration", .uint($0.segmentDuration)), ("mediaTime", .int($0.mediaTime)), ("rate", .double($0.rate))]) })
            } ?? .null),
            ("references", .object(track.references.map { ($0.type.description, .array($0.trackIDs.map { .uint(UInt64($0)) })) })),
            ("sampleDescriptions", .array(track.sampleDescriptions.map { entry in
                var fields: [(String, JSONValue)] = [("format", .string(entry.format.description)), ("dataReferenceIndex", .uint(UInt64(entry.dataReferenceIndex)))]
                if let width = entry.width, let height = entry.height {
                    fields += [("width", .uint(UInt64(width))), ("height", .uint(UInt64(height))), ("compressorName", .optional(entry.compressorName))]
                }
                fields.append(("boxes", .array(entry.childTypes.map { .string($0.description) })))
                if entry.format == "mebx" {
                    fields.append(("keys", .array(entry.metadataKeys.map { key in
                        .object([
                            ("localID", .uint(UInt64(key.localID))), ("namespace", .string(key.namespace.description)), ("key", .string(key.key)),
                            ("dataTypeNamespace", key.dataTypeNamespace.map { .uint(UInt64($0)) } ?? .null),
                            ("dataType", key.dataType.map { .uint(UInt64($0)) } ?? .null),
                        ])
                    })))
                }
                return .object(fields)
            })),
            ("sampleCount", .uint(UInt64(table.sampleCount))),
            ("sampleTables", .object([
                ("stts", .array(table.timeToSample.map { .array([.uint(UInt64($0.count)), .uint(UInt64($0.delta))]) })),
                ("ctts", .array(table.compositionOffsets.map { .array([.uint(UInt64($0.count)), .int(Int64($0.offset))]) })),
                ("stss", table.syncSamples.map { .array($0.map { .uint(UInt64($0)) }) } ?? .null),
                ("stsc", .array(table.sampleToChunk.map { .array([.uint(UInt64($0.firstChunk)), .uint(UInt64($0.samplesPerChunk)), .uint(UInt64($0.descriptionIndex))]) })),
                ("sizeBox", .optional(table.sizeBox?.description)),
                ("constantSampleSize", .uint(UInt64(table.constantSampleSize))),
                ("sampleSizes", .array(table.sampleSizes.map { .uint(UInt64($0)) })),
                ("chunkOffsetBox", .optional(table.chunkOffsetBox?.description)),
                ("chunkOffsets", .array(table.chunkOffsets.map(JSONValue.uint))),
            ])),
        ]
        if track.isVideo, let durations = FrameDurations(table, timescale: track.mediaTimescale) {
            pairs.append(("frameDurations", frameDurations(durations)))
        }
        if track.isTimedMetadata {
            pairs.append(("timedMetadata", .array(track.timedMetadata.map { timed in
                .object([
                    ("sampleIndex", .int(Int64(timed.sample.index))), ("offset", .uint(timed.sample.offset)), ("size", .uint(UInt64(timed.sample.size))),
                    ("mediaTime", .uint(timed.sample.decodeTime)), ("duration", .uint(UInt64(timed.sample.duration))),
                    ("seconds", .optional(movie.movieSeconds(forMediaTime: Int64(clamping: timed.sample.decodeTime), in: track))),
                    ("items", .array(timed.items.map { item in
                        .object([
                            ("localID", .uint(UInt64(item.localID))), ("key", .optional(item.key)),
                            ("dataType", item.dataType.map { .uint(UInt64($0)) } ?? .null), ("value", metadataValue(item.value)),
                        ])
                    })),
                ])
            })))
            pairs.append(("timedMetadataError", track.timedMetadataError.map(error) ?? .null))
        }
        return .object(pairs)
    }
}
