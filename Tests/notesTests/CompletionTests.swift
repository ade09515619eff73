import Foundation
import TestSupport
import Testing

/// The completion scripts loaded by the real shells, completing a command, an option
/// value, a settings value and note IDs through `notes __complete`.
@Suite struct CompletionTests {
    /// A vault with two notes (one in a folder), one trashed note, the index built, and `notes`
    /// on the PATH of the shells.
    static func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("groceries.md", "# Groceries\n")
        try s.write("work/standup.md", "# Standup\n")
        try s.write("old-idea.md", "# Old idea\n")
        #expect(try s.run(["delete", "--yes", "old-idea"]).status == 0)
        #expect(try s.run(["index"]).status == 0)
        let bin = s.root.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/notes", withDestinationPath: Sandbox.binary)
        s.environment["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return s
    }

    /// Runs `program arguments` with the sandbox's environment; its stdout.
    static func shell(_ s: Sandbox, _ program: String, _ arguments: [String]) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = s.baseEnvironment()
        process.currentDirectoryURL = s.root
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func installed(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = String(folder) + "/" + name
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Lines typed so far and what the script must offer (sorted).
    static let cases: [(line: [String], offered: [String])] = [
        (["notes", "ed"], ["edit"]),
        (["notes", "lis"], ["list"]),
        (["notes", "list", "--sort", ""], ["created", "title", "updated"]),
        (["notes", "search", "--sort", ""], ["created", "relevance", "title", "updated"]),
        (["notes", "--color", "al"], ["always"]),
        (["notes", "edit", "gr"], ["groceries"]),
        (["notes", "show", "w"], ["work/standup"]),
        (["notes", "delete", "groceries", ""], ["groceries", "work/standup"]),
        (["notes", "restore", ""], ["old-idea"]),
        (["notes", "config", "set", "gitA"], ["gitAutoCommit"]),
        (["notes", "config", "set", "scheme", "b"], ["blue"]),
        (["notes", "add", "--folder", ""], ["work/"]),
        (["notes", "list", "--folder", ""], ["work/"]),
        (["notes", "browse", "--folder", ""], ["work/"]),
        (["notes", "list", "--links-to", "gr"], ["groceries"]),
        (["notes", "search", "--linked-from", "w"], ["work/standup"]),
        (["notes", "completions", "z"], ["zsh"]),
        // A short option is its command's: -n is move's --dry-run (no value), list's --limit.
        (["notes", "move", "-n", "gr"], ["groceries"]),
        (["notes", "move", "-n", "groceries", "--dry-run", "w"], ["work/"]),
        (["notes", "list", "-n", "5", "--sort", ""], ["created", "title", "updated"]),
    ]

    @Test func bashCompletes() throws {
        let s = try Self.sandbox()
        let script = try s.run(["completions", "bash"]).stdout
        try script.write(toFile: s.root.path + "/notes.bash", atomically: true, encoding: .utf8)
        var program = "source \(s.root.path)/notes.bash\ncomplete -p notes\n"
        for (line, _) in Self.cases {
            let words = line.map { "'" + $0 + "'" }.joined(separator: " ")
            program += "COMP_WORDS=(\(words)); COMP_CWORD=\(line.count - 1); COMPREPLY=(); _notes\n"
            program += "printf '%s\\n' \"${COMPREPLY[@]}\" | sort | paste -sd' '\n"
        }
        let r = try Self.shell(s, "/bin/bash", ["--norc", "--noprofile", "-c", program])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "complete -F _notes notes")
        for (i, (line, offered)) in Self.cases.enumerated() {
            #expect(lines[i + 1] == offered.joined(separator: " "), "\(line)")
        }
    }

