import Foundation
import TestSupport
import Testing

/// Counts printed in sentences agree with their number.
@Suite struct GrammarTests {
    @Test func oneNoteIsSingular() throws {
        let s = try Sandbox()
        try s.write("a.md", "alpha\n")
        let r = try s.run(["index"])
        #expect(r.stderr == "Index updated: 1 note, 1 read (\(s.vault)/.notes/index).\n", "\(r)")
        try s.write("b.md", "beta\n")
        #expect(try s.run(["index"]).stderr == "Index updated: 2 notes, 1 read (\(s.vault)/.notes/index).\n")
    }
}
