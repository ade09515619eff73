import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension Sandbox {
    /// Starts `notes` (through `Child`, so that the test can wait for a stop and signal it).
    func start(_ arguments: [String], env: [String: String] = [:]) throws -> Child {
        try Child.start(self, arguments, env: env)
    }
}

/// Everything a vault and its settings hold, read straight from the disk, to compare what a
/// killed or failed command left with what was there before and what a finished run makes
/// (crash-safety and disk tests).
struct VaultState {
    /// A note in the trash: the vault-relative path it had, and its bytes.
    struct Trashed: Hashable, Comparable {
        var path: String
        var bytes: [UInt8]
        static func < (a: Trashed, b: Trashed) -> Bool { (a.path, a.bytes.count) < (b.path, b.bytes.count) }
    }

    /// Every note file `notes` would list (`*.md`, `*.markdown`, no hidden name on the way, no
    /// symlink), by vault-relative path.
    var notes: [String: [UInt8]] = [:]
    /// The notes in complete trash entries (a record and its note file).
    var trash: [Trashed] = []
    /// Trash entries with a record and no note (a delete or restore stopped half-way).
    var incompleteEntries: [String] = []
    /// The settings file's bytes, nil when there is none.
    var settings: [UInt8]?
    /// Every regular file under the vault and the settings folder: `vault/…` or `config/…`, with
    /// a trash entry's random name written `*`.
    var files: Set<String> = []

    /// Notes in the vault and in the trash together.
    var total: Int { notes.count + trash.count }

    static func read(_ s: Sandbox) -> VaultState {
        var state = VaultState()
        let vault = s.vault
        for relative in TreeSnapshot(vault, skipping: [], hashingUpTo: 0).files {
            state.files.insert("vault/" + normalizedTrashPath(stampless(relative)))
            let hidden = relative.split(separator: "/").contains { $0.hasPrefix(".") }
            if !hidden && (relative.hasSuffix(".md") || relative.hasSuffix(".markdown")) {
                state.notes[stampless(relative)] = bytes(vault + "/" + relative)
            }
        }
        let trash = vault + "/.notes/trash"
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: trash)) ?? []).sorted()
        where !name.hasPrefix(".") {
            guard let record = bytes(trash + "/" + name + "/deleted.json"),
                let object = try? JSONSerialization.jsonObject(with: Data(record)) as? [String: Any],
                let path = object["path"] as? String
            else { continue }
            if let note = bytes(trash + "/" + name + "/" + path) {
                state.trash.append(Trashed(path: path, bytes: note))
            } else {
                state.incompleteEntries.append(name)
            }
        }
        state.trash.sort()
        state.settings = bytes(s.config + "/notes/settings.json")
        for relative in TreeSnapshot(s.config, skipping: [], hashingUpTo: 0).files {
            state.files.insert("config/" + relative)
        }
        return state
    }

    /// Text with each conflict copy's time (`<id>.conflict-YYYYMMDD-HHMMSS.md`) written
    /// `<id>.conflict-*.md`: two runs make it in different seconds.
    static func stampless(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: ".conflict-") {
            out += rest[..<range.upperBound]
            rest = rest[range.upperBound...]
            let stamp = rest.prefix(15)
            if stamp.count == 15,
                stamp.enumerated().allSatisfy({ $0.offset == 8 ? $0.element == "-" : $0.element.isNumber })
            {
                out += "*"
                rest = rest.dropFirst(15)
            }
        }
        return out + rest
    }

    /// `.notes/trash/<entry>/rest` as `.notes/trash/*/rest`: entry names are random.
    private static func normalizedTrashPath(_ relative: String) -> String {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 3, parts[0] == ".notes", parts[1] == "trash", !parts[2].hasPrefix(".") else {
            return relative
        }
        return ([".notes", "trash", "*"] + parts[3...]).joined(separator: "/")
    }

    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}

