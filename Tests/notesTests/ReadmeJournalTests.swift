import Foundation
import TestSupport
import Testing

/// The README's journal lines, run as a new user would type them: in a shell, with `notes` on the
/// PATH and no vault yet but `~/Notes`, and checked against what their comments say.
@Suite struct ReadmeJournalTests {
    /// The README beside the package's `Tests/` folder.
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath)  // <root>/Tests/notesTests/<this file>
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// The README's dates and times: Wednesday 2 December 2026, 09:30 in the sandbox's UTC.
    static let now = ["NOTES_TEST_NOW": "2026-12-02T09:30:00Z"]

    /// A sandbox whose shell finds `notes` on the PATH.
    static func shell() throws -> (Sandbox, [String: String]) {
        let s = try Sandbox()
        let bin = s.root.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/notes", withDestinationPath: Sandbox.binary)
        let path = bin + ":" + (s.baseEnvironment()["PATH"] ?? "/usr/bin:/bin")
        return (s, Self.now.merging(["PATH": path]) { $1 })
    }

    /// The lines of the `sh` block that follows `marker`, each split into its command and its comment.
    static func block(after marker: String) -> [(command: String, comment: String)] {
        guard let start = readme.range(of: marker),
            let open = readme.range(of: "```sh\n", range: start.upperBound..<readme.endIndex),
            let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex)
        else { return [] }
        return readme[open.upperBound..<close.lowerBound].split(separator: "\n").map { line in
            guard let hash = line.range(of: "   # ") else { return (String(line), "") }
            return (
                line[..<hash.lowerBound].trimmingCharacters(in: .whitespaces),
                line[hash.upperBound...].trimmingCharacters(in: .whitespaces)
            )
        }
    }

    @Test func theJournalExampleDoesWhatItsCommentsSay() throws {
        let (s, env) = try Self.shell()
        let lines = Self.block(after: "**The journal.**")
        #expect(lines.map(\.command.first) == ["m", "p", "n", "n", "n"], "\(lines)")
        try "read the paper\nwith coffee\n".write(
            toFile: s.root.path + "/notes.txt", atomically: true, encoding: .utf8)
        let notes = s.home + "/Notes/"
        for (command, comment) in lines {
            let r = try s.run([], env: env, vaultVariable: false, shell: command)
            #expect(r.status == 0, "\(command): \(r)")
            if comment.hasPrefix("prints ") {
                let id = String(comment.dropFirst("prints ".count))
                #expect(r.stdout == id + "\n", "\(command): \(r)")
                let text = try String(contentsOfFile: notes + id + ".md", encoding: .utf8)
                #expect(
                    text.contains("# 2026-12-02\n\n← [[journal/2026-12-01]] · [[journal/2026-12-03]] →\n"))
                #expect(text.hasSuffix("## Log\n\n- 09:30 Standup: shipped the importer\n"), "\(text)")
            } else if comment == "yesterday's note, from stdin" {
                #expect(r.stdout == "journal/2026-12-01\n", "\(command): \(r)")
                let text = try String(contentsOfFile: notes + "journal/2026-12-01.md", encoding: .utf8)
                #expect(
                    text.hasPrefix("---\ncreatedAt: 2026-12-01T09:30:00Z\n---\n# 2026-12-01\n"), "\(text)")
                #expect(text.hasSuffix("\n- 09:30 read the paper\n  with coffee\n"), "\(text)")
            } else if comment.hasSuffix(".md") {
                // The format names the next day's note so.
                let r = try s.run([], env: env, vaultVariable: false, shell: "notes today x")
                #expect(r.stdout == "journal/2026/12/2026-12-02\n", "\(r)")
                #expect(FileManager.default.fileExists(atPath: notes + comment))
            }
        }
    }

    /// The tour's lines for the journal and templates, in a vault just made.
    @Test func theToursJournalAndTemplateLinesDoWhatTheySay() throws {
        let (s, env) = try Self.shell()
        let tour = Self.block(after: "## A short tour")
        func line(_ prefix: String) -> (command: String, comment: String) {
            tour.first { $0.command.hasPrefix(prefix) } ?? ("", "")
        }
        #expect(try s.run([], env: env, vaultVariable: false, shell: line("notes init").command).status == 0)
        let today = line("notes today \"")
        var r = try s.run([], env: env, vaultVariable: false, shell: today.command)
        #expect(r.status == 0 && r.stdout == "journal/2026-12-02\n", "\(r)")
        #expect(today.comment == "'- 09:30 Called the bank' as the last line of journal/2026-12-02.md")
        let text = try String(contentsOfFile: s.home + "/Notes/journal/2026-12-02.md", encoding: .utf8)
        #expect(text.hasSuffix("\n- 09:30 Called the bank\n"), "\(text)")
        // Without the template, the error says where to put it, the place the comment names.
        let template = line("notes add --template")
        r = try s.run([], env: env, vaultVariable: false, shell: template.command)
        #expect(r.status == 1 && r.stderr.contains("such as '.templates/meeting.md'"), "\(r)")
        #expect(template.comment.contains("you put in .templates/meeting.md"), "\(template)")
        try FileManager.default.createDirectory(
            atPath: s.home + "/Notes/.templates", withIntermediateDirectories: true)
        try "# {{title}}\n\nAttendees:\n".write(
            toFile: s.home + "/Notes/.templates/meeting.md", atomically: true, encoding: .utf8)
        r = try s.run([], env: env, vaultVariable: false, shell: template.command)
        #expect(r.status == 0 && r.stdout == "standup\n", "\(r)")
        #expect(
            try String(contentsOfFile: s.home + "/Notes/standup.md", encoding: .utf8).hasSuffix(
                "---\n# Standup\n\nAttendees:\n"))
    }
}
