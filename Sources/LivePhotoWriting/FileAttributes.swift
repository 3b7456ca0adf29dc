internal import CFileCopy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a replacement file keeps of the original besides its bytes: owner and group (a
/// non-root user can only keep a group it belongs to), the mode (the umask narrowed it at
/// creation) and extended attributes (as far as the file system takes them). Times are set at
/// commit, after the last read. Returns what could not be kept, in words.
enum FileAttributes {
    static func copy(from input: Int32, to output: Int32, owner: uid_t, group: gid_t, mode: mode_t) -> [String] {
        var notes: [String] = []
        if fchown(output, owner, group) != 0 {
            notes.append("owner \(owner):\(group) not kept (\(String(cString: strerror(errno))))")
        }
        // After chown, which clears set-user-ID and set-group-ID bits.
        if fchmod(output, mode) != 0 {
            notes.append("mode \(String(mode, radix: 8)) not kept (\(String(cString: strerror(errno))))")
        }
        notes += copyExtendedAttributes(from: input, to: output)
        return notes
    }

    static func copyExtendedAttributes(from input: Int32, to output: Int32) -> [String] {
        let listSize = lpcheck_list_xattr(input, nil, 0)
        guard listSize > 0 else { return [] }
        var names = [CChar](repeating: 0, count: listSize)
        let got = lpcheck_list_xattr(input, &names, names.count)
        guard got > 0 else { return [] }
        var notes: [String] = []
        var start = 0
        while start < got {
            let end = names[start..<got].firstIndex(of: 0) ?? got
            let name = Array(names[start..<end]) + [0]
            start = end + 1
            let size = lpcheck_get_xattr(input, name, nil, 0)
            guard size >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(size, 1))
            let read = lpcheck_get_xattr(input, name, &value, size)
            guard read >= 0 else { continue }
            if lpcheck_set_xattr(output, name, value, read) != 0 {
                let label = String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                notes.append("extended attribute \(label) not kept (\(String(cString: strerror(errno))))")
            }
        }
        return notes
    }
}
