import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The merge driver for notes: the later `updatedAt` in all three versions, then git's line merge.
@Suite struct MergeDriverTests {
    static func note(_ second: Int, _ lines: [String], eol: String = "\n") -> String {
        (["---", "createdAt: 2026-11-01T10:00:00Z", "updatedAt: 2026-11-01T10:00:0\(second)Z", "---"] + lines)
            .map { $0 + eol }.joined()
    }

    @Test(arguments: [(1, 2), (2, 1)])
    func theLaterUpdatedAtGoesIntoEveryVersion(ours: Int, theirs: Int) {
        let aligned = MergeDriver.aligningUpdatedAt(
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
            MergeDriver.aligningUpdatedAt(base: dated, ours: dated, theirs: undated) == (
                dated, dated, undated
            ))
        let latin1: [UInt8] = Array(Self.note(2, ["caf"]).utf8) + [0xE9, 0x0A]
        #expect(
            MergeDriver.aligningUpdatedAt(base: dated, ours: dated, theirs: latin1) == (dated, dated, latin1))
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
}