    @Test(.enabled(if: CompletionShellTests.runnable("zsh"), "zsh is not installed"))
    func zshCompletes() throws {
        let s = try Self.sandbox()
        let script = try s.run(["completions", "zsh"]).stdout
        try script.write(toFile: s.root.path + "/_notes", atomically: true, encoding: .utf8)
        // compadd and _files are builtins of the completion system, which only runs inside the line
        // editor: stand-ins print what they are given (compadd filtering by the word, as zsh does).
        var program = """
            compadd() { local pre=""; while [[ $1 == -* && $1 != -- ]]; do [[ $1 == -P ]] && { pre=$2; shift; }; shift; done; shift
              local p=${words[CURRENT]}; [[ $p == --*=* ]] && p=${p#*=}
              local w; for w in "$@"; do [[ $w == ${p}* ]] && print -r -- "$pre$w"; done; }
            _files() { print -r -- "_files $*"; }
            source \(s.root.path)/_notes
            t() { words=("$@"); CURRENT=${#words}; _notes | sort | paste -sd' '; }

            """
        for (line, _) in Self.cases {
            program += "t " + line.map { "'" + $0 + "'" }.joined(separator: " ") + "\n"
        }
        program += "t notes list '--sort=cr'\nt notes init ''\n"
        let zsh = try #require(Self.installed("zsh"), "zsh is missing (CI installs it)")
        let r = try Self.shell(s, zsh, ["-f", "-c", program])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (i, (line, offered)) in Self.cases.enumerated() {
            #expect(lines[i] == offered.joined(separator: " "), "\(line)")
        }
        #expect(lines[Self.cases.count] == "--sort=created")
        #expect(lines[Self.cases.count + 1] == "_files -/")
    }

    @Test(.enabled(if: CompletionShellTests.runnable("fish"), "fish is not installed"))
    func fishCompletes() throws {
        let s = try Self.sandbox()
        let script = try s.run(["completions", "fish"]).stdout
        try script.write(toFile: s.root.path + "/notes.fish", atomically: true, encoding: .utf8)
        var program = "source \(s.root.path)/notes.fish\n"
        for (line, _) in Self.cases {
            let typed = line.joined(separator: " ").replacingOccurrences(of: "'", with: "\\'")
            program +=
                "complete -C '\(typed)' | string replace -r '\\t.*' '' | sort | string join ' '; echo\n"
        }
        let fish = try #require(Self.installed("fish"), "fish is missing (CI installs it)")
        let r = try Self.shell(s, fish, ["--no-config", "-c", program])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.isEmpty }
        #expect(lines.count == Self.cases.count, "\(r)")
        for (i, (line, offered)) in Self.cases.enumerated() where i < lines.count {
            #expect(lines[i] == offered.joined(separator: " "), "\(line)")
        }
    }

    @Test func completeReadsTheIndexAsItIs() throws {
        let s = try Self.sandbox()
        #expect(try s.run(["__complete", "ids", "w"]).stdout == "work/standup\n")
        #expect(try s.run(["__complete", "ids"]).stdout == "groceries\nwork/standup\n")
        #expect(try s.run(["__complete", "trashed", ""]).stdout == "old-idea\n")
        #expect(try s.run(["__complete", "folders", ""]).stdout == "work/\n")
        // A file name with an escape sequence reaches the terminal made harmless, as in a list.
        try s.write("red\u{1B}[31mnote.md", "# Red\n")
        #expect(try s.run(["index"]).status == 0)
        #expect(try s.run(["__complete", "ids", "red"]).stdout == "red [31mnote\n")
        try FileManager.default.removeItem(atPath: s.vault + "/red\u{1B}[31mnote.md")
        #expect(try s.run(["index"]).status == 0)
        // A note the index has not seen yet comes at the next command that checks the files.
        try s.write("new.md", "# New\n")
        #expect(try s.run(["__complete", "ids", "n"]).stdout == "")
        try s.run(["list"])
        #expect(try s.run(["__complete", "ids", "n"]).stdout == "new\n")
        // A delta written over the base is read with it: a removed note goes.
        try FileManager.default.removeItem(atPath: s.vault + "/groceries.md")
        try s.run(["list"])
        #expect(try s.run(["__complete", "ids"]).stdout == "new\nwork/standup\n")
        // With no index yet, it is built.
        try FileManager.default.removeItem(atPath: s.vault + "/.notes/index")
        try? FileManager.default.removeItem(atPath: s.vault + "/.notes/index.delta")
        #expect(try s.run(["__complete", "ids"]).stdout == "new\nwork/standup\n")
        // Hidden: not in help, not suggested.
        #expect(!(try s.run(["--help"]).stdout.contains("__complete")))
    }
}
