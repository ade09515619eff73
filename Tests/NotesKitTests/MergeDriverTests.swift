import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The merge driver for notes: the later `updatedAt` in all three versions, the earlier of two
/// `createdAt` lines the base has none of, then git's line merge.
@Suite struct MergeDriverTests {
    static func note(_ second: Int, _ lines: [String], eol: String = "\n") -> String {
        (["---", "createdAt: 2026-11-01T10:00:00Z", "updatedAt: 2026-11-01T10:00:0\(second)Z", "---"] + lines)
            .map { $0 + eol }.joined()
    }

    @Test(arguments: [(1, 2), (2, 1)])
    func theLaterUpdatedAtGoesIntoEveryVersion(ours: Int, theirs: Int) {
        let aligned = MergeDriver.aligningDates(
            base: Array(Self.note(0, ["a"]).utf8), ours: Array(Self.note(ours, ["b"]).utf8),
            theirs: Array(Self.note(theirs, ["a"], eol: "\r\n").utf8))
        #expect(String(decoding: aligned.base, as: UTF8.self) == Self.note(2, ["a"]))
        #expect(String(decoding: aligned.ours, as: UTF8.self) == Self.note(2, ["b"]))
        #expect(String(decoding: aligned.theirs, as: UTF8.self) == Self.note(2, ["a"], eol: "\r\n"))
    }

