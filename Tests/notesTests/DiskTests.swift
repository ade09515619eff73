import Foundation
import NotesKit
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Full and read-only disks: every write command fails with exit 1 and a
/// message naming the file it could not write, and leaves every note, the trash and the settings as
/// they were, with no temp left behind — except the commands that need no new space, which a full
/// disk lets through (`restore` renames, `trash --empty` frees space). Read commands still work,
/// on an index they cannot bring up to date.
@Suite(.tags(.heavy), .skippedInQuickLoop) struct DiskTests {
    /// How the disk is made full or read-only.
    enum Disk: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// `NOTES_TEST_FULL_DISK_AT=1`: every write of data fails with ENOSPC; runs anywhere.
        case fullBySeam
        /// A small tmpfs filled to the last byte (root only).
        case fullTmpfs
        /// Folders and files without write permission (as root, with the capabilities that
        /// ignore permissions dropped).
        case readOnlyByPermissions
        /// A tmpfs remounted read-only (root only).
        case readOnlyMount

        var testDescription: String { rawValue }
        var isFull: Bool { self == .fullBySeam || self == .fullTmpfs }
        var reason: String {
            switch self {
            case .fullBySeam, .fullTmpfs: return "No space left on device"
            case .readOnlyByPermissions: return "Permission denied"
            case .readOnlyMount: return "Read-only file system"
            }
        }
    }

    /// A write command and what it says on a full and on a read-only disk (`{vault}`, `{config}`,
    /// `{root}`, `{entry}` and `{reason}` filled in); nil: it works on a full disk.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var full: String?
        var readOnly: String
        var testDescription: String { name }
    }

    static func wrote(_ path: String) -> String {
        "Error: could not write '\(path)': {reason}; nothing was changed\n"
    }

    static let cases: [Case] = [
        Case(
            name: "add", arguments: ["add", "New one"],
            full: wrote("{vault}/new-one.md"), readOnly: wrote("{vault}/new-one.md")),
        Case(
            name: "edit", arguments: ["edit", "alpha", "all new"],
            full: wrote("{vault}/alpha.md"), readOnly: wrote("{vault}/alpha.md")),
        Case(
            name: "delete", arguments: ["delete", "--yes", "beta"],
            full: wrote("{vault}/.notes/trash"), readOnly: wrote("{vault}/.notes/trash")),
        Case(name: "restore", arguments: ["restore", "gone"], full: nil, readOnly: wrote("{vault}/gone.md")),
        // alpha links to beta: its link must be rewritten, and cannot be.
        Case(
            name: "move", arguments: ["move", "beta", "delta"],
            full: wrote("{vault}/alpha.md"), readOnly: wrote("{vault}/alpha.md")),
        Case(
            name: "trash --empty", arguments: ["trash", "--empty", "--yes"], full: nil,
            readOnly: "Error: could not access '{vault}/.notes/trash/{entry}': {reason}\n"),
        Case(
            name: "config set", arguments: ["config", "set", "scheme", "blue"],
            full: wrote("{config}/notes/settings.json"), readOnly: wrote("{config}/notes/settings.json")),
        Case(
            name: "index", arguments: ["index", "--rebuild"],
            full:
                "Error: could not write the index '{vault}/.notes/index': {reason}; notes work without it, only slower\n",
            // A vault we may only read keeps our index in the cache, on the same read-only disk here.
            readOnly:
                "Error: could not write the index '{cache}/index': {reason}; notes work without it, only slower\n"
        ),
        Case(
            name: "init", arguments: ["init", "{root}/fresh"],
            full: wrote("{root}/fresh/.notes/.gitignore"),
            readOnly: "Error: could not access '{root}/fresh/.notes': {reason}\n"),
    ]

    /// Read commands, run after the failures.
    static let reads: [[String]] = [
        ["list"], ["search", "changed"], ["show", "beta"], ["tags"], ["links", "alpha"],
        ["backlinks", "beta"], ["trash"],
    ]

    /// The vault every case starts from: two notes (one linking to the other, with a tag), one in
    /// the trash, settings, an index — and a note changed since, so that reads must read it again
    /// and cannot write the index.
    static func setup(_ s: Sandbox) throws {
        try s.write("alpha.md", fixtureNote("Alpha", body: "alpha body, see [Beta](beta.md) #tagged", day: 1))
        try s.write("beta.md", fixtureNote("Beta", body: "beta body", day: 2))
        try s.write("gone.md", fixtureNote("Gone", body: "gone body", day: 3))
        try mustRun(s, ["config", "set", "sort", "title"])
        try mustRun(s, ["delete", "--yes", "gone"])
        try mustRun(s, ["index"])
        try s.write(
            "beta.md", fixtureNote("Beta", body: "beta body, changed behind the index's back", day: 2))
    }

    @Test(arguments: Disk.allCases)
    func everyWriteCommandFailsNamingItsFileAndChangesNothing(_ disk: Disk) throws {
        for c in Self.cases {
            let world = try World(disk)
            let s = world.scratch
            try Self.setup(s)
            let entry =
                (try? FileManager.default.contentsOfDirectory(atPath: s.vault + "/.notes/trash"))?.first ?? ""
            try world.seal()
            defer { world.unseal() }
            let before = VaultState.read(s)
            let result = try s.run(
                c.arguments.map { fill($0, s, entry, disk) }, env: world.environment, wrapper: world.wrapper)
            let now = VaultState.read(s)
            if disk.isFull, c.full == nil {
                #expect(
                    result.status == 0 && result.stderr.contains("Error") == false,
                    "\(disk) \(c.name): \(result)")
                continue
            }
            let expected = fill((disk.isFull ? c.full : c.readOnly) ?? "", s, entry, disk)
            #expect(result.status == 1, "\(disk) \(c.name): \(result)")
            #expect(result.stderr == expected, "\(disk) \(c.name)")
            #expect(result.stdout == "", "\(disk) \(c.name)")
            #expect(now.notes == before.notes, "\(disk) \(c.name): notes changed")
            #expect(
                now.trash == before.trash && now.incompleteEntries == before.incompleteEntries,
                "\(disk) \(c.name): the trash changed")
            #expect(now.settings == before.settings, "\(disk) \(c.name): settings changed")
            let changed = now.files.symmetricDifference(before.files).sorted()
            #expect(changed.isEmpty, "\(disk) \(c.name): files changed: \(changed)")
            #expect(!FileManager.default.fileExists(atPath: s.base + "/fresh/.notes"), "\(disk) \(c.name)")
        }
    }

    /// On a full disk, `restore` (a rename) and `trash --empty` (which frees space) still work.
    @Test func aFullDiskStillRestoresAndEmptiesTheTrash() throws {
        let world = try World(.fullBySeam)
        let s = world.scratch
        try Self.setup(s)
        try world.seal()
        let restore = try s.run(["restore", "gone"], env: world.environment)
        #expect(restore.status == 0 && restore.stdout == "gone\n", "\(restore)")
        #expect(VaultState.read(s).notes["gone.md"] != nil)
        #expect(try mustRun(s, ["delete", "--yes", "gone"]).status == 0)
        let empty = try s.run(["trash", "--empty", "--yes"], env: world.environment)
        #expect(empty.status == 0 && empty.stderr == "Removed 1 note for good.\n", "\(empty)")
        #expect(VaultState.read(s).trash.isEmpty)
    }

    /// The disk fills up at any step of a command (`NOTES_TEST_FULL_DISK_AT=N`: every write of data
    /// from the N-th step on fails): the command stops with exit 1 and a message that the disk is
    /// full, every note is as before or as after, and — the process lived to clean up — no temp is
    /// left anywhere; or it finishes, having needed no more space.
    @Test(arguments: CrashSafetyTests.scenarios)
    func aDiskThatFillsUpAtAnyStepLeavesEveryNoteWholeAndNoTemp(_ scenario: WriteScenario) throws {
        let reference = try Sandbox(place: .memory)
        try scenario.setup(reference)
        #expect(
            try reference.run(scenario.arguments(in: reference), env: scenario.environment(in: reference))
                .status
                == scenario.status)
        let after = VaultState.read(reference)
        for n in 1...400 {
            let s = try Sandbox(place: .memory)
            try scenario.setup(s)
            let before = VaultState.read(s)
            let full = scenario.environment(in: s, ["NOTES_TEST_FULL_DISK_AT": "\(n)"])
            let result = try s.run(scenario.arguments(in: s), env: full)
            let now = VaultState.read(s)
            // No pid: a temp of any process is a leftover.
            var problems = leftoverProblems(
                before: before, after: after, now: now, pid: 0, conserves: scenario.conserves)
            if result.status == 1 {
                // After what was done before the disk filled up (`delete a b`: a was).
                let last = result.stderr.split(separator: "\n").last ?? ""
                let full =
                    last.hasPrefix("Error: could not write ") && last.contains("No space left on device")
                // A command that fails anyway (a conflict) may fail as it does on a disk with room.
                if !full && scenario.status != 1 {
                    problems.append("not a full disk's message: \(result)")
                }
            } else if result.status != scenario.status {
                problems.append("\(result)")
            }
            if !problems.isEmpty {
                Issue.record(
                    "\(scenario.name), the disk full from step \(n):\n\(problems.joined(separator: "\n"))")
                return
            }
            let done =
                now.notes.mapValues(maskingNow) == after.notes.mapValues(maskingNow)
                && now.trash.count == after.trash.count && now.settings == after.settings
            if result.status == scenario.status && done { return }
        }
        Issue.record("\(scenario.name) never finished")
    }

    @Test(arguments: Disk.allCases)
    func readCommandsStillWork(_ disk: Disk) throws {
        // What they print on a disk that takes writes.
        let reference = try Sandbox(place: .memory)
        try Self.setup(reference)
        let expected = try Self.reads.map { try reference.run($0) }
        let world = try World(disk)
        let s = world.scratch
        try Self.setup(s)
        try world.seal()
        defer { world.unseal() }
        let before = VaultState.read(s)
        for (arguments, wanted) in zip(Self.reads, expected) {
            let result = try s.run(arguments, env: world.environment, wrapper: world.wrapper)
            #expect(result.status == 0 && result.stderr == "", "\(disk) \(arguments): \(result)")
            #expect(
                maskingNow(Array(result.stdout.utf8)) == maskingNow(Array(wanted.stdout.utf8)),
                "\(disk) \(arguments): \(result.stdout) where a writable disk gives \(wanted.stdout)")
        }
        #expect(VaultState.read(s).notes == before.notes)
    }
}

