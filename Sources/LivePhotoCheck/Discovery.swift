#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePhotoFormats
import Foundation

/// Finds candidate files below folders: recursive, survives symbolic-link loops and unreadable
/// folders, skips hidden entries (lpcheck's own backups live in the hidden `.lpcheck-backup`).
public struct Discovery {
    public struct Result: Sendable {
        /// Regular files found, in a stable order.
        public var files: [String]
        /// Folders or files that could not be opened, with the reason.
        public var problems: [(path: String, reason: String)]
        /// Hidden files (names starting with a dot) that were not read, so that they are named
        /// rather than silently skipped. Hidden folders are not entered and not listed.
        public var hidden: [String] = []
        /// With `stamping`: each file's stamp as the walk found it (nil when it could not be
        /// taken), in the order of `files`; else empty.
        public var stamps: [FileStamp?] = []

        public init(files: [String] = [], problems: [(path: String, reason: String)] = [], hidden: [String] = []) {
            self.files = files
            self.problems = problems
            self.hidden = hidden
        }
    }

    /// Name of the hidden folder in which `repair` keeps backups.
    public static let backupFolder = ".lpcheck-backup"

    /// Paths excluded by glob-like patterns (`*` within a name, `**` across folders).
    public var exclude: [String] = [] {
        didSet { excluding = Glob.Set(exclude) }
    }
    /// `exclude` compiled once, each distinct pattern once (a configuration's aliases repeat one).
    var excluding = Glob.Set([])
    /// When not empty, the files a walk keeps are those matching one of these patterns (folders
    /// are walked whatever their names; `--include`, and a quoted glob given as a path).
    public var include: [String] = [] {
        didSet { including = Glob.Set(include) }
    }
    var including = Glob.Set([])

    /// Whether the walk takes each file's stamp (`Result.stamps`): folder by folder (`Stamper`),
    /// each file by its name in its open folder (no path to look up again); with more than one
    /// job on other threads while the walk goes on.
    public var stamping = false
    public var jobs = 1

    public init(exclude: [String] = [], include: [String] = [], stamping: Bool = false, jobs: Int = 1) {
        self.exclude = exclude
        excluding = Glob.Set(exclude)
        self.include = include
        including = Glob.Set(include)
        self.stamping = stamping
        self.jobs = jobs
    }

    /// Files of one folder whose stamps are still to be taken: (index in `files`, name).
    struct Unstamped {
        var folder: String
        var files: [(index: Int, name: String)]
    }

    public func find(_ roots: [String]) -> Result {
        var result = Result(files: [], problems: [])
        var visited = Set<DirectoryID>()
        let stamper = Stamper(jobs: jobs)
        for root in roots {
            var info = stat()
            guard PathBytes.status(root, &info) == 0 else {
                result.problems.append((root, String(cString: strerror(errno))))
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                walk(root, info: info, visited: &visited, into: &result, stamper: stamper)
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                result.files.append(root)
                if stamping { result.stamps.append(FileStamp(info)) }
            } else {
                // Given by name, and neither: said, never read (a FIFO's read waits for a writer).
                let kind = [S_IFIFO: "a FIFO", S_IFCHR: "a character device", S_IFBLK: "a block device", S_IFSOCK: "a socket"][info.st_mode & S_IFMT] ?? "no regular file"
                result.problems.append((root, "\(kind), not a file or folder lpcheck reads"))
            }
        }
        if stamping { stamper.finish(into: &result) }
        return result
    }

    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Takes the stamps of the walk's files folder by folder: with more than one job, each
    /// folder's as soon as the walk has listed it, on other threads while the walk goes on;
    /// with one, after the walk. The walk's own thread only lists.
    final class Stamper: @unchecked Sendable {
        private let jobs: Int
        private let group = DispatchGroup()
        private let queue = DispatchQueue(label: "lpcheck.stamps", attributes: .concurrent)
        private let lock = NSLock()
        /// Each folder's files and their stamps once taken (nil until then, or when one cannot be).
        private var folders: [(files: Unstamped, stamps: [FileStamp?])] = []

        init(jobs: Int) { self.jobs = jobs }

        func add(_ files: Unstamped) {
            lock.lock()
            let slot = folders.count
            folders.append((files, []))
            lock.unlock()
            guard jobs > 1 else { return }
            queue.async(group: group) {
                let stamps = Self.stamps(of: files)
                self.lock.lock()
                self.folders[slot].stamps = stamps
                self.lock.unlock()
            }
        }

