import Foundation
import NotesKit
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

// Racing `notes` processes against each other: processes, not threads, made to overlap
// by FIFOs instead of sleeps, and the vault audited after each run.

/// How many times each race runs, and from which seeds. `NOTES_RACE_ITERATIONS` changes the count
/// (`NOTES_RACE_ITERATIONS=500 swift test --filter RaceTests` for a long run) and
/// `NOTES_RACE_SEED` the base seed; a failure names its seed, and
/// `NOTES_RACE_SEED=<seed> NOTES_RACE_ITERATIONS=1` runs that one again.
enum RaceRuns {
    static func seeds(_ race: String, _ fallback: Int) -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["NOTES_RACE_ITERATIONS"].flatMap { Int($0) } ?? fallback
        guard let text = environment["NOTES_RACE_SEED"] else {
            // Each race its own seeds, fixed, so a failure here is a failure everywhere.
            let base = race.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) {
                ($0 ^ UInt64($1)) &* 0x100_0000_01B3
            }
            return (0..<UInt64(max(count, 1))).map { base &+ $0 }
        }
        let hex = text.hasPrefix("0x")
        let base = UInt64(hex ? String(text.dropFirst(2)) : text, radix: hex ? 16 : 10) ?? 0
        return (0..<UInt64(max(count, 1))).map { base &+ $0 }
    }
}

/// The FIFOs where racing processes meet the test. A scripted editor reports `ready <name>` on
/// one shared FIFO once `notes` has loaded the note and started it, then blocks on a gate FIFO of
/// its own until the test releases it, then appends its line to the text. A command started
/// `gated` blocks on its gate before `notes` starts; one started `piped` has a FIFO for standard
/// input and blocks reading it. So a test can hold any number of processes at a known point and
/// release them one by one or all at once, with no sleep anywhere.
final class Race {
    let sandbox: Sandbox
    /// For messages: which run this is.
    let label: String
    let folder: String
    let editor: String
    private let events: Int32
    private var received: [UInt8] = []
    private(set) var racers: [Racer] = []