/// `template` with the sandbox's folders, the trash entry's name and the disk's error filled in.
private func fill(_ template: String, _ s: Sandbox, _ entry: String, _ disk: DiskTests.Disk) -> String {
    template.replacingOccurrences(of: "{vault}", with: s.vault)
        .replacingOccurrences(of: "{config}", with: s.config)
        .replacingOccurrences(of: "{root}", with: s.base)
        .replacingOccurrences(of: "{entry}", with: entry)
        .replacingOccurrences(of: "{reason}", with: disk.reason)
        .replacingOccurrences(
            of: "{cache}",
            with: s.home + "/.cache/notes/"
                + NoteStore.cacheName(for: (try? Vault(root: s.vault).canonicalRoot) ?? s.vault))
}

/// A scratch vault on a disk of one kind, which `seal` makes full or read-only.
private final class World {
    let disk: DiskTests.Disk
    let scratch: Sandbox
    private var mountPoint: String?
    private var holder: Sandbox?

    init(_ disk: DiskTests.Disk) throws {
        self.disk = disk
        switch disk {
        case .fullBySeam, .readOnlyByPermissions:
            scratch = try Sandbox(place: .memory)
        case .fullTmpfs, .readOnlyMount:
            let (holder, point) = try World.mountTmpfs()
            self.holder = holder
            mountPoint = point
            scratch = try Sandbox(place: .folder(point))
        }
    }

