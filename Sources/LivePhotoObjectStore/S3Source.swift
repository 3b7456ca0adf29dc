import Foundation
import LivePhotoFormats

/// One object read through ranged GETs: the `ByteSource` the readers use for `s3://` paths.
///
/// The block plan (docs/scale.md): the first GET takes the object's head (16 KiB for a still,
/// 4 KiB for a movie) and learns its size and ETag; every later GET carries `If-Match` with that
/// ETag, so an object replaced meanwhile is refused, never read half old and half new. A read
/// the held bytes cannot serve fetches only what is missing, with read-ahead (`plan`).
public final class S3Source: ByteSource {
    public let client: S3Client
    public let bucket: String
    public let key: String
    public let size: Int64
    /// The object's ETag (from the listing or the first GET).
    public let etag: String?
    /// The first GET that failed after the head, as the readers were told (they may have
    /// caught it): `MediaFile.inspect` makes the object unread.
    public private(set) var readFailure: ParseError?
    public private(set) var stats = ReadStats()
    /// GETs this object took and the bytes they brought.
    public private(set) var gets = 0
    public private(set) var fetchedBytes: Int64 = 0
    /// Bytes held, as sorted, disjoint, non-adjacent ranges.
    private var held: [(start: Int64, bytes: [UInt8])] = []

    static let smallRead = 4096
    static let filledWindow = 16_384
    static let gapFill: Int64 = 64 << 10
    static let fetchToEndBelow: Int64 = 64 << 10

    /// The head GET's size for a key: movies are read at their end (`moov`), stills at their head.
    static func headSize(_ key: String) -> Int64 {
        let lower = key.lowercased()
        return [".mov", ".mp4", ".m4v", ".qt"].contains(where: lower.hasSuffix) ? 4096 : 16_384
    }

    /// Opens the object with its head GET. `etag` (from a listing) refuses another version;
    /// `listedSize` (from a listing) is the size the server must then agree with: an answer that
    /// gives the object another size is the server's fault, never the file's damage.
    public init(client: S3Client, bucket: String, key: String, etag: String? = nil, listedSize: Int64? = nil) throws {
        (self.client, self.bucket, self.key) = (client, bucket, key)
        let what = "s3://\(bucket)/\(key)"
        let head: S3Client.Response
        do {
            head = try client.get(bucket: bucket, key: key, range: 0..<Self.headSize(key), ifMatch: etag)
        } catch let error as S3Error where error.status == 416 {
            // Only an empty object has no byte 0.
            if let listedSize, listedSize > 0 {
                throw S3Error(what: what, status: 416, code: error.code,
                              message: "the server refused byte 0 (416) of an object listed with \(listedSize) bytes", retryable: false)
            }
            (size, self.etag) = (0, etag)
            gets = 1
            return
        }
        gets = 1
        fetchedBytes = Int64(head.body.count)
        if let etag, let answered = head.headers["etag"], !Self.sameETag(answered, etag) {
            throw S3Error(what: what, status: head.status, code: "ETagChanged",
                          message: "the server answered with ETag \(answered) for the object listed with \(etag) (it ignored If-Match)", retryable: false)
        }
        self.etag = etag ?? head.headers["etag"]
        let total: Int64
        if head.status == 206 {
            if let listedSize, let claimed = head.totalSize, claimed != listedSize {
                throw S3Error(what: what, status: head.status, code: "SizeChanged",
                              message: "the server says the object has \(claimed) bytes; its listing said \(listedSize)", retryable: false)
            }
            guard let claimed = head.totalSize, claimed >= 0, claimed >= Int64(head.body.count) else {
                throw S3Error(what: what, status: 206, code: "BadRange", message: "a partial answer without the object's size", retryable: false)
            }
            total = claimed
        } else {
            // The whole object (a server that ignores Range, within the head's size).
            total = Int64(head.body.count)
        }
        if let listedSize, listedSize != total {
            throw S3Error(what: what, status: head.status, code: "SizeChanged",
                          message: "the server says the object has \(total) bytes; its listing said \(listedSize)", retryable: false)
        }
        size = total
        if !head.body.isEmpty { held = [(0, head.body)] }
    }

    public func read(at offset: Int64, count: Int) throws -> [UInt8] {
        do {
            return try fetch(at: offset, count: count)
        } catch let error as ParseError where error.code == .io {
            if readFailure == nil { readFailure = error }
            throw error
        }
    }