    @Test func aSideWithoutADateOrNotUTF8IsLeftToTheLineMerge() {
        let dated = Array(Self.note(1, ["a"]).utf8)
        let undated = Array("# No front matter\n".utf8)
        #expect(
            MergeDriver.aligningDates(base: dated, ours: dated, theirs: undated) == (
                dated, dated, undated
            ))
        let latin1: [UInt8] = Array(Self.note(2, ["caf"]).utf8) + [0xE9, 0x0A]
        #expect(
            MergeDriver.aligningDates(base: dated, ours: dated, theirs: latin1) == (dated, dated, latin1))
    }

    /// A note made on both machines (`today`, `add`): git hands the driver an empty base.
    static func made(_ second: Int, _ lines: [String]) -> String {
        (["---", "createdAt: 2026-12-04T19:14:0\(second)Z", "---"] + lines).map { $0 + "\n" }.joined()
    }

    /// Runs `MergeDriver.merge` on three versions in a sandbox folder: whether it was clean, and
    /// what it left in `ours`.
    static func merge(base: String, ours: String, theirs: String) throws -> (clean: Bool, text: String) {
        try Sandbox(initVault: false).test { root in
            for (name, text) in [("base", base), ("ours", ours), ("theirs", theirs)] {
                try text.write(toFile: root + "/" + name, atomically: true, encoding: .utf8)
            }
            let clean = try MergeDriver.merge(
                base: root + "/base", ours: root + "/ours", theirs: root + "/theirs", path: "n.md",
                markerSize: 7, environment: ProcessInfo.processInfo.environment)
            return (clean, try String(contentsOfFile: root + "/ours", encoding: .utf8))
        }
    }

    @Test(arguments: [(3, 5), (5, 3)])
    func aNoteMadeOnBothSidesKeepsTheEarlierCreatedAt(ours: Int, theirs: Int) throws {
        let same = try Self.merge(
            base: "", ours: Self.made(ours, ["# 2026-12-04"]), theirs: Self.made(theirs, ["# 2026-12-04"]))
        #expect(same.clean)
        #expect(same.text == Self.made(3, ["# 2026-12-04"]))
        // Different bodies: one front matter, and markers only around the lines that differ.
        let different = try Self.merge(
            base: "", ours: Self.made(ours, ["# Meeting notes", "", "- ours"]),
            theirs: Self.made(theirs, ["# Meeting notes", "", "- theirs"]))
        #expect(!different.clean)
        #expect(
            different.text
                == Self.made(
                    3,
                    [
                        "# Meeting notes", "", "<<<<<<< n.md (ours)", "- ours", "=======", "- theirs",
                        ">>>>>>> n.md (theirs)",
                    ]))
    }

    @Test(arguments: [(5, 8), (8, 5)])
    func aCreatedAtBothEditsGaveANoteWithoutOneMergesCleanly(ours: Int, theirs: Int) throws {
        func edited(_ created: Int, _ updated: Int, _ lines: [String]) -> String {
            [
                "---", "createdAt: 2026-12-04T19:14:0\(created)Z", "updatedAt: 2026-12-04T19:15:0\(updated)Z",
                "---",
            ]
            .map { $0 + "\n" }.joined() + (["# Plain", ""] + lines).map { $0 + "\n" }.joined()
        }
        let merged = try Self.merge(
            base: "# Plain\n\nline1\nline2\nline3\nline4\n",
            ours: edited(ours, ours, ["LINE1", "line2", "line3", "line4"]),
            theirs: edited(theirs, theirs, ["line1", "line2", "line3", "LINE4"]))
        #expect(merged.clean)
        #expect(merged.text == edited(5, 8, ["LINE1", "line2", "line3", "LINE4"]))
    }

    @Test func aCreatedAtTheBaseHasIsTheUsersAndLeftToTheLineMerge() {
        func note(_ created: String) -> [UInt8] {
            Array("---\ncreatedAt: \(created)\n---\n# A\n".utf8)
        }
        let base = note("2026-11-01T10:00:00Z")
        let ours = note("2026-12-01T10:00:00Z")
        let theirs = note("2026-10-01T10:00:00Z")
        #expect(MergeDriver.aligningDates(base: base, ours: ours, theirs: base) == (base, ours, base))
        #expect(MergeDriver.aligningDates(base: base, ours: ours, theirs: theirs) == (base, ours, theirs))
    }

    @Test func theSameLinesChangedLeaveMarkersInTheFilesLineEnding() throws {
        try Sandbox(initVault: false).test { root in
            let eol = "\r\n"
            let files = [
                "base": ["- milk", "- tea"], "ours": ["- oat milk", "- tea"],
                "theirs": ["- soy milk", "- tea"],
            ]
            let seconds = ["base": 0, "ours": 1, "theirs": 2]
            for (name, lines) in files {
                try Self.note(seconds[name] ?? 0, lines, eol: eol).write(
                    toFile: root + "/" + name, atomically: true, encoding: .utf8)
            }
            let clean = try MergeDriver.merge(
                base: root + "/base", ours: root + "/ours", theirs: root + "/theirs", path: "groceries.md",
                markerSize: 7, environment: ProcessInfo.processInfo.environment)
            #expect(!clean)
            let merged = try String(contentsOfFile: root + "/ours", encoding: .utf8)
            #expect(
                merged
                    == Self.note(
                        2,
                        [
                            "<<<<<<< groceries.md (ours)", "- oat milk", "=======", "- soy milk",
                            ">>>>>>> groceries.md (theirs)", "- tea",
                        ], eol: eol))
        }
    }

    /// The lines of the repository's own attributes file are read from the top of the work tree.
    @Test func theRepositorysAttributeLinesNameTheVaultsFolder() {
        #expect(MergeDriver.localAttributeLines(prefix: "") == MergeDriver.attributeLines)
        #expect(
            MergeDriver.localAttributeLines(prefix: "notes/")
                == ["notes/**/*.md merge=notes", "notes/**/*.markdown merge=notes"])
        #expect(
            MergeDriver.localAttributeLines(prefix: "a[1]?/")
                == ["a\\[1]\\?/**/*.md merge=notes", "a\\[1]\\?/**/*.markdown merge=notes"])
        #expect(
            MergeDriver.localAttributeLines(prefix: "my \"*\" notes/").first
                == #""my \"\\*\" notes/**/*.md" merge=notes"#)
    }
}