        /// Waits for the stamps and puts each in its file's slot of `result.stamps`.
        func finish(into result: inout Result) {
            group.wait()
            lock.lock()
            defer { lock.unlock() }
            for index in folders.indices {
                if jobs <= 1 { folders[index].stamps = Self.stamps(of: folders[index].files) }
                for (slot, file) in folders[index].files.files.enumerated()
                where result.stamps.indices.contains(file.index) && folders[index].stamps.indices.contains(slot) {
                    result.stamps[file.index] = folders[index].stamps[slot]
                }
            }
        }

        /// The stamp of each file of one folder, by its name in the open folder.
        static func stamps(of folder: Unstamped) -> [FileStamp?] {
            let descriptor = PathBytes.withCString(folder.folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            guard descriptor >= 0 else { return Array(repeating: nil, count: folder.files.count) }
            defer { close(descriptor) }
            return folder.files.map { file in
                var info = stat()
                // stat follows links, as the walk does.
                guard PathBytes.withCString(file.name, { fstatat(descriptor, $0, &info, 0) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
                return FileStamp(info)
            }
        }
    }

    private func walk(_ root: String, info rootInfo: stat, visited: inout Set<DirectoryID>, into result: inout Result, stamper: Stamper) {
        // Depth-first with an explicit stack: no recursion limit on deep trees.
        var stack: [(String, stat)] = [(root, rootInfo)]
        while let (folder, info) = stack.popLast() {
            let id = DirectoryID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard visited.insert(id).inserted else { continue }
            guard let handle = PathBytes.withCString(folder, { opendir($0) }) else {
                result.problems.append((folder, String(cString: strerror(errno))))
                continue
            }
            var names: [(name: String, type: UInt8)] = []
            while let entry = readdir(handle) {
                // Names are bytes: kept exactly, even when they are not UTF-8.
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in PathBytes.string(UnsafeRawBufferPointer(rebasing: raw.prefix { $0 != 0 })) }
                if name == "." || name == ".." { continue }
                names.append((name, entry.pointee.d_type))
            }
            closedir(handle)
            var folders: [(String, stat)] = []
            var toStamp = Unstamped(folder: folder, files: [])
            defer { if !toStamp.files.isEmpty { stamper.add(toStamp) } }
            // The folder's bytes once, and whether a slash goes between it and each name.
            var folderText = folder
            let separated = folderText.withUTF8 { $0.last != UInt8(ascii: "/") }
            // In name order: the indices are sorted, not the entries (moving a name and its type
            // cost more than comparing them).
            let order = names.withUnsafeBufferPointer { entries in (0..<entries.count).sorted { entries[$0].name < entries[$1].name } }
            for slot in order {
                let (name, type) = names[slot]
                let path = Self.joined(&folderText, separated: separated, name)
                if isExcluded(path) { continue }
                if name.hasPrefix(".") {
                    // Hidden folders (repair's backups among them) are not entered; hidden files are named.
                    if type == UInt8(DT_REG) { result.hidden.append(path) }
                    continue
                }
                // The directory entry already says "regular file" for most entries: no stat needed.
                if type == UInt8(DT_REG) {
                    if isLeftOut(path) { continue }
                    if stamping {
                        toStamp.files.append((result.files.count, name))
                        result.stamps.append(nil)
                    }
                    result.files.append(path)
                    continue
                }
                var entryInfo = stat()
                // stat follows links: a link to a folder is walked once (loops end at `visited`).
                guard PathBytes.status(path, &entryInfo) == 0 else {
                    result.problems.append((path, String(cString: strerror(errno))))
                    continue
                }
                switch entryInfo.st_mode & S_IFMT {
                case S_IFDIR: folders.append((path, entryInfo))
                case S_IFREG:
                    if isLeftOut(path) { continue }
                    result.files.append(path)
                    if stamping { result.stamps.append(FileStamp(entryInfo)) }
                default: break
                }
            }
            stack.append(contentsOf: folders.reversed())
        }
    }

    /// `folder`, a slash when `separated`, and `name`: made in one allocation from their bytes
    /// (the bytes of two strings, one after the other, are the bytes of the string they make).
    static func joined(_ folder: inout String, separated: Bool, _ name: String) -> String {
        var name = name
        return folder.withUTF8 { head in
            name.withUTF8 { tail in
                let count = head.count + (separated ? 1 : 0) + tail.count
                return String(unsafeUninitializedCapacity: count) { buffer in
                    let raw = UnsafeMutableRawBufferPointer(buffer)
                    raw.copyMemory(from: UnsafeRawBufferPointer(head))
                    var at = head.count
                    if separated {
                        raw[at] = UInt8(ascii: "/")
                        at += 1
                    }
                    UnsafeMutableRawBufferPointer(rebasing: raw[at...]).copyMemory(from: UnsafeRawBufferPointer(tail))
                    return at + tail.count
                }
            }
        }
    }

    /// Paths listed by hand (`scan --files-from`) sorted into what a walk would have made of
    /// them: files, hidden files (named, not read), and paths a walk never reaches (inside a
    /// hidden folder, excluded), which are dropped.
    public func listed(_ paths: [String]) -> Result {
        var problems: [(path: String, reason: String)] = []
        var result = sorted(paths.compactMap { path -> (path: String, stamp: FileStamp?)? in
            // Paths a walk never reaches are dropped before anything is asked of them.
            guard walkReaches(path) != nil else { return nil }
            var info = stat()
            guard PathBytes.status(path, &info) == 0 else {
                problems.append((path, String(cString: strerror(errno))))
                return nil
            }
            return (info.st_mode & S_IFMT) == S_IFREG ? (path, nil) : nil
        }, stamped: false)
        result.problems = problems
        return result
    }

    /// Files named by a listing (objects below an `s3://` prefix, with the stamps the listing
    /// gave) sorted into what a walk makes of them: files in walk order, hidden files named,
    /// paths inside hidden folders or excluded dropped. `stamped`: keep the stamps (`Result.stamps`).
    public func sorted(_ listing: [(path: String, stamp: FileStamp?)], stamped: Bool = true) -> Result {
        var result = Result(files: [], problems: [])
        var files: [(path: String, stamp: FileStamp?)] = []
        for entry in listing {
            guard let hidden = walkReaches(entry.path) else { continue }
            if hidden { result.hidden.append(entry.path) } else { files.append(entry) }
        }
        let order = Self.walkOrdered(files.count) { files[$0].path }
        result.files = order.map { files[$0].path }
        if stamped { result.stamps = order.map { files[$0].stamp } }
        let hidden = result.hidden
        result.hidden = Self.walkOrdered(hidden.count) { hidden[$0] }.map { hidden[$0] }
        return result
    }

    /// Nil when a walk never lists `path` (excluded, inside a hidden folder, no name); else
    /// whether it is a hidden file.
    func walkReaches(_ path: String) -> Bool? {
        guard !isExcluded(path), !isLeftOut(path) else { return nil }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." && $0 != ".." }
        guard let name = components.last, !components.dropLast().contains(where: { $0.hasPrefix(".") }) else { return nil }
        return name.hasPrefix(".")
    }

    /// Indices of `count` paths in the order a walk lists them: a folder's files by name, then its
    /// subfolders by name. Equal paths keep their order.
    public static func walkOrdered(_ count: Int, path: (Int) -> String) -> [Int] {
        (0..<count).sorted { walkPrecedes(path($0), path($1)) }
    }

    /// Whether a walk lists `a` before `b`: folder by folder, the first differing folder decides;
    /// when one path's folders all lead the other's, its file (in the shallower folder) comes
    /// first; in the same folder, the name decides. Compared in place, component by component:
    /// splitting every path into an array first raised the peak memory of `check --facts`.
    static func walkPrecedes(_ a: String, _ b: String) -> Bool {
        let slash = UInt8(ascii: "/")
        var left = a.utf8.startIndex, right = b.utf8.startIndex
        while true {
            let leftEnd = a.utf8[left...].firstIndex(of: slash), rightEnd = b.utf8[right...].firstIndex(of: slash)
            switch (leftEnd, rightEnd) {
            case let (leftEnd?, rightEnd?):
                let x = a[left..<leftEnd], y = b[right..<rightEnd]
                if x != y { return x < y }
                left = a.utf8.index(after: leftEnd)
                right = b.utf8.index(after: rightEnd)
            case (nil, nil):
                return a[left...] < b[right...]
            case (nil, _?):
                return true
            case (_?, nil):
                return false
            }
        }
    }

    func isExcluded(_ path: String) -> Bool {
        excluding.matches(path)
    }

    /// A file no include pattern matches, when there are some.
    func isLeftOut(_ path: String) -> Bool {
        !include.isEmpty && !including.matches(path)
    }
}
