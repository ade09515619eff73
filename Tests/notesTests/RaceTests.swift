import Foundation
import NotesKit
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// `.notes/lock`: writers of the vault's state serialise on it, readers never wait for
/// it, and a holder that is killed blocks nobody. The holder is a real `notes` stopped (by the
/// `NOTES_TEST_PAUSE_BEFORE_RENAME` seam) with its write half done and the lock held, or
/// util-linux's `flock(1)`; that it holds the lock is checked, not assumed, and a reader is
/// prompt because it finishes while the holder is still stopped — no timing anywhere.
@Suite(.tags(.heavy), .skippedInQuickLoop) struct VaultLockTests {
    enum Holder: String, CaseIterable, CustomTestStringConvertible {
        /// `notes edit a -`, stopped before renaming the new text into place.
        case edit
        /// `notes delete --yes z`, stopped while writing the trash entry's record.
        case delete
        /// `notes index --rebuild`, stopped before renaming the new index into place.
        case index
        /// `flock(1)` from util-linux: any program that follows the convention.
        case flockTool

        var testDescription: String { rawValue }
    }

    /// Notes a, b, c (with "zebra"), d, z; t in the trash; an index that does not know e yet.
    static func vault() throws -> Sandbox {
        let s = try Sandbox()
        for (id, title, word) in [
            ("a", "Alpha", "apple"), ("b", "Bravo", "bread"), ("c", "Charlie", "zebra"),
            ("d", "Delta", "dune"), ("z", "Zulu", "zinc"), ("t", "Tango", "tea"),
        ] {
            let day = id == "t" ? 9 : 1
            try s.write(id + ".md", "---\ncreatedAt: 2026-01-0\(day)T00:00:00Z\n---\n# \(title)\n\n\(word)\n")
        }
        #expect(try s.run(["delete", "--yes", "t"]).status == 0)
        #expect(try s.run(["index"]).status == 0)
        try s.write("e.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Echo\n\necho\n")
        return s
    }

    static let pause = ["NOTES_TEST_PAUSE_BEFORE_RENAME": "1"]

    /// Starts `holder` and returns once it holds the lock.
    static func hold(_ holder: Holder, _ race: Race, lock: String) throws -> Racer {
        let racer: Racer
        switch holder {
        case .edit:
            racer = try race.start("holder", ["edit", "a", "-"], stdin: "# Alpha\n\nrewritten\n", env: pause)
        case .delete: racer = try race.start("holder", ["delete", "--yes", "z"], env: pause)
        case .index: racer = try race.start("holder", ["index", "--rebuild"], env: pause)
        case .flockTool:
            let tools = ["/usr/bin/flock", "/bin/flock"].filter {
                FileManager.default.isExecutableFile(atPath: $0)
            }
            guard let tool = tools.first else { try Test.cancel("util-linux's flock(1) is not installed") }
            let script =
                #"exec 9>>"$RACE_LOCK" && "$RACE_FLOCK" -x 9 || exit 1; "#
                + #"printf 'ready %s\n' "$RACE_NAME" > "$RACE_EVENTS"; read go < "$RACE_GATE""#
            let gate = try race.gate("holder")
            racer = try race.spawn(
                "holder", ["/bin/sh", "-c", script],
                env: race.environment("holder", gate: gate, extra: ["RACE_LOCK": lock, "RACE_FLOCK": tool]),
                stdin: .open("/dev/null", flags: O_RDONLY), gate: gate, line: nil)
            race.ready(racer)
            return racer
        }
        #expect(racer.waitStopped(), "\(race.label): the holder did not stop: \(racer.finish())")
        return racer
    }

    /// The readers and what each must say, as the vault was before the holder started.
    static func readers(_ race: Race) throws -> [([String], RunResult)] {
        try [
            ["list"], ["search", "zebra"], ["show", "a"], ["show", "e"], ["trash"], ["tags"],
            ["links", "--broken"],
        ]
        .map { ($0, try race.run($0)) }
    }

    /// The writers that must wait for the holder, then succeed.
    static func writers(_ race: Race) throws -> [Racer] {
        [
            try race.start("delete", ["delete", "--yes", "b"]),
            try race.start("edit", ["edit", "c", "-"], stdin: "# Charlie\n\nzebra, edited\n"),
            try race.start("restore", ["restore", "t"]),
            try race.start("move", ["move", "d", "archive/d"]),
            try race.start("index", ["index"]),
        ]
    }

    @Test(arguments: Holder.allCases)
    func readersAnswerAndWritersWaitWhileTheLockIsHeld(_ holder: Holder) throws {
        try lockScenario(holder, killed: false)
    }

    @Test(arguments: Holder.allCases)
    func aLockLeftByAKilledProcessBlocksNobody(_ holder: Holder) throws {
        try lockScenario(holder, killed: true)
    }

    func lockScenario(_ holder: Holder, killed: Bool) throws {
        let s = try Self.vault()
        let race = try Race(s, label: "\(holder)\(killed ? ", killed" : "")")
        let lock = s.vault + "/.notes/lock"
        // What readers say when nobody holds the lock, the note e written by hand since the index
        // included (so every reader also wants to update the index).
        let expected = try Self.readers(race)
        try s.write("f.md", "---\ncreatedAt: 2026-01-03T00:00:00Z\n---\n# Foxtrot\n\nfox\n")

        let holding = try Self.hold(holder, race, lock: lock)
        #expect(lockIsHeld(lock), "\(race.label): the holder does not hold the lock")
        let before = lockWaitSnapshot(s)

        // Readers answer, correctly and without a warning, while the holder still holds the lock.
        for (arguments, answer) in try Self.readers(race) {
            let want = expected.first { $0.0 == arguments }?.1
            var stdout = want?.stdout ?? ""
            if arguments == ["list"] {
                // f, written by hand meanwhile, is listed too (newer than every other note).
                stdout = "f\t2026-01-03T00:00:00Z\tFoxtrot\n" + stdout
            }
            #expect(
                answer.status == 0 && answer.stderr == "" && answer.stdout == stdout,
                "\(race.label): notes \(arguments.joined(separator: " ")) said \(answer), not \(stdout)")
        }
        #expect(
            lockIsHeld(lock) && !holding.poll(),
            "\(race.label): the holder let go before the readers finished")

        // Writers queue for the lock (Linux shows them in /proc/locks) and change nothing yet.
        let writers = try Self.writers(race)
        for writer in writers { waitUntilQueued(writer, for: lock, label: race.label) }
        #expect(
            lockWaitSnapshot(s) == before,
            "\(race.label): a writer changed the vault while the lock was held")
        #expect(lockIsHeld(lock) && !holding.poll())

        if killed {
            sendSignal(holding.pid, SIGKILL)
            #expect(holding.finish().status == 128 + SIGKILL)
        } else if holder == .flockTool {
            race.release([holding])
            #expect(holding.finish().status == 0)
        } else {
            sendSignal(holding.pid, SIGCONT)
            let done = holding.finish()
            #expect(done.status == 0, "\(race.label): \(done)")
        }
        var results: [String: RunResult] = [:]
        for writer in writers { results[writer.name] = writer.finish() }
        for (name, result) in results {
            #expect(result.status == 0, "\(race.label): \(name): \(result)")
        }
        #expect(
            results["delete"]?.stderr.hasPrefix("Moved 'b' to the trash") == true, "\(race.label): \(results)"
        )
        #expect(results["edit"]?.stderr == "Saved 'c'.\n", "\(race.label): \(results)")
        #expect(
            results["restore"].map { $0.stdout == "t\n" && $0.stderr == "" } == true,
            "\(race.label): \(results)")
        #expect(results["index"]?.stderr.hasPrefix("Index updated: ") == true, "\(race.label): \(results)")
        #expect(!s.exists("b.md") && !s.exists("d.md") && s.exists("archive/d.md") && s.exists("t.md"))
        #expect(try s.read("c.md").hasSuffix("---\n# Charlie\n\nzebra, edited\n"))

        // The holder's own change: made when it was let go, not at all when it was killed.
        switch holder {
        case .edit:
            #expect(
                try s.read("a.md").hasSuffix(
                    killed ? "---\n# Alpha\n\napple\n" : "---\n# Alpha\n\nrewritten\n"))
        case .delete: #expect(s.exists("z.md") == killed)
        case .index, .flockTool: break
        }
        // A later write sweeps what the killed one left, and nothing is blocked any more.
        #expect(try race.run(["add", "Later"]).status == 0)
        #expect(try race.run(["delete", "--yes", "later"]).status == 0)
        let index = try race.run(["index", "--rebuild"])
        #expect(index.status == 0 && index.stderr.hasPrefix("Index updated: "), "\(race.label): \(index)")
        // A delete killed half way (z stays in the vault, whole) leaves no trash entry anyone sees:
        // it is built out of sight and swept by the next change to the trash (CrashSafetyTests).
        try VaultAudit(s).check(race)
    }
}

