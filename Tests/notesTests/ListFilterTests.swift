import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--since`, `--until`, `--folder`, `--orphan`, `--links-to` and `--linked-from` of `list`,
/// `search` and `browse`, run against a fixed now (`NOTES_TEST_NOW`) in Berlin.
@Suite struct ListFilterTests {
    /// Five notes; in the `updated` order, local (Berlin) dates: gamma 12-02 09:00, beta 12-02
    /// 00:30 (updated; created 11-30), alpha 11-20, delta 10-02, epsilon 2025-12-02. Links: alpha →
    /// beta (file name), beta → alpha and itself, delta → gamma (alias) and alpha (Markdown),
    /// epsilon → gamma (title).
    static func sandbox(obsidian: Bool = false) throws -> Sandbox {
        let s = try Sandbox()
        s.environment = ["NOTES_TEST_NOW": "2026-12-02T09:30:00+01:00", "TZ": "Europe/Berlin"]
        try s.write(
            "work/alpha.md", "---\ncreatedAt: 2026-11-20T10:00:00Z\n---\n# Alpha\nsee [[beta]] #proj\n")
        try s.write(
            "work2/beta.md",
            "---\ncreatedAt: 2026-11-30T10:00:00Z\nupdatedAt: 2026-12-01T23:30:00Z\n---\n# Beta\n[[alpha]] [[beta]]\n"
        )
        try s.write(
            "work/sub/gamma.md",
            "---\ncreatedAt: 2026-12-02T08:00:00Z\naliases: [Gam]\n---\n# Gamma note\nnothing #proj\n")
        try s.write(
            "delta.md", "---\ncreatedAt: 2026-10-02T08:00:00Z\n---\n# Delta\n[[Gam]] [a](work/alpha.md)\n")
        try s.write("epsilon.md", "---\ncreatedAt: 2025-12-02T12:00:00Z\n---\n# Epsilon\n[[Gamma note]]\n")
        if obsidian {
            try FileManager.default.createDirectory(
                atPath: s.vault + "/.obsidian", withIntermediateDirectories: true)
        }
        return s
    }

    /// The IDs of piped rows, in order.
    static func ids(_ r: RunResult) -> [String] {
        r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    }

    /// A DATE and the notes it keeps, newest first.
    struct DateCase: CustomTestStringConvertible, Sendable {
        var date: String
        var kept: [String]
        var testDescription: String { date }
    }

    static let sinceCases: [DateCase] = [
        DateCase(date: "today", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "yesterday", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "2026-12-01", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "2026-12-02T08:30", kept: ["work/sub/gamma"]),
        DateCase(date: "2026-12-02T09:00:00+01:00", kept: ["work/sub/gamma"]),
        DateCase(date: "2026-12-02T08:00:01Z", kept: []),
        DateCase(date: "1 day ago", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "2 days ago", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "30 days ago", kept: ["work/sub/gamma", "work2/beta", "work/alpha"]),
        DateCase(date: "3 weeks ago", kept: ["work/sub/gamma", "work2/beta", "work/alpha"]),
        DateCase(date: "1 month ago", kept: ["work/sub/gamma", "work2/beta", "work/alpha"]),
        DateCase(date: "2 months ago", kept: ["work/sub/gamma", "work2/beta", "work/alpha", "delta"]),
        DateCase(
            date: "1 year ago", kept: ["work/sub/gamma", "work2/beta", "work/alpha", "delta", "epsilon"]),
        DateCase(date: "last week", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "friday", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "wednesday", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "7d", kept: ["work/sub/gamma", "work2/beta"]),
        DateCase(date: "2w", kept: ["work/sub/gamma", "work2/beta", "work/alpha"]),
    ]

    @Test(arguments: sinceCases)
    func since(_ c: DateCase) throws {
        let s = try Self.sandbox()
        let r = try s.run(["list", "--since", c.date])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(Self.ids(r) == c.kept, "\(r)")
    }

    static let untilCases: [DateCase] = [
        // Yesterday ends at midnight in Berlin, 23:00 UTC: beta (23:30 UTC) is today's.
        DateCase(date: "yesterday", kept: ["work/alpha", "delta", "epsilon"]),
        DateCase(date: "2026-11-20", kept: ["work/alpha", "delta", "epsilon"]),
        DateCase(date: "2026-11-19", kept: ["delta", "epsilon"]),
        DateCase(
            date: "2026-12-02T09:00+01:00",
            kept: ["work/sub/gamma", "work2/beta", "work/alpha", "delta", "epsilon"]),
        DateCase(date: "2026-12-02T08:59:59+01:00", kept: ["work2/beta", "work/alpha", "delta", "epsilon"]),
        DateCase(date: "1 year ago", kept: ["epsilon"]),
        DateCase(date: "13 months ago", kept: []),
    ]

    @Test(arguments: untilCases)
    func until(_ c: DateCase) throws {
        let s = try Self.sandbox()
        let r = try s.run(["list", "--until", c.date])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(Self.ids(r) == c.kept, "\(r)")
    }

    @Test func theDatesAreThoseTheOrderUses() throws {
        let s = try Self.sandbox()
        // Beta was updated on 12-02 but created on 11-30.
        #expect(
            Self.ids(try s.run(["list", "--since", "2026-12-01", "--sort", "created"])) == ["work/sub/gamma"])
        #expect(
            Self.ids(try s.run(["list", "--since", "2026-12-01", "--sort", "title"])) == [
                "work2/beta", "work/sub/gamma",
            ])
        #expect(
            Self.ids(try s.run(["list", "--until", "2026-11-30", "--since", "2026-11-30", "-s", "created"]))
                == ["work2/beta"])
    }

    @Test func sinceAfterUntilKeepsNothing() throws {
        let s = try Self.sandbox()
        let r = try s.run(["list", "--since", "today", "--until", "yesterday"])
        #expect(r.status == 0 && r.stdout == "" && r.stderr == "", "\(r)")
        let json = try s.run(["search", "--since", "today", "--until", "last week", "--json"])
        #expect(json.status == 0 && json.stdout == "[]\n", "\(json)")
    }

    @Test(arguments: [
        ["list", "--since", "soon"], ["search", "x", "--until", "2026-02-30"],
        ["list", "--since=3 fortnights ago"],
    ])
    func aBadDateIsAUsageErrorListingTheForms(_ arguments: [String]) throws {
        let s = try Self.sandbox()
        let r = try s.run(arguments)
        #expect(r.status == 64 && r.stdout == "", "\(r)")
        let word = arguments.last.map { $0.hasPrefix("--") ? String($0.split(separator: "=")[1]) : $0 } ?? ""
        #expect(
            r.stderr.hasPrefix(
                """
                Error: '\(word)' is not a date; use one of:
                  YYYY-MM-DD (a whole day, local time)
                  YYYY-MM-DDTHH:MM[:SS] with an optional Z or offset such as +01:00
                  today, yesterday
                  N days ago (also weeks, months, years; 1 day ago)
                  last week (7 days ago)
                  a weekday name such as monday (the most recent one before today)
                  Nd, Nw (7d = 7 days ago)
                Usage: notes \(arguments[0])
                """), "\(r)")
        #expect(r.stderr.hasSuffix("See 'notes \(arguments[0]) --help' for more information.\n"), "\(r)")
    }

    @Test func aFolderHoldsItsFoldersButNotASiblingWithTheSamePrefix() throws {
        let s = try Self.sandbox()
        for folder in ["work", "work/", "./work", "work//"] {
            #expect(
                Self.ids(try s.run(["list", "--folder", folder])) == ["work/sub/gamma", "work/alpha"],
                "\(folder)")
        }
        #expect(Self.ids(try s.run(["list", "--folder", "work2"])) == ["work2/beta"])
        #expect(Self.ids(try s.run(["list", "--folder", "work/sub"])) == ["work/sub/gamma"])
        #expect(Self.ids(try s.run(["list", "--folder", "wor"])) == [])
        #expect(Self.ids(try s.run(["list", "--folder", "."])).count == 5)
        // Relative to the current folder inside the vault, as `add --folder` is.
        #expect(
            Self.ids(try s.run(["list", "--folder", "sub"], cwd: s.vault + "/work")) == ["work/sub/gamma"])
        let outside = try s.run(["list", "--folder", "../elsewhere"])
        #expect(outside.status == 1 && outside.stdout == "", "\(outside)")
        #expect(outside.stderr.contains("'../elsewhere' is outside the vault"), "\(outside)")
    }

    /// The notes other notes link to, as `backlinks --json` says, and where each note's links
    /// go, as `links --json` says.
    static func linkSets(_ s: Sandbox, ids: [String]) throws -> (
        from: [String: Set<String>], to: [String: Set<String>]
    ) {
        var from: [String: Set<String>] = [:]
        var to: [String: Set<String>] = [:]
        func objects(_ r: RunResult) throws -> [[String: Any]] {
            #expect(r.status == 0, "\(r)")
            return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] ?? []
        }
        for id in ids {
            from[id] = Set(
                try objects(s.run(["backlinks", id, "--json"])).compactMap { $0["id"] as? String }.filter {
                    $0 != id
                })
            to[id] = Set(try objects(s.run(["links", id, "--json"])).compactMap { $0["id"] as? String })
        }
        return (from, to)
    }

    @Test(arguments: [false, true])
    func linkFiltersSayWhatBacklinksAndLinksSay(obsidian: Bool) throws {
        let s = try Self.sandbox(obsidian: obsidian)
        let ids = Self.ids(try s.run(["list"]))
        #expect(ids.count == 5)
        let (from, to) = try Self.linkSets(s, ids: ids)
        for id in ids {
            #expect(Set(Self.ids(try s.run(["list", "--links-to", id]))) == from[id], "\(id)")
            #expect(Set(Self.ids(try s.run(["search", "--linked-from", id]))) == to[id], "\(id)")
        }
        let orphans = Self.ids(try s.run(["list", "--orphan"]))
        #expect(Set(orphans) == Set(ids.filter { from[$0]?.isEmpty == true }))
        // Obsidian's rules resolve no alias or title: there, gamma has no note linking to it.
        #expect(orphans == (obsidian ? ["work/sub/gamma", "delta", "epsilon"] : ["delta", "epsilon"]))
        // A note's link to itself does not count, and `--links-to` leaves the note out.
        #expect(Self.ids(try s.run(["list", "--links-to", "work2/beta"])) == ["work/alpha"])
        #expect(Self.ids(try s.run(["list", "--linked-from", "beta"])) == ["work2/beta", "work/alpha"])
    }

    /// `--orphan` keeps what it works out beside the index: each change since (a link gained, a
    /// note deleted, a note renamed) is answered as `backlinks` answers it.
    @Test(arguments: [false, true])
    func orphansFollowEachChange(obsidian: Bool) throws {
        let s = try Self.sandbox(obsidian: obsidian)
        func expectOrphansAsBacklinksSay(_ comment: Comment) throws {
            let ids = Self.ids(try s.run(["list"]))
            let (from, _) = try Self.linkSets(s, ids: ids)
            let orphans = Self.ids(try s.run(["list", "--orphan"]))
            #expect(Set(orphans) == Set(ids.filter { from[$0]?.isEmpty == true }), comment)
            #expect(Self.ids(try s.run(["list", "--orphan"])) == orphans, comment)
        }
        try expectOrphansAsBacklinksSay("at first")
        try s.write(
            "epsilon.md", "---\ncreatedAt: 2025-12-02T12:00:00Z\n---\n# Epsilon\n[[Gamma note]] [[delta]]\n")
        try expectOrphansAsBacklinksSay("epsilon links to delta")
        try FileManager.default.removeItem(atPath: s.vault + "/delta.md")
        try expectOrphansAsBacklinksSay("delta deleted")
        try FileManager.default.moveItem(atPath: s.vault + "/work2/beta.md", toPath: s.vault + "/bee.md")
        try expectOrphansAsBacklinksSay("beta renamed")
    }

    @Test func aNoteLinkingOnlyToItselfIsAnOrphan() throws {
        let s = try Self.sandbox()
        try s.write("zeta.md", "---\ncreatedAt: 2024-01-01T00:00:00Z\n---\n# Zeta\n[[zeta]] [[#Zeta]]\n")
        #expect(Self.ids(try s.run(["list", "--orphan"])) == ["delta", "epsilon", "zeta"])
        #expect(Self.ids(try s.run(["list", "--links-to", "zeta"])) == [])
        #expect(Self.ids(try s.run(["list", "--linked-from", "zeta"])) == ["zeta"])
    }

    @Test func linkFiltersNameNotesAsEveryCommandDoes() throws {
        let s = try Self.sandbox()
        // By title and by alias, as `show` finds them.
        #expect(Self.ids(try s.run(["list", "--links-to", "Gamma note"])) == ["delta", "epsilon"])
        #expect(Self.ids(try s.run(["list", "--links-to", "gam"])) == ["delta", "epsilon"])
        let missing = try s.run(["list", "--linked-from", "nothing-here"])
        #expect(
            missing.status == 1 && missing.stderr.hasPrefix("Error: no note matches 'nothing-here'"),
            "\(missing)")
    }

    @Test func filtersCombineWithEachOtherTermsTagsOrderLimitAndJSON() throws {
        let s = try Self.sandbox()
        #expect(
            Self.ids(try s.run(["list", "--tag", "proj", "--folder", "work", "--since", "1w"])) == [
                "work/sub/gamma"
            ])
        #expect(
            Self.ids(try s.run(["list", "--folder", "work", "--sort", "title", "--limit", "1"])) == [
                "work/alpha"
            ])
        #expect(Self.ids(try s.run(["list", "--folder", "work", "-r"])) == ["work/alpha", "work/sub/gamma"])
        #expect(
            Self.ids(try s.run(["search", "#proj", "--since", "2w"])) == ["work/sub/gamma", "work/alpha"])
        #expect(Self.ids(try s.run(["search", "alpha", "--linked-from", "delta"])) == ["work/alpha"])
        #expect(Self.ids(try s.run(["search", "gamma", "--orphan"])) == ["epsilon"])
        #expect(Self.ids(try s.run(["list", "--orphan", "--links-to", "gamma"])) == ["delta", "epsilon"])
        #expect(Self.ids(try s.run(["list", "--links-to", "alpha", "--until", "2026-11-01"])) == ["delta"])
        let json = try s.run(["list", "--links-to", "alpha", "--json", "--limit", "5"])
        #expect(json.status == 0, "\(json)")
        let objects = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(objects.compactMap { $0["id"] as? String } == ["work2/beta", "delta"])
    }

    @Test func theBrowserShowsOnlyWhatTheFiltersKeep() throws {
        let s = try Self.sandbox()
        let env = ["COLUMNS": "60", "LINES": "8"]
        let r = try s.run(["browse", "--folder", "work", "--replay", ""], env: env)
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout.contains("2 notes") && r.stdout.contains("work/alpha")
                && r.stdout.contains("work/sub/gamma"), "\(r)")
        #expect(!r.stdout.contains("work2/beta"), "\(r)")
        let searched = try s.run(["browse", "--since", "7d", "--tag", "proj", "--replay", "note"], env: env)
        #expect(
            searched.stdout.contains("1 of 1") && searched.stdout.contains("work/sub/gamma"), "\(searched)")
        let orphans = try s.run(["browse", "--orphan", "--replay", ""], env: env)
        #expect(orphans.stdout.contains("2 notes") && orphans.stdout.contains("epsilon"), "\(orphans)")
        let bad = try s.run(["browse", "--until", "someday", "--replay", ""], env: env)
        #expect(
            bad.status == 64 && bad.stderr.hasPrefix("Error: 'someday' is not a date; use one of:\n"),
            "\(bad)")
    }

    /// The notes are made unreadable first — a change of mode moves a file's status-change time,
    /// which the index compares, so it must come before the index is made — then indexed by root,
    /// whom permission bits do not stop; the filters then run without the capabilities that pass
    /// them (util-linux's setpriv), and read no note. Any other user could not index the notes
    /// once they are unreadable, so the test needs root.
    @Test func filtersReadNoNoteFile() throws {
        let s = try Self.sandbox()
        let wrapper = ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]
        if geteuid() != 0 || access(wrapper[0], X_OK) != 0 {
            try Test.cancel("needs root and setpriv, to index notes that are already unreadable")
        }
        let lines: [[String]] = [
            ["list", "--since", "7d", "--limit", "20"], ["list", "--orphan"], ["list", "--folder", "work"],
            ["list", "--links-to", "alpha"], ["list", "--linked-from", "delta"],
            ["list", "--links-to", "Gamma note"],
            ["search", "note", "--until", "today", "--tag", "proj"],
        ]
        let notes = ["work/alpha.md", "work2/beta.md", "work/sub/gamma.md", "delta.md", "epsilon.md"]
        for note in notes { chmod(s.vault + "/" + note, 0) }
        defer { for note in notes { chmod(s.vault + "/" + note, 0o644) } }
        let before = try lines.map { try s.run($0) }
        #expect(before.allSatisfy { $0.status == 0 && !$0.stdout.isEmpty }, "\(before)")
        #expect(try s.run(["show", "delta"], wrapper: wrapper).status == 1, "the notes are unreadable")
        for (line, seen) in zip(lines, before) {
            let r = try s.run(line, wrapper: wrapper)
            #expect(r.status == 0 && r.stderr == "" && !r.stdout.isEmpty, "\(line): \(r)")
            #expect(r.stdout == seen.stdout, "\(line)")
        }
    }
}
