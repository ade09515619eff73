import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// SIGKILL at every step of every write: each command runs with
/// `NOTES_TEST_CRASH_AT=N` (the file layer's test seam: the process kills itself just before its
/// N-th create, write, sync, rename, link or remove) for N = 1, 2, 3, … until it finishes, each
/// time in a vault made afresh, and what every kill left is checked against the vault before the
/// command and after a run of it that finished (`leftoverProblems`), then the next `list`,
/// `search` and `trash` against a fresh `index --rebuild` (`indexAndTrashProblems`).
@Suite(.tags(.heavy), .skippedInQuickLoop) struct CrashSafetyTests {
    /// A small vault: three notes linking to each other, one in a folder, and a built index.
    static func smallVault(_ s: Sandbox) throws {
        try s.write("alpha.md", fixtureNote("Alpha", body: "alpha body, see [[beta]]", day: 1))
        try s.write("beta.md", fixtureNote("Beta", body: "beta body, back to [[alpha]]", day: 2))
        try s.write("work/plan.md", fixtureNote("Plan", body: "plan body with [Alpha](../alpha.md)", day: 3))
        try mustRun(s, ["index"])
    }

    /// `count` notes and an index of them.
    static func indexedVault(_ s: Sandbox, count: Int) throws {
        for i in 0..<count {
            try s.write(
                String(format: "n%03d.md", i), fixtureNote("Note \(i)", body: "body \(i)", day: 1 + i % 28))
        }
        try mustRun(s, ["index"])
    }

    /// A Simplenote export of three notes, one into an existing name (`alpha`), for `import`.
    static let importSource = Data(
        #"""
        {"activeNotes": [
          {"id": "one", "content": "Imported one\r\nfirst body", "creationDate": "2025-01-01T00:00:00Z"},
          {"id": "two", "content": "Alpha\r\nimported into a taken name", "tags": ["t"], "creationDate": "2025-01-02T00:00:00Z"},
          {"id": "three", "content": "Imported three", "creationDate": "2025-01-03T00:00:00Z", "lastModified": "2025-02-01T00:00:00Z"}
        ]}
        """#.utf8)

    static let scenarios: [WriteScenario] = [
        WriteScenario(name: "add", arguments: ["add", "Fresh idea", "with a body"], setup: smallVault),
        WriteScenario(
            name: "add into a new folder", arguments: ["add", "--folder", "new/deep", "Deep idea"],
            setup: smallVault),
        WriteScenario(name: "add, name taken", arguments: ["add", "Alpha"], setup: smallVault),
        WriteScenario(
            name: "edit", arguments: ["edit", "alpha", "all new text"], setup: smallVault, term: "new"),
        WriteScenario(
            name: "edit in a folder", arguments: ["edit", "work/plan", "replanned"], setup: smallVault,
            term: "replanned"),
        WriteScenario(
            name: "edit in the editor", arguments: ["edit", "beta"],
            setup: { s in
                try smallVault(s)
                try Data("#!/bin/sh\nprintf 'Edited in the editor\\n' > \"$1\"\n".utf8)
                    .write(to: URL(fileURLWithPath: s.base + "/editor.sh"))
                chmod(s.base + "/editor.sh", 0o755)
            }, term: "editor", environment: ["NOTES_EDITOR": "{root}/editor.sh"]),
        // The note changes while the editor is open: the text goes to a conflict copy.
        WriteScenario(
            name: "edit, conflict copy", arguments: ["edit", "beta"],
            setup: { s in
                try smallVault(s)
                try Data(
                    "#!/bin/sh\nprintf 'meanwhile\\n' >> \"$NOTES_VAULT/beta.md\"\nprintf 'Mine\\n' > \"$1\"\n"
                        .utf8
                )
                .write(to: URL(fileURLWithPath: s.base + "/editor.sh"))
                chmod(s.base + "/editor.sh", 0o755)
            }, term: "mine", status: 1, environment: ["NOTES_EDITOR": "{root}/editor.sh"]),
        WriteScenario(
            name: "delete", arguments: ["delete", "--yes", "beta"], setup: smallVault, usesTrash: true),
        WriteScenario(
            name: "delete from a folder", arguments: ["delete", "--yes", "work/plan"], setup: smallVault,
            usesTrash: true),
        WriteScenario(
            name: "delete two", arguments: ["delete", "--yes", "alpha", "beta"], setup: smallVault,
            usesTrash: true),
        WriteScenario(
            name: "restore", arguments: ["restore", "beta"],
            setup: { s in
                try smallVault(s)
                try mustRun(s, ["delete", "--yes", "beta"])
            }, usesTrash: true),
        WriteScenario(
            name: "restore into a folder", arguments: ["restore", "work/plan"],
            setup: { s in
                try smallVault(s)
                try mustRun(s, ["delete", "--yes", "work/plan"])
                try FileManager.default.removeItem(atPath: s.vault + "/work")
            }, usesTrash: true),
        WriteScenario(
            name: "restore, name taken", arguments: ["restore", "beta"],
            setup: { s in
                try smallVault(s)
                try mustRun(s, ["delete", "--yes", "beta"])
                try s.write("beta.md", fixtureNote("Beta again", body: "a new beta body", day: 4))
            }, usesTrash: true),
        WriteScenario(name: "move", arguments: ["move", "alpha", "archive/old-alpha"], setup: smallVault),
        // More notes rewritten than a batch syncs one by one (`FileSystem.syncedOneByOne`):
        // synced together, by one `syncfs`.
        // Each on a day of its own: notes of one day are listed by their files' times (SPEC §4),
        // which differ from kill to kill.
        WriteScenario(
            name: "move, many links", arguments: ["move", "alpha", "archive/old-alpha"],
            setup: { s in
                for i in 0..<65 {
                    let date = String(format: "2024-%02d-%02dT10:00:00Z", 4 + i / 28, 1 + i % 28)
                    try s.write(
                        String(format: "l%03d.md", i),
                        "---\ncreatedAt: \(date)\nupdatedAt: \(date)\n---\n# Link \(i)\n\nto [Alpha](alpha.md)\n"
                    )
                }
                try smallVault(s)
            }),
        WriteScenario(
            name: "trash --empty", arguments: ["trash", "--empty", "--yes"],
            setup: { s in
                try smallVault(s)
                try mustRun(s, ["delete", "--yes", "alpha", "work/plan"])
            }, usesTrash: true, conserves: false),
        WriteScenario(
            name: "config set, new file", arguments: ["config", "set", "sort", "title"], setup: smallVault),
        WriteScenario(
            name: "config set", arguments: ["config", "set", "scheme", "blue"],
            setup: { s in
                try smallVault(s)
                try FileManager.default.createDirectory(
                    atPath: s.config + "/notes", withIntermediateDirectories: true)
                try Data("{\n  \"isDarkOn\" : true,\n  \"mine\" : 1\n}\n".utf8)
                    .write(to: URL(fileURLWithPath: s.config + "/notes/settings.json"))
            }),
        WriteScenario(
            name: "init", arguments: ["init", "{vault}/fresh"],
            setup: { s in
                try FileManager.default.createDirectory(
                    atPath: s.vault + "/fresh", withIntermediateDirectories: true)
            }),
        // Notes one by one, each created whole: as many as were made when killed (so not
        // conserving the count), each as the finished run has it.
        WriteScenario(
            name: "import", arguments: ["import", "simplenote", "{vault}/../notes.json"],
            setup: { s in
                try smallVault(s)
                try importSource.write(to: URL(fileURLWithPath: s.base + "/notes.json"))
            }, term: "imported", conserves: false),
        // Notes with files (an image, a photo), the files put in place before the notes.
        WriteScenario(
            name: "import with attachments", arguments: ["import", "keep", "{vault}/../Takeout/Keep"],
            setup: { s in
                try smallVault(s)
                try FileManager.default.copyItem(
                    atPath: ImportCommandTests.fixtures + "/keep/Takeout", toPath: s.base + "/Takeout")
            }, term: "shopping", conserves: false),
        // Index writes. A first index, the whole vault read:
        WriteScenario(
            name: "index, full", arguments: ["index"],
            setup: { s in
                for i in 0..<40 { try s.write("n\(i).md", fixtureNote("Note \(i)", body: "body \(i)")) }
            }, term: "body"),
        // A rebuild replacing a base and a delta:
        WriteScenario(
            name: "index --rebuild", arguments: ["index", "--rebuild"],
            setup: { s in
                try indexedVault(s, count: 40)
                try s.write("n007.md", fixtureNote("Changed", body: "changed body"))
                try mustRun(s, ["list"])
            }, term: "changed"),
        // One note changed: a delta beside the base.
        WriteScenario(
            name: "index delta", arguments: ["list"],
            setup: { s in
                try indexedVault(s, count: 40)
                try s.write("n007.md", fixtureNote("Changed", body: "changed body"))
                try FileManager.default.removeItem(atPath: s.vault + "/n008.md")
            }, term: "changed"),
        // Many changes: merged into a new base, the old delta removed.
        WriteScenario(
            name: "index merge", arguments: ["list"],
            setup: { s in
                try indexedVault(s, count: 300)
                try s.write("n001.md", fixtureNote("First change", body: "body one"))
                try mustRun(s, ["list"])
                for i in 2..<290 {
                    try s.write(
                        String(format: "n%03d.md", i), fixtureNote("Changed \(i)", body: "changed \(i)"))
                }
            }, term: "changed"),
    ]

    @Test(arguments: scenarios)
    func aKillAtAnyStepLeavesEveryNoteWholeAndTheIndexRight(_ scenario: WriteScenario) throws {
        // What a run that finishes makes.
        let reference = try Sandbox(place: .memory)
        try scenario.setup(reference)
        let finished = try reference.run(
            scenario.arguments(in: reference), env: scenario.environment(in: reference))
        #expect(finished.status == scenario.status, "\(scenario.name), not interrupted: \(finished)")
        let after = VaultState.read(reference)
        var steps = 0
        var fresh: [String: Listing] = [:]
        for n in 1...400 {
            let s = try Sandbox(place: .memory)
            try scenario.setup(s)
            let before = VaultState.read(s)
            let crash = scenario.environment(in: s, ["NOTES_TEST_CRASH_AT": "\(n)"])
            let child = try s.start(scenario.arguments(in: s), env: crash)
            let status = exitStatus(child.wait(untraced: false))
            for path in [child.outPath, child.errPath] { unlink(path) }
            guard status == 128 + SIGKILL else {
                #expect(
                    status == scenario.status,
                    "\(scenario.name): exit \(status) with NOTES_TEST_CRASH_AT=\(n)")
                steps = n - 1
                break
            }
            let now = VaultState.read(s)
            var problems = leftoverProblems(
                before: before, after: after, now: now, pid: child.pid, conserves: scenario.conserves)
            problems += try indexAndTrashProblems(s, scenario: scenario, state: now, fresh: &fresh)
            #expect(
                problems.isEmpty,
                "\(scenario.name), killed before step \(n):\n\(problems.joined(separator: "\n"))")
            if !problems.isEmpty { return }
        }
        #expect(steps > 0, "\(scenario.name) never finished, or took no step")
        print("\(scenario.name): \(steps) steps")
    }

    /// What a kill leaves in the trash — an entry with its record and no note, a hidden folder of an
    /// entry being made or removed — is never listed (above), and the next change to the trash
    /// removes it.
    @Test(
        arguments: scenarios.filter {
            ["delete from a folder", "restore into a folder", "trash --empty"].contains($0.name)
        })
    func whatAKillLeavesInTheTrashIsSweptByTheNextDelete(_ scenario: WriteScenario) throws {
        for n in 1...100 {
            let s = try Sandbox(place: .memory)
            try scenario.setup(s)
            let child = try s.start(scenario.arguments(in: s), env: ["NOTES_TEST_CRASH_AT": "\(n)"])
            let status = exitStatus(child.wait(untraced: false))
            for path in [child.outPath, child.errPath] { unlink(path) }
            guard status == 128 + SIGKILL else { return }
            try mustRun(s, ["add", "Sweeper"])
            try mustRun(s, ["delete", "--yes", "sweeper"])
            let state = VaultState.read(s)
            let trash = s.vault + "/.notes/trash"
            let hidden = try FileManager.default.contentsOfDirectory(atPath: trash).filter {
                $0.hasPrefix(".")
            }
            guard state.incompleteEntries.isEmpty && hidden.isEmpty else {
                Issue.record(
                    "\(scenario.name), killed before step \(n): left \(state.incompleteEntries + hidden)")
                return
            }
        }
        Issue.record("\(scenario.name) never finished")
    }
}
