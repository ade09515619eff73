import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// A move's plan as byte edits: what `move` writes is each file with its edits made, and an
/// editor's buffer given to the plan is what its edits are of.
@Suite struct MoveEditsTests {
    @Test func theEditsAreWhatTheMoveWrites() throws {
        try Sandbox(tree: NoteMoveTests.vault).test { root in
            let notes = store(try Vault(root: root))
            let plan = try notes.planMove(try notes.open("idea", cwd: root), to: "archive/idea")
            var expected: [String: [UInt8]] = [:]
            for entry in plan.notes {
                #expect(entry.workedOn == .file)
                let bytes = try #require(Disk.bytes(root + "/" + entry.path))
                expected[entry.path == plan.from ? plan.to : entry.path] = ByteEdit.apply(
                    entry.edits, to: bytes)
            }
            let work = try #require(plan.notes.first { $0.path == "work/plan.md" })
            let text = try #require(Disk.text(root + "/work/plan.md"))
            let start = try #require(text.utf8.firstRange(of: "../idea.md".utf8))
            let offset = text.utf8.distance(from: text.utf8.startIndex, to: start.lowerBound)
            #expect(
                work.edits == [ByteEdit(range: offset..<(offset + 10), replacement: "../archive/idea.md")])
            _ = try notes.move(plan)
            for (path, bytes) in expected { #expect(Disk.bytes(root + "/" + path) == bytes, "\(path)") }
        }
    }

    /// A buffer's links count as typed — a link only the buffer has is rewritten, at its place in
    /// the buffer — and `move` leaves a note whose edits are of a buffer alone.
    @Test func aBuffersEditsAreOfItsText() throws {
        try Sandbox(tree: NoteMoveTests.vault).test { root in
            let notes = store(try Vault(root: root))
            let typed = "# Other\n\nNew 😀 [i](idea.md)\n"
            let plan = try notes.planMove(
                try notes.open("idea", cwd: root), to: "archive/idea", buffers: ["other.md": typed])
            let other = try #require(plan.notes.first { $0.path == "other.md" })
            #expect(other.workedOn == .buffer)
            #expect(
                ByteEdit.apply(other.edits, to: Array(typed.utf8)).map { String(decoding: $0, as: UTF8.self) }
                    == "# Other\n\nNew 😀 [i](archive/idea.md)\n")
            let report = try notes.move(plan)
            #expect(report.changed == ["other"])
            #expect(Disk.text(root + "/other.md") == "# Other\n")
        }
    }

    @Test func editsThatDoNotFitTheBytesAreRefused() {
        let bytes = Array("abcdef".utf8)
        #expect(
            ByteEdit.apply([ByteEdit(range: 1..<2, replacement: "XY")], to: bytes) == Array("aXYcdef".utf8))
        #expect(ByteEdit.apply([ByteEdit(range: 4..<9, replacement: "")], to: bytes) == nil)
        #expect(
            ByteEdit.apply(
                [ByteEdit(range: 2..<4, replacement: ""), ByteEdit(range: 3..<5, replacement: "")], to: bytes)
                == nil)
    }
}
