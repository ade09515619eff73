import Foundation
import NotesKit

/// The pager that long human output goes through, as git does it (SPEC §4): `NOTES_PAGER`, else
/// `PAGER`, else `less -FRX`, run as `/bin/sh -c '<command>'` with our output on its standard
/// input and the terminal as its own. While it runs, the keys that send signals belong to it.
final class Pager {
    /// The pager command for this environment; nil when paging is off (`NOTES_PAGER=` or `PAGER=`
    /// set empty, or `cat`).
    static func command(environment: [String: String]) -> String? {
        let chosen = environment["NOTES_PAGER"] ?? environment["PAGER"] ?? "less -FRX"
        let trimmed = chosen.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : chosen
    }

    private let pid: pid_t
    private var input: Int32
    private let previousInterrupt: SignalHandler?
    private let previousQuit: SignalHandler?
    private let previousPipe: SignalHandler?

    /// Starts `command`; `less` gets `LESS=FRX` (and `lv` `LV=-c`) unless the user set their own.
    init(command: String, environment: [String: String]) throws {
        var environment = environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        if environment["LV"] == nil { environment["LV"] = "-c" }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Failure("could not start the pager: " + String(cString: strerror(errno))) }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        #if canImport(Darwin)
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addinherit_np(&actions, fd) }
        let closeOthers = Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        _ = posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let closeOthers: Int32 = 0
        #endif
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | closeOthers))
        let words: [String] = ["/bin/sh", "-c", command]
        let argv = words.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        close(fds[0])
        guard started == 0 else {
            close(fds[1])
            throw Failure("could not start the pager '\(command)': " + String(cString: strerror(started)))
        }
        self.pid = pid
        input = fds[1]
        // Ctrl-C and Ctrl-\ are the pager's keys now; a pager that quits early closes the pipe,
        // which only means there is no one left to write to.
        previousInterrupt = signal(SIGINT, SIG_IGN)
        previousQuit = signal(SIGQUIT, SIG_IGN)
        previousPipe = signal(SIGPIPE, SIG_IGN)
    }

    /// Writes text to the pager; false once it is gone.
    @discardableResult
    func write(_ text: String) -> Bool {
        guard input >= 0 else { return false }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { systemWrite(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                close(input)
                input = -1
                return false
            }
            written += n
        }
        return true
    }

    /// Ends the input and waits for the user to quit the pager, then gives the signals back.
    func finish() {
        if input >= 0 { close(input) }
        input = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        signal(SIGINT, previousInterrupt)
        signal(SIGQUIT, previousQuit)
        signal(SIGPIPE, previousPipe)
    }
}

/// `write(2)`, which `Pager.write` hides by its name.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, buffer, count) }