    private func fetch(at offset: Int64, count: Int) throws -> [UInt8] {
        try checkRange(offset, count, path: "s3://\(bucket)/\(key)")
        if count == 0 { return [] }
        let end = offset + Int64(count)
        if let bytes = served(offset, end) {
            stats.record(count)
            return bytes
        }
        let (start, stop) = plan(offset, count)
        let response: S3Client.Response
        do {
            response = try client.get(bucket: bucket, key: key, range: start..<stop, ifMatch: etag)
        } catch let error as S3Error {
            throw ParseError(.io, error.description, offset: start)
        }
        gets += 1
        fetchedBytes += Int64(response.body.count)
        if let etag, let answered = response.headers["etag"], !Self.sameETag(answered, etag) {
            throw ParseError(.io, "s3://\(bucket)/\(key): the ETag changed between reads (\(etag), then \(answered)): the server ignores If-Match or the object is being replaced", offset: start)
        }
        if response.status == 206, let total = response.totalSize, total != size {
            throw ParseError(.io, "s3://\(bucket)/\(key): the server says the object has \(total) bytes, after \(size)", offset: start)
        }
        let body = response.status == 206 ? response.body : Array(response.body.dropFirst(Int(min(start, Int64(response.body.count)))).prefix(Int(stop - start)))
        guard response.status != 206 || response.rangeStart == start, body.count == Int(stop - start) else {
            throw ParseError(.io, "s3://\(bucket)/\(key): asked for \(stop - start) bytes at \(start), got \(body.count)", offset: start)
        }
        insert(start, body)
        guard let bytes = served(offset, end) else {
            throw ParseError(.io, "s3://\(bucket)/\(key): the bytes at \(offset) were not served", offset: offset)
        }
        stats.record(count)
        return bytes
    }

    /// Whether two ETags name one version: quotes and a weak mark (`W/`) aside, as services
    /// differ in writing them between listings and answers.
    static func sameETag(_ a: String, _ b: String) -> Bool {
        func bare(_ tag: String) -> Substring {
            var text = Substring(tag.trimmingCharacters(in: .whitespaces))
            if text.hasPrefix("W/") { text = text.dropFirst(2) }
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
            return text
        }
        return bare(a) == bare(b)
    }

    /// The range one GET fetches for a read the held bytes cannot serve: from its first missing
    /// byte (or from the end of held bytes at most `gapFill` before it: a HEIC's `meta` payload,
    /// read after the box header that follows it) to its end, with read-ahead: for a small read
    /// 4 KiB (16 KiB after a filled gap: the items after `meta`), or to the end of the object
    /// when at most 64 KiB remain and nothing after is held (a camera movie's `moov`); for a
    /// large read 4 KiB. Never further than the next held bytes.
    func plan(_ offset: Int64, _ count: Int) -> (start: Int64, stop: Int64) {
        let end = offset + Int64(count)
        var start = offset
        var filled = false
        if let segment = held.first(where: { $0.start <= offset && offset < $0.start + Int64($0.bytes.count) }) {
            start = segment.start + Int64(segment.bytes.count)
        } else if let segment = held.last(where: { $0.start + Int64($0.bytes.count) <= offset }),
                  offset - (segment.start + Int64(segment.bytes.count)) <= Self.gapFill {
            start = segment.start + Int64(segment.bytes.count)
            filled = true
        }
        let heldAfter = held.first(where: { $0.start >= end })?.start
        var stop: Int64
        if count < Self.smallRead {
            stop = heldAfter == nil && size - offset <= Self.fetchToEndBelow ? size : max(end, ahead(offset, Int64(filled ? Self.filledWindow : Self.smallRead)))
        } else {
            stop = ahead(end, Int64(Self.smallRead))
        }
        stop = min(stop, size, heldAfter ?? size)
        return (start, max(stop, end))
    }

    /// `base + count`, or the object's end when that is nearer: a size a server claims may be
    /// near `Int64.max`, and read-ahead must not overflow past it.
    private func ahead(_ base: Int64, _ count: Int64) -> Int64 { base > size - count ? size : base + count }

    /// The bytes of `offset..<end` when one held range covers them.
    private func served(_ offset: Int64, _ end: Int64) -> [UInt8]? {
        for segment in held where segment.start <= offset && end <= segment.start + Int64(segment.bytes.count) {
            let from = Int(offset - segment.start)
            return Array(segment.bytes[from..<(from + Int(end - offset))])
        }
        return nil
    }

    /// Adds fetched bytes and merges ranges that touch or overlap.
    private func insert(_ start: Int64, _ bytes: [UInt8]) {
        held.append((start, bytes))
        held.sort { $0.start < $1.start }
        var merged: [(start: Int64, bytes: [UInt8])] = []
        for segment in held {
            if var last = merged.last, segment.start <= last.start + Int64(last.bytes.count) {
                let overlap = Int(last.start + Int64(last.bytes.count) - segment.start)
                if overlap < segment.bytes.count { last.bytes += segment.bytes[overlap...] }
                merged[merged.count - 1] = last
            } else {
                merged.append(segment)
            }
        }
        held = merged
    }
}
