import Foundation
import NotesKit

/// The pager that long human output goes through, as git does it: `NOTES_PAGER`, else
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
        guard pipe(&fds) == 0 else {
            throw CommandError("could not start the pager: " + String(cString: strerror(errno)))
        }
        let pid: pid_t
        do throws(ProcessRunner.SpawnFailure) {
            pid = try ProcessRunner.spawn(
                "/bin/sh", argv: ["/bin/sh", "-c", command], environment: environment,
                streams: [0: .descriptor(fds[0])])
            close(fds[0])
        } catch {
            close(fds[0])
            close(fds[1])
            throw CommandError("could not start the pager '\(command)': \(error.description)")
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
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buffer, count)
}
