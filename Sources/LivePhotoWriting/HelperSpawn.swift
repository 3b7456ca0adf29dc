import Foundation
import LivePhotoFormats

/// A helper program started in a process group of its own, its standard output and error
/// read through pipes: lpcheck stops the whole group (a stand-in script's children too), and a
/// terminal's signals reach lpcheck, which ends it. Foundation's `Process` can do neither.
struct HelperSpawn {
    let pid: pid_t
    /// The read ends of the helper's standard output and error (lpcheck's to close).
    let output: FileHandle
    let errors: FileHandle

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `path` with `arguments` and `environment`; standard input is /dev/null.
    init(_ path: String, arguments: [String], environment: [String: String]) throws {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw Refused(description: "no pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw Refused(description: "no pipe: \(String(cString: strerror(errno)))")
        }
        defer { close(outPipe[1]); close(errPipe[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        // Signals lpcheck ignores or blocks are the helper's defaults again.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { PathBytes.withCString($0) { strdup($0) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child = pid_t()
        let status = PathBytes.withCString(path) { file in
            posix_spawn(&child, file, &actions, &attributes, argv + [nil], envp + [nil])
        }
        guard status == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw Refused(description: String(cString: strerror(status)))
        }
        pid = child
        output = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true)
    }

    /// Sends `signal` to the helper's whole group.
    func signalGroup(_ signal: Int32) {
        _ = kill(-pid, signal)
        _ = kill(pid, signal)
    }

    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Waits for the helper to end; then stops what is left of its group.
    func wait() -> Ending {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        _ = kill(-pid, SIGKILL)
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}
