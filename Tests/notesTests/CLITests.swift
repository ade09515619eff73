import Foundation
import TestSupport
import Testing

@testable import notes

@Suite struct CLITests {
    @Test func unknownCommandSuggestsTheClosest() throws {
        let s = try Sandbox()
        let r = try s.run(["lsit"])
        #expect(r.status == 64)
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                Error: Unknown command 'lsit'. Did you mean 'list'?
                Usage: notes [--vault <dir>] [--config <file>] [--color <when>] <subcommand>
                  See 'notes --help' for more information.

                """)
    }

    @Test func unknownOptionSuggestsTheClosest() throws {
        let s = try Sandbox()
        let r = try s.run(["list", "--revrse"])
        #expect(r.status == 64)
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                Error: Unknown option '--revrse'. Did you mean '--reverse'?
                Usage: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]
                  See 'notes list --help' for more information.

                """)
    }

    /// A word whose dash is followed by no letter, digit or dash is no option: a Markdown list
    /// item is text (`add "- buy milk"`, `edit --append … "- tea"`), and `-x` is still a flag.
    @Test func aListItemIsTextNotAnOption() throws {
        let s = try Sandbox()
        var r = try s.run(["add", "- buy milk"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "buy-milk\n")
        r = try s.run(["edit", "--append", "buy-milk", "-> then tea"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.read("buy-milk.md").hasSuffix("---\n- buy milk\n-> then tea\n"))
        r = try s.run(["add", "-x", "text"])
        #expect(r.status == 64 && r.stderr.hasPrefix("Error: Unknown option '-x'."), "\(r)")
    }

    @Test func missingArgumentsAreUsageErrors() throws {
        let s = try Sandbox()
        for args in [
            ["show"], ["edit"], ["delete"], ["restore"], ["list", "--sort"], ["config", "get"],
            ["list", "--color", "sometimes"], ["show", "--raw", "--json", "x"],
        ] {
            let r = try s.run(args)
            #expect(r.status == 64, "\(args): \(r)")
            #expect(r.stderr.hasPrefix("Error: "))
            #expect(r.stderr.contains("Usage: notes"))
        }
    }

    @Test func helpHasTheArgumentParserLayout() throws {
        let s = try Sandbox()
        let top = try s.run(["--help"])
        #expect(top.status == 0)
        for heading in ["OVERVIEW:", "USAGE: notes", "OPTIONS:", "SUBCOMMANDS:"] {
            #expect(top.stdout.contains(heading))
        }
        #expect(top.stdout.contains("\n  list, ls "))
        let list = try s.run(["list", "--help"])
        for heading in ["OVERVIEW: List notes", "USAGE: notes list", "OPTIONS:", "  -r, --reverse"] {
            #expect(list.stdout.contains(heading))
        }
        #expect(try s.run(["help", "list"]).stdout == list.stdout)
        #expect(try s.run(["ls", "-h"]).stdout == list.stdout)
        #expect(try s.run(["help", "add"]).stdout.contains("ARGUMENTS:"))
    }

    @Test func versionPrints() throws {
        let s = try Sandbox()
        let r = try s.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout == "notes \(CLI.version)\n")
        #expect(r.stderr == "")
        let parts = CLI.version.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        #expect(parts.count == 3 && numbers, "\(CLI.version)")
    }

    @Test func globalOptionsGoBeforeOrAfterAndDoubleDashEndsOptions() throws {
        let s = try Sandbox()
        try s.write("a.md", "alpha\n")
        #expect(ids(try s.run(["--vault", s.vault, "list"], vaultVariable: false)) == ["a"])
        #expect(ids(try s.run(["list", "--vault=\(s.vault)"], vaultVariable: false)) == ["a"])
        #expect(try s.run(["add", "--", "--not-an-option"]).stdout == "not-an-option\n")
        #expect(ids(try s.run([])) == ids(try s.run(["list"])))
    }

    @Test func aMissingNamedVaultIsAnErrorThatSuggestsInit() throws {
        let s = try Sandbox()
        let missing = s.root.path + "/typo"
        for args in [["list"], ["add", "x"]] {
            let r = try s.run(args + ["--vault", missing])
            #expect(r.status == 1)
            #expect(
                r.stderr
                    == "Error: the vault '\(missing)' does not exist; create it with: notes init \(missing)\n"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(try s.run(["list"], env: ["NOTES_VAULT": missing]).status == 1)
    }

    @Test func theDefaultVaultIsCreatedByWritesOnly() throws {
        let s = try Sandbox()
        let read = try s.run(["list"], vaultVariable: false)
        #expect(read.status == 0)
        #expect(read.stdout == "")
        #expect(read.stderr.contains("No vault at \(s.home)/Notes"))
        #expect(!FileManager.default.fileExists(atPath: s.home + "/Notes"))
        let write = try s.run(["add", "first"], vaultVariable: false)
        #expect(write.status == 0)
        #expect(write.stdout == "first\n")
        #expect(write.stderr == "Created the vault \(s.home)/Notes.\n")
        #expect(FileManager.default.fileExists(atPath: s.home + "/Notes/.notes/.gitignore"))
        #expect(FileManager.default.fileExists(atPath: s.home + "/Notes/first.md"))
    }

    @Test func anEnclosingVaultIsFoundFromASubfolder() throws {
        let s = try Sandbox()
        try s.write("deep/er/a.md", "alpha\n")
        let r = try s.run(["list"], cwd: s.vault + "/deep/er", vaultVariable: false)
        #expect(ids(r) == ["deep/er/a"])
        #expect(try s.run(["path"], cwd: s.vault + "/deep", vaultVariable: false).stdout == s.vault + "\n")
    }

    @Test func manyProcessesAddingAtOnceLoseNothing() throws {
        let s = try Sandbox()
        let count = 12
        let processes = try (0..<count).map { _ -> Process in
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Sandbox.binary)
            p.arguments = ["add", "Same title"]
            p.environment = ["HOME": s.home, "XDG_CONFIG_HOME": s.config, "NOTES_VAULT": s.vault]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try p.run()
            return p
        }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let files = try FileManager.default.contentsOfDirectory(atPath: s.vault).filter {
            $0.hasSuffix(".md")
        }
        #expect(files.count == count)
        #expect(files.allSatisfy { (try? s.read($0).hasSuffix("Same title\n")) == true })
    }

    @Test func searchLooksInTheFrontMatterAliasesAndShowsTheAliasMatched() throws {
        let s = try Sandbox()
        try s.write(
            "a.md",
            "---\ncreatedAt: 2026-01-02T00:00:00Z\naliases: [Crème Brûlée, Pudding]\n---\n# Dessert\n\nsweet\n"
        )
        try s.write("b.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\naliases:\n  - Trip to Łódź\n---\nbody\n")
        try s.write("c.md", "---\ncreatedAt: 2026-01-03T00:00:00Z\nalias: creme\nnote: lodz\n---\nnothing\n")
        #expect(ids(try s.run(["search", "creme", "brulee"])) == ["a"])
        #expect(ids(try s.run(["search", "lodz"])) == ["b"])
        let json = try jsonArray(try s.run(["search", "--json", "lodz"]).stdout)
        #expect(json.first?["snippet"] as? String == "Trip to Łódź")
        // A term in the body wins the snippet only when no alias line before it holds a term.
        #expect(
            try jsonArray(try s.run(["search", "--json", "sweet"]).stdout).first?["snippet"] as? String
                == "sweet")
    }

    @Test func searchMatchesFoldedTermsAndPrintsSnippets() throws {
        let s = try Sandbox()
        try s.write("a.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Dessert\n\nCrème Brûlée tonight\n")
        try s.write("b.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\ntitle: Straße\nsecret: creme\n---\nbody\n")
        #expect(ids(try s.run(["search", "creme", "brulee"])) == ["a"])
        #expect(ids(try s.run(["find", "STRASSE"])) == ["b"])
        #expect(ids(try s.run(["search", "\"brulee tonight\""])) == ["a"])
        #expect(ids(try s.run(["search", "\"tonight brulee\""])) == [])
        #expect(ids(try s.run(["search"])) == ["a", "b"])
        let json = try jsonArray(try s.run(["search", "--json", "brulee"]).stdout)
        #expect(json.first?["snippet"] as? String == "Crème Brûlée tonight")
        let human = try s.run(["search", "brulee", "--color", "always"])
        #expect(human.stdout.contains("Brûlée"))
        #expect(human.stdout.contains("\u{1B}[1m"))
        #expect(human.stdout.contains("\n    Crème "))
        #expect(
            try s.run(["search", "brulee", "--color", "never"]).stdout.hasPrefix(
                "a\t2026-01-02T00:00:00Z\tDessert\n"))
    }
}
