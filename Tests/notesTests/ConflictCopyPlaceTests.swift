import Foundation
import TestSupport
import Testing

/// A conflict copy beside its original is a second version of that note, not a note of its own:
/// it counts in no tag, is no backlink, no link resolves to it by a name or title, and it sorts
/// right after its original. A copy whose original is gone is a note like any other.
@Suite struct ConflictCopyPlaceTests {
    static let copy = "house (Ann's conflicted copy 2026-12-01)"
    static let orphan = "gone.sync-conflict-20261201-101010-ABCDEFG"

    /// The IDs a run printed, one per row.
    func ids(_ r: RunResult) -> [String] {
        r.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    @Test func copiesCountInNoTag() throws {
        let s = try Sandbox()
        try s.write("house.md", "# House\n#home\n")
        try s.write(Self.copy + ".md", "# House\n#home #extra\n")
        try s.write("garden.md", "# Garden\n#home\n")
        // Its original is gone: it counts.
        try s.write(Self.orphan + ".md", "# Gone\n#home #orphaned\n")
        let r = try s.run(["tags"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "home\t3\norphaned\t1\n", "\(r)")
    }

    @Test func aCopyIsNoBacklink() throws {
        let s = try Sandbox()
        try s.write("target.md", "# Target\n")
        try s.write("a.md", "# Alpha\nSee [[target]].\n")
        try s.write("a (Ann's conflicted copy 2026-12-01).md", "# Alpha\nSee [[target]].\n")
        try s.write("b.sync-conflict-20261201-101010-ABCDEFG.md", "# Orphan\nSee [[target]].\n")
        let r = try s.run(["backlinks", "target"])
        #expect(r.status == 0, "\(r)")
        #expect(ids(r) == ["a", "b.sync-conflict-20261201-101010-ABCDEFG"], "\(r)")
    }

    @Test func noLinkResolvesToACopyByItsTitleOrName() throws {
        let s = try Sandbox()
        // The original's title was changed; the copy still has the old one, as does the link.
        try s.write("house.md", "# House v2\n")
        try s.write(Self.copy + ".md", "# House\n")
        try s.write("a.md", "# Alpha\n[[House]] and [[house (ann's conflicted copy 2026-12-01)]]\n")
        var r = try s.run(["links", "a"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout == "2\thouse\t[[House]]\n2\t\t[[house (ann's conflicted copy 2026-12-01)]]\n", "\(r)")
        // By its exact ID a link still reaches the copy.
        try s.write("b.md", "# Beta\n[[\(Self.copy)]]\n")
        r = try s.run(["links", "b"])
        #expect(r.stdout == "2\t\(Self.copy)\t[[\(Self.copy)]]\n", "\(r)")
        #expect(ids(try s.run(["backlinks", "house"])) == ["a"])
    }

    /// Notes whose plain order (by date, or by title) would put the copy first.
    func vault() throws -> Sandbox {
        let s = try Sandbox()
        func note(_ id: String, _ title: String, _ day: Int, _ body: String = "") throws {
            try s.write(
                id + ".md", "---\ncreatedAt: 2026-11-\(10 + day)T10:00:00Z\n---\n# \(title)\n\(body)")
        }
        try note("alpha", "Alpha", 3)
        try note("beta", "Beta", 2)
        try note("house", "House", 1)
        try note(Self.copy, "Aardvark", 5, "A house.\n")
        try note("house.sync-conflict-20261201-101010-ABCDEFG", "Zebra", 0, "A house.\n")
        try note(Self.orphan, "Gone", 4)
        return s
    }

    @Test(arguments: [
        (
            ["list"],
            [
                orphan, "alpha", "beta", "house", copy, "house.sync-conflict-20261201-101010-ABCDEFG",
            ]
        ),
        (
            ["list", "--reverse"],
            [
                "house", copy, "house.sync-conflict-20261201-101010-ABCDEFG", "beta", "alpha", orphan,
            ]
        ),
        (
            ["list", "--sort", "title"],
            [
                "alpha", "beta", orphan, "house", copy, "house.sync-conflict-20261201-101010-ABCDEFG",
            ]
        ),
        (
            ["list", "--sort", "title", "--reverse"],
            [
                "house", copy, "house.sync-conflict-20261201-101010-ABCDEFG", orphan, "beta", "alpha",
            ]
        ),
        (["list", "-n", "2"], [orphan, "alpha"]),
        (["search", "house"], ["house", copy, "house.sync-conflict-20261201-101010-ABCDEFG"]),
    ])
    func aCopySortsRightAfterItsOriginal(arguments: [String], expected: [String]) throws {
        let s = try vault()
        let r = try s.run(arguments)
        #expect(r.status == 0, "\(r)")
        #expect(ids(r) == expected, "\(r)")
    }

    @Test func aCopySortsAfterItsOriginalWhenAFewOfManyAreSelected() throws {
        // `--limit` well below the number of notes takes the path that selects rather than sorts.
        let s = try vault()
        for minute in 10..<70 {
            try s.write(
                "old-\(minute).md",
                "---\ncreatedAt: 2026-10-01T10:\(String(format: "%02d", minute - 10)):00Z\n---\n# Old\n")
        }
        var r = try s.run(["list", "--reverse", "-n", "4"])
        #expect(ids(r) == ["old-10", "old-11", "old-12", "old-13"], "\(r)")
        r = try s.run(["list", "-n", "5"])
        #expect(ids(r) == [Self.orphan, "alpha", "beta", "house", Self.copy], "\(r)")
    }

    @Test func aCopyMatchedWithoutItsOriginalStillSortsInItsPlace() throws {
        // As the whole list filtered: the copy is newer than alpha, its original older.
        let s = try vault()
        try s.write(
            Self.copy + ".md", "---\ncreatedAt: 2026-11-15T10:00:00Z\n---\n# Aardvark\nonly here\n")
        try s.write("alpha.md", "---\ncreatedAt: 2026-11-13T10:00:00Z\n---\n# Alpha\nonly here\n")
        var r = try s.run(["search", "only", "here"])
        #expect(ids(r) == ["alpha", Self.copy], "\(r)")
        r = try s.run(["search", "only", "here", "--reverse"])
        #expect(ids(r) == [Self.copy, "alpha"], "\(r)")
    }
}
