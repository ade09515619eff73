import Foundation
import TestSupport
import Testing

/// Human output longer than the terminal goes through the pager, as git does it.
@Suite struct PagerTests {
    /// A vault of `count` notes and the file a pager that saves its input writes.
    static func vault(_ count: Int) throws -> (Sandbox, paged: String) {
        let s = try Sandbox()
        for n in 0..<count { try s.write("n\(n).md", "# Note \(n)\n") }
        return (s, s.root.path + "/paged.txt")
    }

    /// Runs `notes arguments` on a 80×10 terminal and waits for it.
    static func run(_ s: Sandbox, _ arguments: [String], env: [String: String], stdout: Bool = true) throws
        -> TerminalSession
    {
        let t = try TerminalSession(s, arguments, rows: 10, env: env, stdout: stdout)
        #expect(t.exitStatus() == 0, "\(t.stderr)")
        return t
    }

    @Test func longOutputGoesThroughThePager() throws {
        let (s, paged) = try Self.vault(30)
        let t = try Self.run(s, ["list"], env: ["NOTES_PAGER": "cat > '\(paged)'", "PAGER": "false"])
        let text = try String(contentsOfFile: paged, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 30)
        #expect(text.contains("Note 29"))
        #expect(!t.screen.text.contains("Note"))
    }

    @Test func pagerComesFromPagerWhenNotesPagerIsUnset() throws {
        let (s, paged) = try Self.vault(30)
        _ = try Self.run(s, ["list"], env: ["PAGER": "cat > '\(paged)'"])
        #expect(FileManager.default.fileExists(atPath: paged))
    }

    @Test func shortOutputIsPrintedAsItIs() throws {
        let (s, paged) = try Self.vault(3)
        let t = try Self.run(s, ["list"], env: ["NOTES_PAGER": "cat > '\(paged)'"])
        #expect(!FileManager.default.fileExists(atPath: paged))
        #expect(t.screen.text.contains("Note 2"))
    }

    @Test(arguments: [
        (["--no-pager", "list"], ["NOTES_PAGER": "cat > PAGED"]),
        (["list"], ["NOTES_PAGER": "", "PAGER": "cat > PAGED"]),
    ])
    func pagingCanBeTurnedOff(arguments: [String], env: [String: String]) throws {
        let (s, paged) = try Self.vault(30)
        let t = try Self.run(
            s, arguments, env: env.mapValues { $0.replacingOccurrences(of: "PAGED", with: paged) })
        #expect(!FileManager.default.fileExists(atPath: paged))
        #expect(t.output.contains("Note 29"))
    }

    @Test func pipedOutputIsNeverPaged() throws {
        let (s, paged) = try Self.vault(30)
        _ = try Self.run(s, ["list"], env: ["NOTES_PAGER": "cat > '\(paged)'"], stdout: false)
        #expect(!FileManager.default.fileExists(atPath: paged))
    }
}