/// Everything in the vault but the lock and the index: a writer that waits for the lock must not
/// change a thing.
func lockWaitSnapshot(_ s: Sandbox) -> TreeSnapshot {
    TreeSnapshot(s.vault, skipping: [".notes/lock"], where: { $0.hasPrefix(".notes/index") })
}

/// Writers racing writers: each race many times with seeded choices of order and
/// overlap, every run ending in either both changes kept or the loser's text in a conflict copy
/// with a message saying so — never a lost line, a torn file, or a note both in the trash and in
/// the vault. Processes are held at the interesting point by FIFOs (a scripted editor that waits
/// for its gate; a command that waits for its gate before it starts; `edit -` waiting for its
/// standard input), so that two edits are provably concurrent.
@Suite(.tags(.heavy), .skippedInQuickLoop) struct RaceTests {
    static let body = "# N\n\nbase one\nbase two\n"
    static let base = "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n" + body
    static let baseLines = ["# N", "base one", "base two"]

    /// Shuffled with the run's generator.
    static func shuffled<T>(_ items: [T], _ random: inout SplitMix) -> [T] {
        var items = items
        items.shuffle(using: &random)
        return items
    }

    /// Where each editing racer's line ended: in the note (`saved`) when it said it saved, else
    /// in the conflict copy its message names — and nowhere else; the base lines with it.
    static func expectLinesKept(
        _ racers: [Racer], _ results: [String: RunResult], audit: VaultAudit, notePaths: [String], race: Race,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for racer in racers {
            guard let line = racer.line, let result = results[racer.name] else { continue }
            let places = audit.places(of: line)
            if result.status == 0 {
                #expect(
                    result.stderr.hasPrefix("Saved '"), "\(race.label): \(racer.name): \(result)",
                    sourceLocation: sourceLocation)
                #expect(
                    places.count == 1
                        && places.allSatisfy { place in notePaths.contains { matches(place, $0) } },
                    "\(race.label): \(racer.name) saved, but its line is in \(places)",
                    sourceLocation: sourceLocation)
            } else if let copy = conflictCopy(in: result) {
                let relative = String(copy.dropFirst(race.sandbox.vault.count + 1))
                #expect(
                    places == [relative],
                    "\(race.label): \(racer.name)'s line is in \(places), not in \(relative)",
                    sourceLocation: sourceLocation)
                let text = audit.note(relative)?.text ?? ""
                #expect(
                    baseLines.allSatisfy { text.contains($0 + "\n") },
                    "\(race.label): \(relative) is\n\(text)",
                    sourceLocation: sourceLocation)
            } else {
                Issue.record(
                    "\(race.label): \(racer.name) neither saved nor kept its text in a copy: \(result)",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// Whether a file's path is `pattern`, where `*` stands for one trash entry's name.
    static func matches(_ path: String, _ pattern: String) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return path == pattern }
        let head = pattern[..<star]
        let tail = pattern[pattern.index(after: star)...]
        return path.hasPrefix(head) && path.hasSuffix(tail)
            && !path.dropFirst(head.count).dropLast(tail.count).contains("/")
    }

    // MARK: delete × edit

    @Test(arguments: RaceRuns.seeds("delete-edit", 12))
    func deleteRacesEdit(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        try s.write("n.md", Self.base)
        let race = try Race(s, label: "delete-edit, seed \(seed)")
        let edit = try race.startEdit(
            "edit", "n", body: Self.body, line: "edited while deleted",
            standardInput: Bool.random(using: &random))
        let delete = try race.gated("delete", ["delete", "--yes", "n"])
        // The whole delete while the editor is open, or both let go at once in either order.
        if Bool.random(using: &random) {
            race.release([delete])
            #expect(delete.finish().status == 0)
            race.release([edit])
        } else {
            race.release(Self.shuffled([edit, delete], &random))
        }
        let results = race.finishAll()
        #expect(results["delete"]?.status == 0, "\(race.label): \(results)")
        let audit = VaultAudit(s)
        #expect(
            audit.note("n.md") == nil && audit.trashed.count == 1, "\(race.label): \(audit.notes.map(\.path))"
        )
        let trashed = audit.trashed.first?.text ?? ""
        #expect(
            Self.baseLines.allSatisfy { trashed.contains($0 + "\n") },
            "\(race.label): the trash holds\n\(trashed)")
        Self.expectLinesKept([edit], results, audit: audit, notePaths: [".notes/trash/*/n.md"], race: race)
        try audit.check(race)
    }

    // MARK: edit × edit

    @Test(arguments: RaceRuns.seeds("edit-edit", 16))
    func twoEditsOfOneNote(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        try s.write("n.md", Self.base)
        let race = try Race(s, label: "edit-edit, seed \(seed)")
        let first = try race.startEdit(
            "first", "n", body: Self.body, line: "the first edit's line",
            standardInput: Bool.random(using: &random))
        let second = try race.startEdit(
            "second", "n", body: Self.body, line: "the second edit's line",
            standardInput: Bool.random(using: &random))
        // Both have the note as it was. One after the other (either first), or both at once.
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            race.release([first])
            _ = first.finish()
            race.release([second])
        case 1:
            race.release([second])
            _ = second.finish()
            race.release([first])
        default:
            race.release(Self.shuffled([first, second], &random))
        }
        let results = race.finishAll()
        let audit = VaultAudit(s)
        // Both read the same bytes, so exactly one saves; the other's text is kept in a copy.
        let saved = [first, second].filter { results[$0.name]?.status == 0 }
        #expect(saved.count == 1, "\(race.label): \(results)")
        #expect(audit.conflictCopies.count == 1, "\(race.label): \(audit.notes.map(\.path))")
        Self.expectLinesKept([first, second], results, audit: audit, notePaths: ["n.md"], race: race)
        try audit.check(race)
    }

    // MARK: move × edit

    @Test(arguments: RaceRuns.seeds("move-edit", 12))
    func moveRacesEdit(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        try s.write("n.md", Self.base + "see [other](other.md)\n")
        try s.write("other.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Other\n")
        try s.write(
            "links.md", "---\ncreatedAt: 2026-01-03T00:00:00Z\n---\n# N\n\nbase one\nbase two\nto [n](n.md)\n"
        )
        #expect(try s.run(["index"]).status == 0)
        let race = try Race(s, label: "move-edit, seed \(seed)")
        let edit = try race.startEdit(
            "edit", "n", body: Self.body + "see [other](other.md)\n",
            line: "edited while moved", standardInput: Bool.random(using: &random))
        let editLinks = try race.startEdit(
            "editLinks", "links", body: Self.body + "to [n](n.md)\n",
            line: "edited while its link was rewritten",
            standardInput: Bool.random(using: &random))
        let move = try race.gated("move", ["move", "n", "archive/n"])
        if Bool.random(using: &random) {
            race.release([move])
            #expect(move.finish().status == 0)
            race.release(Self.shuffled([edit, editLinks], &random))
        } else {
            race.release(Self.shuffled([edit, editLinks, move], &random))
        }
        let results = race.finishAll()
        let audit = VaultAudit(s)
        // The note moved whatever else happened; a note that changed under the move keeps its
        // links as they were, and the move says so.
        #expect(
            audit.note("n.md") == nil && audit.note("archive/n.md") != nil,
            "\(race.label): \(audit.notes.map(\.path))")
        let moveResult = results["move"] ?? RunResult(status: -1, stdout: "", stderr: "")
        #expect(
            moveResult.status == 0 || moveResult.stderr.contains("changed on disk during the move, so "),
            "\(race.label): \(moveResult)")
        let moved = audit.note("archive/n.md")?.text ?? ""
        #expect(
            moved.contains("see [other](../other.md)\n") || moveResult.stderr.contains("'archive/n'"),
            "\(race.label): \(moved)\n\(moveResult)")
        let links = audit.note("links.md")?.text ?? ""
        #expect(
            links.contains("to [n](archive/n.md)\n") || moveResult.stderr.contains("'links'"),
            "\(race.label): \(links)\n\(moveResult)")
        Self.expectLinesKept([edit], results, audit: audit, notePaths: ["archive/n.md"], race: race)
        Self.expectLinesKept([editLinks], results, audit: audit, notePaths: ["links.md"], race: race)
        try audit.check(race)
    }

    // MARK: index --rebuild × add, delete

    @Test(arguments: RaceRuns.seeds("rebuild-add-delete", 10))
    func rebuildRacesAddAndDelete(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        for k in 0..<40 {
            let second = String(format: "%02d", k)
            try s.write(
                "k\(k).md", "---\ncreatedAt: 2026-01-01T00:00:\(second)Z\n---\n# K\(k)\n\nword\(k)x\n")
        }
        #expect(try s.run(["index"]).status == 0)
        let race = try Race(s, label: "rebuild-add-delete, seed \(seed)")
        let deleted = Array((0..<40).shuffled(using: &random).prefix(3))
        var racers = [try race.gated("rebuild", ["index", "--rebuild"])]
        for k in 0..<3 { racers.append(try race.gated("add\(k)", ["add", "Added \(k)\n\nfresh\(k)y"])) }
        for k in deleted { racers.append(try race.gated("delete\(k)", ["delete", "--yes", "k\(k)"])) }
        racers.append(try race.gated("list", ["list"]))
        race.release(Self.shuffled(racers, &random))
        let results = race.finishAll()
        for (name, result) in results { #expect(result.status == 0, "\(race.label): \(name): \(result)") }
        #expect(results["rebuild"]?.stderr.hasPrefix("Index updated: ") == true, "\(race.label): \(results)")
        // Whatever the index holds now, every command sees the files as they are.
        for k in 0..<3 {
            let found = try race.run(["search", "fresh\(k)y"])
            #expect(
                found.stdout.hasPrefix("added-\(k)\t") && found.stdout.split(separator: "\n").count == 1,
                "\(race.label): \(found)")
        }
        for k in deleted {
            let found = try race.run(["search", "word\(k)x"])
            #expect(found.status == 0 && found.stdout.isEmpty, "\(race.label): \(found)")
        }
        let audit = VaultAudit(s)
        #expect(
            audit.notes.count == 40 && audit.trashed.count == 3, "\(race.label): \(audit.notes.map(\.path))")
        try audit.check(race)
        let index = try race.run(["index"])
        #expect(
            index.stderr.hasPrefix("Index already up to date: 40 notes, 0 read"), "\(race.label): \(index)")
    }

    // MARK: restore × add

    @Test(arguments: RaceRuns.seeds("restore-add", 12))
    func restoreRacesAddOfTheSameName(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        try s.write("plan.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Plan\n\nthe trashed plan\n")
        #expect(try s.run(["delete", "--yes", "plan"]).status == 0)
        let race = try Race(s, label: "restore-add, seed \(seed)")
        var racers = [try race.gated("restore", ["restore", "plan"])]
        let adds = Int.random(in: 1...3, using: &random)
        for k in 0..<adds { racers.append(try race.gated("add\(k)", ["add", "# Plan\n\nnew plan \(k)"])) }
        // Sometimes a second restore of the same note: one of the two finds it gone. Sometimes
        // the lock is held meanwhile, so that both read the trash before either restores (and
        // the adds take the name first).
        let twice = Bool.random(using: &random)
        if twice { racers.append(try race.gated("restoreAgain", ["restore", "plan"])) }
        let lock = s.vault + "/.notes/lock"
        let held = twice && Bool.random(using: &random) ? takeLock(lock) : nil
        race.release(Self.shuffled(racers, &random))
        if let held {
            for racer in racers {
                // An add takes no lock: it has its name before either restore goes on.
                if racer.name.hasPrefix("add") { _ = racer.finish() }
                if racer.name.hasPrefix("restore") { waitUntilQueued(racer, for: lock, label: race.label) }
            }
            releaseLock(held)
        }
        let results = race.finishAll()
        let restores = results.filter { $0.key.hasPrefix("restore") }.values
        #expect(restores.filter { $0.status == 0 }.count == 1, "\(race.label): \(results)")
        for result in restores where result.status != 0 {
            #expect(
                result.status == 1
                    && result.stderr == "Error: no note in the trash matches 'plan'; see 'notes trash'\n",
                "\(race.label): \(result)")
        }
        for k in 0..<adds { #expect(results["add\(k)"]?.status == 0, "\(race.label): \(results)") }
        let audit = VaultAudit(s)
        #expect(
            audit.trashed.isEmpty && audit.notes.count == adds + 1,
            "\(race.label): \(audit.notes.map(\.path))")
        for line in ["the trashed plan"] + (0..<adds).map({ "new plan \($0)" }) {
            #expect(
                audit.places(of: line).count == 1, "\(race.label): '\(line)' is in \(audit.places(of: line))")
        }
        // Each says where its note went.
        let restored = restores.first { $0.status == 0 }?.stdout.trimmingCharacters(in: .newlines) ?? ""
        let added = (0..<adds).compactMap { results["add\($0)"]?.stdout.trimmingCharacters(in: .newlines) }
        #expect(
            Set(added + [restored]) == Set(audit.notes.map { Note.id(forPath: $0.path) }),
            "\(race.label): \(results)")
        #expect(audit.note(restored + ".md")?.text.contains("the trashed plan") == true)
        try audit.check(race)
    }

    // MARK: the browser × a script

    enum BrowserAction: String, CaseIterable { case edit, delete }
    enum ScriptAction: String, CaseIterable { case editor, standardInput, delete, move }

    /// The browser on a pseudo-terminal, its editor the scripted one, racing a script's command.
    @Test(arguments: RaceRuns.seeds("browser-script", 8))
    func theBrowserWritesWhileAScriptWrites(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        try s.write("n.md", Self.base)
        let race = try Race(s, label: "browser-script, seed \(seed)")
        let browserAction = BrowserAction.allCases.randomElement(using: &random) ?? .edit
        var scriptAction = ScriptAction.allCases.randomElement(using: &random) ?? .editor
        // A deleting browser races an editing script: two deletes are not a race of texts.
        if browserAction == .delete { scriptAction = Bool.random(using: &random) ? .editor : .standardInput }
        let browserLine = "the browser's line"
        let gate = try race.gate("browser")
        let t = try TerminalSession(
            s, columns: 250, rows: 12,
            env: race.environment(
                "browser", gate: gate,
                extra: [
                    "NOTES_EDITOR": race.editor, "RACE_LINE": browserLine,
                ]))
        t.wait(for: ">  N")
        let browser = Racer(
            name: "browser", pid: t.pid, outPath: "", errPath: "", gate: gate, line: browserLine,
            writer: nil)

        let script: Racer
        switch scriptAction {
        case .editor, .standardInput:
            script = try race.startEdit(
                "script", "n", body: Self.body, line: "the script's line",
                standardInput: scriptAction == .standardInput)
        case .delete: script = try race.gated("script", ["delete", "--yes", "n"])
        case .move: script = try race.gated("script", ["move", "n", "moved"])
        }

        let browserMessage: String
        switch browserAction {
        case .edit:
            t.type("\r")
            race.ready(browser)
            // With both holding the note as it was: the script first, the browser first, or both.
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                race.release([script])
                _ = script.finish()
                race.release([browser])
            case 1:
                race.release([browser])
                t.wait(for: "'n'")
                race.release([script])
            default:
                race.release(Self.shuffled([browser, script], &random))
            }
            t.wait(for: "the browser's message") {
                $0.text.contains("Saved 'n'.") || $0.text.contains("Error: ")
            }
            browserMessage = t.screen.text
        case .delete:
            // The script's editor is open on the note when the browser deletes it.
            t.type("\u{04}")
            t.wait(for: "Delete \"N\"? y/N")
            if Bool.random(using: &random) {
                t.type("y")
                t.wait(for: "Moved 'n' to the trash")
                race.release([script])
            } else {
                race.release([script])
                t.type("y")
                t.wait(for: "Moved 'n' to the trash")
            }
            browserMessage = t.screen.text
        }
        let scriptResult = script.finish()
        t.type("\u{3}")
        #expect(t.exitStatus() == 0)
        let audit = VaultAudit(s)
        var results = ["script": scriptResult]
        if browserAction == .edit {
            // The browser's outcome, as it showed it.
            if browserMessage.contains("Saved 'n'.") {
                results["browser"] = RunResult(status: 0, stdout: "", stderr: "Saved 'n'.\n")
            } else if let range = browserMessage.range(of: "your text was saved to '") {
                let copy = browserMessage[range.upperBound...].prefix { $0 != "'" }
                results["browser"] = RunResult(
                    status: 1, stdout: "",
                    stderr: "while you were editing it; your text was saved to '\(copy)'\n")
            } else {
                Issue.record("\(race.label): the browser says\n\(browserMessage)")
            }
        }
        let notePaths =
            scriptAction == .move
            ? ["moved.md"]
            : scriptAction == .delete || browserAction == .delete
                ? [".notes/trash/*/n.md"] : ["n.md"]
        var editors = [script]
        if browserAction == .edit { editors.append(browser) }
        if scriptAction == .delete || scriptAction == .move {
            editors.removeFirst()
            // A move that finds the note saved since it planned says its links were left as they were.
            #expect(
                scriptResult.status == 0
                    || scriptResult.stderr.contains("changed on disk during the move, so "),
                "\(race.label): \(scriptResult)")
        }
        Self.expectLinesKept(editors, results, audit: audit, notePaths: notePaths, race: race)
        try audit.check(race)
    }
}
