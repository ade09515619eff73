import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The completion scripts in the real shells, interactive on a terminal: each line is typed, TAB
/// pressed, then Enter, and a shell function `notes` (the scripts call the real one with `command`)
/// prints the words the shell ran it with — so what is checked is what the shell inserted, quoting
/// and all, for IDs with spaces, quotes, apostrophes and accents, folded matches and tags.
@Suite struct CompletionShellTests {
    /// Notes with awkward names, two tags, the index built, `notes` on the PATH.
    static func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try s.write("de/Obsidian Web Clipper/Einführung.md", "# Einführung\n")
        try s.write("de/Obsidian Web Clipper/Filter.md", "# Filter\n")
        try s.write("de/Benutzeroberfläche/Tabs.md", "# Tabs\n\n#desktop\n")
        try s.write("en/Plugins/Audio recorder.md", "# Audio recorder\n\n#Café\n")
        try s.write("en/Rock 'n' Roll.md", "# Rock\n")
        try s.write("en/Say \"hi\".md", "# Say\n")
        try s.write("en/Price $5.md", "# Price\n")
        #expect(try s.run(["index"]).status == 0)
        let bin = s.root.path + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bin + "/notes", withDestinationPath: Sandbox.binary)
        s.environment["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        s.environment["LANG"] = "C.UTF-8"
        s.environment["LC_ALL"] = "C.UTF-8"
        s.environment["TERM"] = "xterm"
        return s
    }

    /// What is typed before TAB, and the words `notes` then runs with, per shell when they differ.
    struct Case: Sendable {
        var typed: String
        var ran: [String]
        var fish: [String]?
    }

    static let cases: [Case] = [
        Case(
            typed: #"show de/Obsidian\ Web\ Clipper/Einf"#,
            ran: ["show", "de/Obsidian Web Clipper/Einführung"]),
        Case(typed: "show 'de/Obsidian Web Clipper/Fi", ran: ["show", "de/Obsidian Web Clipper/Filter"]),
        Case(
            typed: #"show "de/Obsidian Web Clipper/Ei"#, ran: ["show", "de/Obsidian Web Clipper/Einführung"]),
        Case(typed: "show en/Plugins/Audio", ran: ["show", "en/Plugins/Audio recorder"]),
        Case(typed: "show en/plugins/audio", ran: ["show", "en/Plugins/Audio recorder"]),
        Case(typed: "show de/benutzeroberfläche/t", ran: ["show", "de/Benutzeroberfläche/Tabs"]),
        // Folded past case: fish matches case-insensitively only, so the accent must be typed there.
        Case(
            typed: "show de/benutzeroberflache/t", ran: ["show", "de/Benutzeroberfläche/Tabs"],
            fish: ["show", "de/benutzeroberflache/t"]),
        Case(typed: "show en/Rock", ran: ["show", "en/Rock 'n' Roll"]),
        Case(typed: "show 'en/Rock", ran: ["show", "en/Rock 'n' Roll"]),
        Case(
            typed: #"show 'en/Rock \'n"#, ran: ["show", #"en/Rock \n"#], fish: ["show", "en/Rock 'n' Roll"]),
        Case(typed: "show en/Say", ran: ["show", "en/Say \"hi\""]),
        Case(typed: #"show "en/Say"#, ran: ["show", "en/Say \"hi\""]),
        Case(typed: "show en/Pri", ran: ["show", "en/Price $5"]),
        Case(typed: "list --tag caf", ran: ["list", "--tag", "Café"]),
        Case(typed: "list --tag=desk", ran: ["list", "--tag=desktop"]),
        Case(typed: "list --tag=DESK", ran: ["list", "--tag=desktop"]),
        Case(typed: "list -t DESK", ran: ["list", "-t", "desktop"]),
    ]

    /// Runs `shell` on a terminal, typing each case, TAB and Enter; the words of each `notes` run.
    static func session(_ s: Sandbox, _ program: String, _ arguments: [String], cases: [Case]) throws
        -> [[String]]
    {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var size = winsize()
        size.ws_col = 200
        size.ws_row = 50
        _ = ioctl(pty.follower.fileDescriptor, UInt(TIOCSWINSZ), &size)
        // The shell draws its line on the terminal: read it away so that it never fills up.
        let drain = Drain(pty.leader)
        let outPath = s.root.path + "/shell-out"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        defer { try? out.close() }
        let typing = cases.map { "notes " + $0.typed + "\t\r" }.joined() + "exit\r"
        let status = try pty.run(
            program, arguments, environment: s.baseEnvironment(), cwd: s.root.path,
            stdout: out.fileDescriptor, stderr: out.fileDescriptor, typing: typing)
        drain.stop()
        let text = try String(contentsOfFile: outPath, encoding: .utf8)
        #expect(status == 0, "\(text)")
        return text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: "RAN<") else { return nil }
            return line[start.upperBound...].split(separator: ">", omittingEmptySubsequences: false)
                .dropLast().map { String($0.hasPrefix("<") ? $0.dropFirst() : $0) }
        }
    }

    /// Whether the shell's tests may run: on CI (`CI=true`) a missing shell is a failure, not a skip.
    static func runnable(_ name: String) -> Bool {
        CompletionTests.installed(name) != nil || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    static func check(_ ran: [[String]], fish: Bool = false) {
        #expect(ran.count == cases.count, "\(ran)")
        for (i, c) in cases.enumerated() where i < ran.count {
            #expect(ran[i] == (fish ? c.fish ?? c.ran : c.ran), "\(c.typed)")
        }
    }

    /// Typed word (as the shell has it), shell, and the lines `__complete ids` prints.
    static let words: [(typed: String, shell: String?, lines: [String])] = [
        (#"de/Obsidian\ Web\ Clipper/Einf"#, "bash", [#"de/Obsidian\ Web\ Clipper/Einführung"#]),
        // An open quote: readline replaces what follows it, and closes it itself.
        ("'de/Obsidian Web Clipper/Fi", "bash", ["de/Obsidian Web Clipper/Filter"]),
        ("de/'Obsidian Web Clipper/Fi", "bash", ["Obsidian Web Clipper/Filter"]),
        // Readline does not close a quote after one: the reply does.
        (#""en/Say"#, "bash", [#"en/Say \"hi\"""#]),
        ("'en/Rock", "bash", [#"en/Rock '\''n'\'' Roll"#]),
        ("en/Pri", "bash", [#"en/Price\ \$5"#]),
        // Several, matched folded: each starts with the word as typed, so readline keeps it.
        (
            "'de/obsidian web clipper/", "bash",
            ["de/obsidian web clipper/Einführung", "de/obsidian web clipper/Filter"]
        ),
        (
            #"de/OBSIDIAN\ web\ "#, "bash",
            [#"de/OBSIDIAN\ web\ Clipper/Einführung"#, #"de/OBSIDIAN\ web\ Clipper/Filter"#]
        ),
        ("de/benutzeroberflache/", "bash", ["de/Benutzeroberfläche/Tabs"]),
        // zsh and fish quote themselves: the lines are the IDs.
        (#"de/benutzeroberfl\a"#, "zsh", ["de/Benutzeroberfläche/Tabs"]),
        ("\"en/Say", "fish", ["en/Say \"hi\""]),
        // fish reads \' inside single quotes; bash does not.
        (#"'en/Rock \'n"#, "fish", ["en/Rock 'n' Roll"]),
        (#"'en/Rock \'n"#, "zsh", []),
        // Without a shell the word is taken as it is.
        ("DE/BENUTZER", nil, ["de/Benutzeroberfläche/Tabs"]),
        (#"en/Rock\"#, nil, []),
    ]

    @Test func completeUnquotesMatchesFoldedAndQuotes() throws {
        let s = try Self.sandbox()
        for (typed, shell, lines) in Self.words {
            let r = try s.run(
                ["__complete", "ids"] + (shell.map { ["--shell", $0] } ?? []) + ["--", typed])
            #expect(r.stdout == lines.map { $0 + "\n" }.joined() && r.status == 0, "\(typed) \(r)")
        }
        #expect(try s.run(["__complete", "tags"]).stdout == "Café\ndesktop\n")
        #expect(try s.run(["__complete", "tags", "--shell", "bash", "--", "CAF"]).stdout == "Café\n")
        #expect(
            try s.run(["__complete", "folders", "--shell", "bash", "--", "de/o"]).stdout
                == "de/Obsidian\\ Web\\ Clipper/\n")
    }

    /// Tags come from the index as it is: a note's file is not read (nor its newer tags seen).
    @Test func tagsComeFromTheIndex() throws {
        let s = try Self.sandbox()
        try s.write("en/Plugins/Audio recorder.md", "# Audio recorder\n\n#later\n")
        #expect(try s.run(["__complete", "tags"]).stdout == "Café\ndesktop\n")
        try s.run(["list"])
        #expect(try s.run(["__complete", "tags"]).stdout == "desktop\nlater\n")
    }

    @Test func bashInsertsWhatItCompletes() throws {
        let s = try Self.sandbox()
        let script = try s.run(["completions", "bash"]).stdout
        try (script + #"notes() { printf 'RAN'; printf '<%s>' "$@"; printf '\n'; }"# + "\n")
            .write(toFile: s.root.path + "/bashrc", atomically: true, encoding: .utf8)
        let ran = try Self.session(
            s, "/bin/bash", ["--noprofile", "--rcfile", s.root.path + "/bashrc", "-i"], cases: Self.cases)
        Self.check(ran)
    }

    @Test(.enabled(if: runnable("zsh"), "zsh is not installed"))
    func zshInsertsWhatItCompletes() throws {
        let zsh = try #require(CompletionTests.installed("zsh"), "zsh is missing (CI installs it)")
        let s = try Self.sandbox()
        let folder = s.root.path + "/zsh"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try s.run(["completions", "zsh"]).stdout.write(
            toFile: folder + "/_notes", atomically: true, encoding: .utf8)
        try """
        fpath=(\(folder) $fpath)
        autoload -U compinit && compinit -u -D
        notes() { printf 'RAN'; printf '<%s>' "$@"; printf '\\n'; }

        """.write(toFile: folder + "/.zshrc", atomically: true, encoding: .utf8)
        s.environment["ZDOTDIR"] = folder
        let ran = try Self.session(s, zsh, ["-d", "-i"], cases: Self.cases)
        Self.check(ran)
    }

    @Test(.enabled(if: runnable("fish"), "fish is not installed"))
    func fishInsertsWhatItCompletes() throws {
        let fish = try #require(CompletionTests.installed("fish"), "fish is missing (CI installs it)")
        let s = try Self.sandbox()
        let path = s.root.path + "/notes.fish"
        try s.run(["completions", "fish"]).stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let setup = "source \(path); function notes; printf RAN; printf '<%s>' $argv; printf '\\n'; end"
        let ran = try Self.session(s, fish, ["--no-config", "-i", "-C", setup], cases: Self.cases)
        Self.check(ran, fish: true)
    }
}

/// Reads a terminal's leader side on a thread of its own until stopped, throwing the bytes away.
private final class Drain: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init(_ fd: Int32) {
        self.fd = fd
        Thread.detachNewThread { self.loop() }
    }

    private func loop() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !lock.withLock({ stopped }) {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 50) > 0 {
                if read(fd, &buffer, buffer.count) <= 0 { break }
            }
        }
        done.signal()
    }

    func stop() {
        lock.withLock { stopped = true }
        done.wait()
    }
}