/// Bytes with every ISO 8601 UTC timestamp of the last hour (a note's `updatedAt` or
/// `createdAt` written by the run under test) replaced by a placeholder: two runs of one command
/// write the same bytes but for the time. Fixtures date their notes years back, so their
/// timestamps are compared as they are.
func maskingNow(_ bytes: [UInt8]?) -> [UInt8]? {
    guard let bytes else { return nil }
    let now = Date().timeIntervalSince1970
    let formatter = ISO8601DateFormatter()
    var out = bytes
    var i = 0
    let length = 20  // 2026-01-02T03:04:05Z
    while i + length <= out.count {
        if out[i + 4] == 0x2D, out[i + 10] == 0x54, out[i + length - 1] == 0x5A,
            let text = String(bytes: out[i..<(i + length)], encoding: .utf8),
            let date = formatter.date(from: text), abs(date.timeIntervalSince1970 - now) < 3600
        {
            out.replaceSubrange(i..<(i + length), with: Array("<<<<<<<<now>>>>>>>>>".utf8))
            i += length
        } else {
            i += 1
        }
    }
    return out
}

/// One scenario of a write command: how its vault is made, and how it is run.
struct WriteScenario: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    /// Makes the vault (and settings) the command starts from.
    var setup: @Sendable (Sandbox) throws -> Void
    /// A word to search for after the command, so a stale index's texts would show (nil: the list
    /// is enough).
    var term: String?
    /// Whether the command changes the trash, so that the trash is listed after it too.
    var usesTrash = false
    /// Whether the notes in the vault and the trash together may only be as many as before or as
    /// after (false for `trash --empty`, which removes them one by one).
    var conserves = true
    /// The exit status of a run that is not interrupted.
    var status: Int32 = 0
    /// Environment of the command (`{root}` and `{vault}` filled in).
    var environment: [String: String] = [:]

    var testDescription: String { name }

    /// The arguments, `{vault}` replaced by the sandbox's vault folder.
    func arguments(in s: Sandbox) -> [String] {
        arguments.map { $0.replacingOccurrences(of: "{vault}", with: s.vault) }
    }

    /// The environment, `{root}` and `{vault}` filled in, with `extra`.
    func environment(in s: Sandbox, _ extra: [String: String] = [:]) -> [String: String] {
        environment.mapValues {
            $0.replacingOccurrences(of: "{vault}", with: s.vault)
                .replacingOccurrences(of: "{root}", with: s.base)
        }.merging(extra) { $1 }
    }
}

/// Fixture notes: front matter with dates years back, so `maskingNow` leaves them alone.
func fixtureNote(_ title: String, body: String, day: Int = 1) -> String {
    let date = String(format: "2024-03-%02dT10:00:00Z", day)
    return "---\ncreatedAt: \(date)\nupdatedAt: \(date)\n---\n# \(title)\n\n\(body)\n"
}

/// Runs `notes` through `Child` and fails the test on an unexpected status.
@discardableResult
func mustRun(_ s: Sandbox, _ arguments: [String], stdin: String? = nil) throws -> RunResult {
    let result = try s.run(arguments, stdin: stdin)
    try #require(result.status == 0, "setup: notes \(arguments.joined(separator: " ")): \(result)")
    return result
}

/// What `list --json` and `search TERM` (when there is a term) print, with the run's own timestamps masked.
struct Listing: Equatable {
    var list: String
    var search: String

    init(_ s: Sandbox, term: String?) throws {
        let list = try s.run(["list", "--json"])
        let search =
            try term.map { try s.run(["search", $0]) } ?? RunResult(status: 0, stdout: "", stderr: "")
        func masked(_ text: String) -> String {
            VaultState.stampless(String(decoding: maskingNow(Array(text.utf8)) ?? [], as: UTF8.self))
        }
        self.list = masked(list.stdout) + (list.status == 0 && list.stderr.isEmpty ? "" : "\n\(list)")
        self.search =
            masked(search.stdout) + (search.status == 0 && search.stderr.isEmpty ? "" : "\n\(search)")
    }
}