    /// A small tmpfs mounted in a new sandbox (which holds the mount point); the test is cancelled
    /// where that cannot be done.
    private static func mountTmpfs() throws -> (Sandbox, String) {
        #if os(Linux)
            let holder = try Sandbox(initVault: false)
            let point = holder.root.path + "/disk"
            try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
            guard mount("tmpfs", point, "tmpfs", 0, "size=512k") == 0 else {
                try Test.cancel(
                    "cannot mount a tmpfs here (\(String(cString: strerror(errno)))); it needs root")
            }
            return (holder, point)
        #else
            try Test.cancel("a tmpfs is mounted with Linux's mount(2)")
        #endif
    }

    deinit {
        #if os(Linux)
            if let mountPoint { umount2(mountPoint, Int32(MNT_DETACH)) }
        #endif
    }

    /// What each command run on this disk gets in its environment.
    var environment: [String: String] { disk == .fullBySeam ? ["NOTES_TEST_FULL_DISK_AT": "1"] : [:] }

    /// Root ignores permission bits: run without the capabilities that let it.
    var wrapper: [String] {
        guard disk == .readOnlyByPermissions, geteuid() == 0 else { return [] }
        return ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
    }

    /// Makes the disk full or read-only.
    func seal() throws {
        switch disk {
        case .fullBySeam:
            break
        case .fullTmpfs:
            fillUp(scratch.base + "/filler")
        case .readOnlyByPermissions:
            if geteuid() == 0 && access("/usr/bin/setpriv", X_OK) != 0 {
                try Test.cancel("running as root, and setpriv is not there to drop CAP_DAC_OVERRIDE")
            }
            setWritable(scratch.base, false)
        case .readOnlyMount:
            #if os(Linux)
                guard let mountPoint else {
                    Issue.record("no tmpfs to remount read-only")
                    return
                }
                func remount() -> Int32 {
                    mount("tmpfs", mountPoint, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), "size=512k")
                }
                // The kernel refuses (EBUSY) while any process has a file there open for writing. In
                // a parallel run, a child another test spawns holds a copy of this process's open files
                // for the moment between its fork and its exec: tried again, bounded, not waited for.
                var result = remount()
                var tries = 0
                while result != 0 && errno == EBUSY && tries < 100_000 {
                    tries += 1
                    sched_yield()
                    result = remount()
                }
                guard result == 0 else {
                    Issue.record("cannot remount the tmpfs read-only: \(String(cString: strerror(errno)))")
                    return
                }
            #endif
        }
    }

    /// Gives back write permission, so the sandbox can be removed.
    func unseal() {
        if disk == .readOnlyByPermissions { setWritable(scratch.base, true) }
    }

    /// Every folder and file under `path` made read-only (0555, 0444), or writable by its owner.
    private func setWritable(_ path: String, _ writable: Bool) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        let isFolder = st.st_mode & S_IFMT == S_IFDIR
        if isFolder && writable { chmod(path, 0o755) }
        if isFolder {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                setWritable(path + "/" + name, writable)
            }
        }
        if !writable || !isFolder { chmod(path, isFolder ? 0o555 : (writable ? 0o644 : 0o444)) }
    }

    /// Writes zeros until the file system is full.
    private func fillUp(_ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        // The last few bytes a block did not fit in.
        while write(fd, block, 1) > 0 {}
    }
}