    init(_ s: Sandbox, label: String) throws {
        sandbox = s
        self.label = label
        folder = s.root.path + "/race"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let eventsPath = folder + "/events"
        guard mkfifo(eventsPath, 0o600) == 0 else { throw Race.error("mkfifo \(eventsPath)") }
        // Held open for reading and writing, so an editor's open for writing never waits.
        events = open(eventsPath, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard events >= 0 else { throw Race.error("open \(eventsPath)") }
        editor = try s.script(
            "race-editor.sh",
            #"""
            printf 'ready %s\n' "$RACE_NAME" > "$RACE_EVENTS"
            read go < "$RACE_GATE"
            printf '%s\n' "$RACE_LINE" >> "$1"
            """#)
    }

    deinit {
        for racer in racers { racer.kill() }
        close(events)
    }

    static func error(_ what: String) -> Error {
        let reason = String(cString: strerror(errno))
        return CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: what + ": " + reason])
    }

    /// A new gate FIFO for the racer `name`.
    func gate(_ name: String) throws -> String {
        let path = folder + "/gate-" + name
        guard mkfifo(path, 0o600) == 0 else { throw Race.error("mkfifo \(path)") }
        return path
    }

    /// The sandbox's environment with what a racer needs to report and wait.
    func environment(_ name: String, gate: String?, extra: [String: String]) -> [String: String] {
        var env = sandbox.baseEnvironment()
        env["RACE_NAME"] = name
        env["RACE_EVENTS"] = folder + "/events"
        if let gate { env["RACE_GATE"] = gate }
        env.merge(extra) { $1 }
        return env
    }

    /// Starts `argv` as the racer `name`, its output kept in files of the race folder.
    func spawn(
        _ name: String, _ argv: [String], env: [String: String], stdin: ChildStream,
        gate: String?, line: String?, writer: Int32? = nil
    ) throws -> Racer {
        let out = folder + "/" + name + ".out"
        let err = folder + "/" + name + ".err"
        let pid = try spawnChild(
            argv, environment: env, cwd: sandbox.root.path,
            streams: [
                stdin, .open(out, flags: O_WRONLY | O_CREAT | O_TRUNC),
                .open(err, flags: O_WRONLY | O_CREAT | O_TRUNC),
            ])
        let racer = Racer(
            name: name, pid: pid, outPath: out, errPath: err, gate: gate, line: line, writer: writer)
        racers.append(racer)
        return racer
    }

    /// `notes edit id` with the scripted editor, which appends `line` when released.
    func edit(_ name: String, _ id: String, line: String, env: [String: String] = [:]) throws -> Racer {
        let gate = try gate(name)
        var extra = env
        extra["NOTES_EDITOR"] = editor
        extra["RACE_LINE"] = line
        return try spawn(
            name, [Sandbox.binary, "edit", id], env: environment(name, gate: gate, extra: extra),
            stdin: .open("/dev/null", flags: O_RDONLY), gate: gate, line: line)
    }

    /// `notes arguments…`, started once released.
    func gated(_ name: String, _ arguments: [String], env: [String: String] = [:]) throws -> Racer {
        let gate = try gate(name)
        let argv =
            ["/bin/sh", "-c", #"read go < "$RACE_GATE" && exec "$@""#, "sh", Sandbox.binary] + arguments
        return try spawn(
            name, argv, env: environment(name, gate: gate, extra: env),
            stdin: .open("/dev/null", flags: O_RDONLY), gate: gate, line: nil)
    }

    /// `notes arguments…` started now, with a FIFO as standard input that gets `text` (then its
    /// end) when released.
    func piped(
        _ name: String, _ arguments: [String], text: String, line: String? = nil,
        env: [String: String] = [:]
    ) throws -> Racer {
        let path = folder + "/stdin-" + name
        guard mkfifo(path, 0o600) == 0 else { throw Race.error("mkfifo \(path)") }
        // Open at both ends here, so the child's open for reading does not wait for a writer.
        let writer = open(path, O_RDWR | O_CLOEXEC)
        guard writer >= 0 else { throw Race.error("open \(path)") }
        let racer = try spawn(
            name, [Sandbox.binary] + arguments, env: environment(name, gate: nil, extra: env),
            stdin: .open(path, flags: O_RDONLY), gate: nil, line: line, writer: writer)
        racer.pendingInput = Array(text.utf8)
        return racer
    }

    /// `notes arguments…` started now, with `text` as standard input.
    func start(
        _ name: String, _ arguments: [String], stdin text: String = "",
        env: [String: String] = [:]
    ) throws -> Racer {
        let path = folder + "/stdin-" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try spawn(
            name, [Sandbox.binary] + arguments, env: environment(name, gate: nil, extra: env),
            stdin: .open(path, flags: O_RDONLY), gate: nil, line: nil)
    }

    /// `notes arguments…`, run to its end now.
    func run(_ arguments: [String], env: [String: String] = [:]) throws -> RunResult {
        let racer = try spawn(
            "run-\(racers.count)", [Sandbox.binary] + arguments,
            env: environment("run", gate: nil, extra: env),
            stdin: .open("/dev/null", flags: O_RDONLY), gate: nil, line: nil)
        return racer.finish()
    }

    /// Waits until the editor of `racer` is open (its note loaded); false, with an issue recorded,
    /// when the racer ended first or a minute passed.
    @discardableResult
    func ready(_ racer: Racer, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        let wanted = Array("ready \(racer.name)\n".utf8)
        while true {
            if let range = find(wanted, in: received) {
                received.removeSubrange(range)
                return true
            }
            if racer.poll() || Date() > deadline {
                Issue.record(
                    "\(label): \(racer.name) never opened its editor: \(racer.finish())",
                    sourceLocation: sourceLocation)
                return false
            }
            var fds = [pollfd(fd: events, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, 50) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(events, &buffer, buffer.count)
                if count > 0 { received += buffer[..<count] }
            }
        }
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).lazy.map { $0..<($0 + needle.count) }
            .first { haystack[$0].elementsEqual(needle) }
    }

    /// How `/proc/<pid>/syscall` begins while a process waits in `read` on descriptor 0; nil where
    /// that cannot be seen (not Linux, or no such file).
    static let readingStandardInput: String? = {
        #if os(Linux) && arch(x86_64)
            let read: String? = "0 0x0 "
        #elseif os(Linux) && arch(arm64)
            let read: String? = "63 0x0 "
        #else
            let read: String? = nil
        #endif
        return FileManager.default.fileExists(atPath: "/proc/self/syscall") ? read : nil
    }()

    /// Waits until `racer`, started `piped`, is blocked reading its standard input — so it has
    /// loaded its note. Only where `readingStandardInput` is known.
    func waitUntilReadingStandardInput(_ racer: Racer, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let read = Race.readingStandardInput else { return }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !racer.poll() {
            let text = (try? String(contentsOfFile: "/proc/\(racer.pid)/syscall", encoding: .utf8)) ?? ""
            if text.hasPrefix(read) { return }
            usleep(1000)
        }
        Issue.record(
            "\(label): \(racer.name) never read its standard input: \(racer.finish())",
            sourceLocation: sourceLocation)
    }

    /// An edit of the note `id`, whose body is `body`, that adds `line` once released: by the
    /// scripted editor, or with `standardInput` as a script does it, `edit id -` given the whole
    /// new text — the latter only where it can be seen waiting for that text (else the editor).
    /// Returns once the racer has loaded the note.
    func startEdit(_ name: String, _ id: String, body: String, line: String, standardInput: Bool) throws
        -> Racer
    {
        guard standardInput && Race.readingStandardInput != nil else {
            let racer = try edit(name, id, line: line)
            ready(racer)
            return racer
        }
        let racer = try piped(name, ["edit", id, "-"], text: body + line + "\n", line: line)
        waitUntilReadingStandardInput(racer)
        return racer
    }

    /// Lets `racers` go, as nearly at once as can be: every gate is opened first (each once its
    /// racer waits at it), then each gets its word, in the order given.
    func release(_ racers: [Racer], sourceLocation: SourceLocation = #_sourceLocation) {
        var opened: [(Racer, Int32)] = []
        for racer in racers {
            if let writer = racer.writer {
                opened.append((racer, writer))
                continue
            }
            guard let gate = racer.gate else { continue }
            let deadline = Date().addingTimeInterval(60)
            while true {
                // Non-blocking: ENXIO until the racer has its gate open for reading.
                let fd = open(gate, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if fd >= 0 {
                    opened.append((racer, fd))
                    break
                }
                if racer.poll() || Date() > deadline {
                    Issue.record(
                        "\(label): \(racer.name) never reached its gate: \(racer.finish())",
                        sourceLocation: sourceLocation)
                    break
                }
                usleep(500)
            }
        }
        for (racer, fd) in opened {
            let bytes = racer.writer == nil ? Array("go\n".utf8) : racer.pendingInput
            var done = 0
            while done < bytes.count {
                let n = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n > 0 { done += n } else if errno != EINTR && errno != EAGAIN { break }
            }
            close(fd)
            racer.writer = nil
        }
    }

    /// Waits for every racer still running; their results by name.
    func finishAll() -> [String: RunResult] {
        Dictionary(uniqueKeysWithValues: racers.map { ($0.name, $0.finish()) })
    }
}

/// One racing process.
final class Racer: CustomStringConvertible {
    let name: String
    let pid: pid_t
    let outPath: String
    let errPath: String
    let gate: String?
    /// The line its scripted editor (or its standard input) adds.
    let line: String?
    /// The write end of its standard-input FIFO, until released.
    var writer: Int32?
    var pendingInput: [UInt8] = []
    private var status: Int32?

    init(
        name: String, pid: pid_t, outPath: String, errPath: String, gate: String?, line: String?,
        writer: Int32?
    ) {
        self.name = name
        self.pid = pid
        self.outPath = outPath
        self.errPath = errPath
        self.gate = gate
        self.line = line
        self.writer = writer
    }

    var description: String { name }

    /// Waits until it stops itself (SIGSTOP) or ends; whether it stopped.
    func waitStopped() -> Bool {
        guard status == nil else { return false }
        let raw = waitChild(pid, untraced: true)
        if raw & 0xFF == 0x7F { return true }
        status = exitStatus(raw)
        return false
    }

    /// Whether it has ended (reaping it if so).
    func poll() -> Bool {
        if status != nil { return true }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid { status = exitStatus(raw) }
        return status != nil
    }

    /// Waits for its end (killing it after a minute, so a hang fails instead of stalling the suite).
    func finish() -> RunResult {
        if status == nil {
            let pid = pid
            let watchdog = DispatchWorkItem { sendSignal(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
            status = exitStatus(waitChild(pid))
            watchdog.cancel()
        }
        if let writer { close(writer) }
        writer = nil
        return RunResult(
            status: status ?? -1,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "<not UTF-8>",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "<not UTF-8>")
    }

    /// Ends it now, if it still runs.
    func kill() {
        guard !poll() else { return }
        sendSignal(pid, SIGKILL)
        _ = finish()
    }
}

/// `kill(2)`, under a name the racers' own `kill()` does not hide.
func sendSignal(_ pid: pid_t, _ number: Int32) { _ = kill(pid, number) }

/// The vault as the files have it after a race, and the promises every outcome must keep.
struct VaultAudit {
    struct File {
        var path: String
        var bytes: [UInt8]
        var inode: UInt64
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Every note file of the vault (conflict copies included), by vault-relative path.
    var notes: [File] = []
    /// Every note file in the trash, by path inside the trash.
    var trashed: [File] = []
    /// Trash entries without a readable record or file.
    var brokenEntries: [String] = []
    /// Temp files anywhere in the vault, and editor folders left in TMPDIR.
    var leftovers: [String] = []

    init(_ s: Sandbox) {
        let fm = FileManager.default
        let root = s.vault
        for path in (fm.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted() {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".notes-tmp-") { leftovers.append(path) }
            var st = stat()
            guard lstat(root + "/" + path, &st) == 0, st.st_mode & S_IFMT == S_IFREG,
                name.hasSuffix(".md") || name.hasSuffix(".markdown")
            else { continue }
            let bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: root + "/" + path))) ?? Data())
            let file = File(path: path, bytes: bytes, inode: UInt64(st.st_ino))
            if path.hasPrefix(".notes/trash/") {
                trashed.append(file)
            } else if !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                notes.append(file)
            }
        }
        let trash = root + "/.notes/trash"
        for entry in ((try? fm.contentsOfDirectory(atPath: trash)) ?? []).sorted() {
            let files = (fm.enumerator(atPath: trash + "/" + entry)?.allObjects as? [String]) ?? []
            if !files.contains("deleted.json") || !files.contains(where: { $0.hasSuffix(".md") }) {
                brokenEntries.append(entry)
            }
        }
        for name in ((try? fm.contentsOfDirectory(atPath: s.root.path)) ?? [])
        where
            name.hasPrefix("notes-edit-") || name.hasPrefix("notes-unsaved-")
        {
            leftovers.append(name)
        }
    }

    /// The vault notes and trashed notes holding `line` as a line of their own.
    func places(of line: String) -> [String] {
        (notes + trashed).filter { file in
            file.text.split(separator: "\n", omittingEmptySubsequences: false).contains(Substring(line))
        }.map(\.path)
    }

    /// The vault note at `path`.
    func note(_ path: String) -> File? { notes.first { $0.path == path } }

    /// MyNotes's conflict copies in the vault.
    var conflictCopies: [File] { notes.filter { ConflictCopy(path: $0.path)?.source == .notes } }

    /// What must hold whatever the outcome: no temp or editor folder left, every file a whole
    /// note that parses without a warning, no note both in the trash and in the vault, every
    /// trash entry whole, and `notes list` and `notes trash` agreeing with the files.
    func check(_ race: Race, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let label = race.label
        #expect(leftovers.isEmpty, "\(label): left behind: \(leftovers)", sourceLocation: sourceLocation)
        #expect(
            brokenEntries.isEmpty, "\(label): broken trash entries: \(brokenEntries)",
            sourceLocation: sourceLocation)
        for file in notes + trashed {
            guard let text = String(validating: file.bytes, as: UTF8.self) else {
                Issue.record("\(label): \(file.path) is not UTF-8", sourceLocation: sourceLocation)
                continue
            }
            let document = NoteDocument(parsing: text)
            let warnings = document.warnings + document.dateWarnings()
            // A conflict copy is the edited body alone; a note is front matter, then the body.
            let whole =
                text.hasSuffix("\n") && (ConflictCopy(path: file.path) != nil || document.frontMatter != nil)
            #expect(
                warnings.isEmpty && whole, "\(label): \(file.path) is not a whole note:\n\(text)",
                sourceLocation: sourceLocation)
        }
        for file in trashed {
            let twin = notes.first { $0.inode == file.inode || $0.bytes == file.bytes }
            #expect(
                twin == nil, "\(label): \(file.path) is in the trash and in the vault as \(twin?.path ?? "")",
                sourceLocation: sourceLocation)
        }
        let list = try race.run(["list", "--json"])
        #expect(list.status == 0 && list.stderr.isEmpty, "\(label): \(list)", sourceLocation: sourceLocation)
        let listed =
            (try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(
            listed.compactMap { $0["path"] as? String }.sorted() == notes.map(\.path).sorted(),
            "\(label): list says \(list.stdout)\nfiles: \(notes.map(\.path))", sourceLocation: sourceLocation)
        let trash = try race.run(["trash", "--json"])
        #expect(
            trash.status == 0 && trash.stderr.isEmpty, "\(label): \(trash)", sourceLocation: sourceLocation)
        let inTrash =
            (try? JSONSerialization.jsonObject(with: Data(trash.stdout.utf8)) as? [[String: Any]]) ?? []
        #expect(
            inTrash.count == trashed.count,
            "\(label): trash says \(trash.stdout)\nfiles: \(trashed.map(\.path))",
            sourceLocation: sourceLocation)
    }
}

/// The message `edit` ends with when its note changed or went while it was being edited, and
/// the copy it names, if `result` is that.
func conflictCopy(in result: RunResult) -> String? {
    guard result.status == 1,
        let range = result.stderr.range(of: "while you were editing it; your text was saved to '")
    else { return nil }
    let rest = result.stderr[range.upperBound...]
    return rest.firstIndex(of: "'").map { String(rest[..<$0]) }
}

/// Whether some process holds the `flock` on `path`: this process tries to take it without
/// waiting (and lets it go at once when it could).
func lockIsHeld(_ path: String) -> Bool {
    let fd = open(path, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if flock(fd, LOCK_EX | LOCK_NB) == 0 {
        flock(fd, LOCK_UN)
        return false
    }
    return errno == EWOULDBLOCK
}

/// Waits until `racer` is queued for the `flock` on `path` — Linux lists each waiter in
/// `/proc/locks` as `-> FLOCK … <pid> <dev>:<inode> …` — so a test knows it waits rather than
/// assuming so after a while. False (nothing proven) where `/proc/locks` is missing; an issue is
/// recorded when the racer ends instead, or a minute passes.
@discardableResult
func waitUntilQueued(
    _ racer: Racer, for path: String, label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    var st = stat()
    guard FileManager.default.fileExists(atPath: "/proc/locks"), stat(path, &st) == 0 else { return false }
    let inode = ":\(st.st_ino) "
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline && !racer.poll() {
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        let queued = locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 5 && fields[1] == "->" && fields[2] == "FLOCK"
                && fields[5] == "\(racer.pid)"
                && (line + " ").contains(inode)
        }
        if queued { return true }
        usleep(1000)
    }
    Issue.record(
        "\(label): \(racer.name) never waited for the lock: \(racer.finish())", sourceLocation: sourceLocation
    )
    return false
}

/// Takes the `flock` on `path` in this process, waiting for it: a holder the test lets go of
/// (`releaseLock`) when it wants, so that what queues behind it runs in a known order.
func takeLock(_ path: String) -> Int32 {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    if fd >= 0 { while flock(fd, LOCK_EX) != 0 && errno == EINTR {} }
    return fd
}

func releaseLock(_ fd: Int32) {
    if fd >= 0 { close(fd) }
}