/// What the next commands say of the vault after a kill, beside what they say once the index is
/// rebuilt from scratch: they must agree (the index is valid, or was rebuilt). `fresh` keeps the
/// answers of a fresh index by the notes and settings they were for, since most kills leave the
/// vault as it was before or as it is after. Also that the trash lists, without a warning, exactly
/// its complete entries, when the command changes the trash. Returns the problems found.
func indexAndTrashProblems(
    _ s: Sandbox, scenario: WriteScenario, state: VaultState, fresh: inout [String: Listing]
) throws -> [String] {
    var problems: [String] = []
    let term = scenario.term
    let listing = try Listing(s, term: term)
    if scenario.usesTrash {
        let trash = try s.run(["trash", "--json"])
        if trash.status != 0 || trash.stderr != "" { problems.append("trash after the kill: \(trash)") }
        let listed =
            (try? JSONSerialization.jsonObject(with: Data(trash.stdout.utf8)) as? [[String: Any]]) ?? []
        let trashed = listed.compactMap { $0["path"] as? String }.sorted()
        if trashed != state.trash.map(\.path).sorted() {
            problems.append("trash lists \(trashed), its complete entries are \(state.trash.map(\.path))")
        }
    }
    let key =
        state.notes.keys.sorted().map { path in
            path + ":" + String(decoding: maskingNow(state.notes[path]) ?? [], as: UTF8.self)
        }.joined(separator: "\u{0}") + "\u{0}settings:"
        + String(decoding: state.settings ?? [], as: UTF8.self)
    if fresh[key] == nil {
        let rebuild = try s.run(["index", "--rebuild"])
        if rebuild.status != 0 { problems.append("index --rebuild: \(rebuild)") }
        fresh[key] = try Listing(s, term: term)
    }
    if let expected = fresh[key], listing != expected {
        problems.append(
            "list and search differ from a fresh index's:\n\(listing.list)\n\(listing.search)\n"
                + "fresh:\n\(expected.list)\n\(expected.search)")
    }
    return problems
}

/// The problems with `now` as what a command left when it stopped at some point, given the state
/// `before` it ran and `after` a run of it that finished: each note file byte for byte as before or
/// as after (none torn, none that neither has — conflict copies included); the trash's notes each
/// as before or after; notes neither lost nor doubled between vault and trash; the settings as
/// before or after; and no other new file but the index, the lock, and temps of `pid` (hidden,
/// so never notes, and swept once `pid` is gone).
func leftoverProblems(
    before: VaultState, after: VaultState, now: VaultState, pid: pid_t, conserves: Bool
) -> [String] {
    var problems: [String] = []
    for path in Set(before.notes.keys).union(after.notes.keys).union(now.notes.keys).sorted() {
        let current = maskingNow(now.notes[path])
        if current != maskingNow(before.notes[path]) && current != maskingNow(after.notes[path]) {
            let shown = now.notes[path].map {
                "\($0.count) bytes: " + String(decoding: $0.prefix(200), as: UTF8.self)
            }
            problems.append("note \(path) is neither as before nor as after: \(shown ?? "missing")")
        }
    }
    let allowedTrash = Set(
        (before.trash + after.trash).map { Trashed(path: $0.path, bytes: maskingNow($0.bytes) ?? []) })
    for trashed in now.trash
    where !allowedTrash.contains(Trashed(path: trashed.path, bytes: maskingNow(trashed.bytes) ?? [])) {
        problems.append(
            "trashed \(trashed.path) is neither as before nor as after (\(trashed.bytes.count) bytes)")
    }
    if conserves && now.total != before.total && now.total != after.total {
        problems.append(
            "\(now.notes.count) notes in the vault and \(now.trash.count) in the trash: "
                + "\(now.total), where before there were \(before.total) and after \(after.total)")
    }
    if !conserves && now.trash.count > before.trash.count {
        problems.append("the trash grew from \(before.trash.count) to \(now.trash.count)")
    }
    if now.settings != before.settings && now.settings != after.settings {
        problems.append(
            "settings neither as before nor as after: "
                + String(decoding: now.settings ?? Array("missing".utf8), as: UTF8.self))
    }
    let state: Set = ["vault/.notes/index", "vault/.notes/index.delta", "vault/.notes/lock"]
    let ownTemp = ".notes-tmp-\(pid)-"
    for file in now.files.subtracting(before.files).subtracting(after.files).subtracting(state).sorted()
    where !file.split(separator: "/").contains(where: { $0.hasPrefix(ownTemp) }) {
        problems.append("a new file that neither run has: \(file)")
    }
    return problems
}

typealias Trashed = VaultState.Trashed
