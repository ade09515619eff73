import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The gitignore matcher: each line form on its own, precedence between lines and files, and the
/// whole table against `git check-ignore --no-index` when git is installed.
@Suite struct IgnoreRulesTests {
    /// Whether `path` is ignored by an ignore file at the top holding `text`.
    static func ignores(_ text: String, _ path: String, directory: Bool = false) -> Bool {
        let rules = IgnoreRules.none.adding(folder: "", files: [(".gitignore", Array(text.utf8))])
        return rules.rule(for: path, isDirectory: directory)?.ignores ?? false
    }

    /// (ignore file, path, whether the path is a folder, whether it is ignored).
    static let cases: [(String, String, Bool, Bool)] = [
        ("node_modules/", "node_modules", true, true),
        ("node_modules/", "node_modules", false, false),
        ("node_modules/", "a/node_modules", true, true),
        ("build", "build", false, true),
        ("build", "src/build", true, true),
        ("/build", "src/build", true, false),
        ("/build", "build", true, true),
        ("*.md", "deep/x.md", false, true),
        ("*.tmp.md", "x.tmp.md", false, true),
        ("*.tmp.md", "x.md", false, false),
        ("doc/frotz", "doc/frotz", true, true),
        ("doc/frotz", "a/doc/frotz", true, false),
        ("**/frotz", "a/b/frotz", true, true),
        ("**/frotz", "frotz", true, true),
        ("a/**/b.md", "a/b.md", false, true),
        ("a/**/b.md", "a/x/y/b.md", false, true),
        ("a/**", "a/x/y.md", false, true),
        ("a/**", "a", true, false),
        ("x/*/z.md", "x/y/z.md", false, true),
        ("x/*/z.md", "x/y/w/z.md", false, false),
        ("x/*.md", "x/y/z.md", false, false),
        ("a?c.md", "abc.md", false, true),
        ("a?c.md", "ac.md", false, false),
        ("a[a-c]c.md", "abc.md", false, true),
        ("a[a-c]c.md", "adc.md", false, false),
        ("a[!X]b.md", "aXb.md", false, false),
        ("a[!X]b.md", "a-b.md", false, true),
        ("a[^X]b.md", "a-b.md", false, true),
        ("a[[:upper:]]b.md", "aXb.md", false, true),
        ("a[[:upper:]]b.md", "axb.md", false, false),
        ("[]]x.md", "]x.md", false, true),
        ("\\[x\\].md", "[x].md", false, true),
        ("[x].md", "x.md", false, true),
        ("\\#hash.md", "#hash.md", false, true),
        ("#hash.md", "#hash.md", false, false),
        ("\\!bang.md", "!bang.md", false, true),
        ("a.md   ", "a.md", false, true),
        ("a.md\\ ", "a.md", false, false),
        ("a.md\\ ", "a.md ", false, true),
        ("a.md\r\n", "a.md", false, true),
        ("\u{FEFF}a.md", "a.md", false, true),
        ("*.md\n!keep.md", "keep.md", false, false),
        ("*.md\n!keep.md", "other.md", false, true),
        ("!keep.md\n*.md", "keep.md", false, true),
        ("*.md\n!/sub/*.md", "sub/a.md", false, false),
        ("*\n!*/\n!*.md", "a/b.md", false, false),
        ("\n\n# only comments\n", "a.md", false, false),
        ("**", "a/b.md", false, true),
        ("*", "a", true, true),
        ("dir/*", "dir/a.md", false, true),
        ("dir/*", "dir", true, false),
        ("café.md", "café.md", false, true),
    ]

    @Test(arguments: cases)
    func aLineMeansWhatItMeansToGit(text: String, path: String, directory: Bool, ignored: Bool) {
        #expect(Self.ignores(text, path, directory: directory) == ignored)
    }

    @Test func theRuleThatDecidesIsNamedByFileLineAndPattern() {
        let rules = IgnoreRules.none.adding(
            folder: "sub", files: [(".gitignore", Array("# build output\nbuild/  \n".utf8))])
        #expect(
            rules.rule(for: "sub/build", isDirectory: true)
                == IgnoreRule(file: "sub/.gitignore", line: 2, pattern: "build/", ignores: true))
        #expect(rules.rule(for: "sub/build", isDirectory: true)?.description == "sub/.gitignore:2 (build/)")
    }

    @Test func aDeeperFileOverridesOneAboveAndIgnoreComesAfterGitignore() {
        let top = IgnoreRules.none.adding(
            folder: "", files: [(".gitignore", Array("*.md\n".utf8)), (".ignore", Array("!a.md\n".utf8))])
        #expect(top.rule(for: "a.md", isDirectory: false)?.ignores == false)
        #expect(top.rule(for: "b.md", isDirectory: false)?.ignores == true)
        let sub = top.adding(folder: "sub", files: [(".gitignore", Array("!b.md\n/c.md\n".utf8))])
        #expect(sub.rule(for: "sub/b.md", isDirectory: false)?.ignores == false)
        #expect(sub.rule(for: "sub/c.md", isDirectory: false)?.file == "sub/.gitignore")
        // Anchored to its own folder: `/c.md` of `sub/.gitignore` is not about `sub/deeper/c.md`.
        #expect(sub.rule(for: "sub/deeper/c.md", isDirectory: false)?.file == ".gitignore")
    }

    @Test func aPathOnDiskIsCheckedFolderByFolderWithEachFolderItsFiles() throws {
        try Sandbox(tree: [
            .file(".gitignore", "build/\n"),
            .directory("sub", [.file(".ignore", "drafts\n")]),
        ]).test { root in
            #expect(IgnoreRules.rule(ignoring: "build/out.md", isDirectory: false, root: root)?.line == 1)
            #expect(IgnoreRules.rule(ignoring: "build/new/x.md", isDirectory: false, root: root) != nil)
            #expect(
                IgnoreRules.rule(ignoring: "sub/drafts", isDirectory: true, root: root)?.file == "sub/.ignore"
            )
            #expect(IgnoreRules.rule(ignoring: "drafts", isDirectory: true, root: root) == nil)
            #expect(IgnoreRules.rule(ignoring: "sub/x.md", isDirectory: false, root: root) == nil)
        }
    }

    @Test func anIgnoreFileThatIsASymlinkIsNotRead() throws {
        try Sandbox(tree: [.file("rules", "*.md\n"), .symlink(".gitignore", to: "rules")]).test { root in
            #expect(IgnoreRules.rule(ignoring: "a.md", isDirectory: false, root: root) == nil)
        }
    }

    /// Every case of the table, as git decides it: each ignore file in a repository of its own,
    /// with the path laid out (a folder, or a file), asked of `git check-ignore --no-index`.
    @Test func theTableAgreesWithGit() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git") else { return }
        for (text, path, directory, expected) in Self.cases {
            let folder = try FileSystem.makeTemporaryDirectory(NSTemporaryDirectory() + "ignore-git-XXXXXX")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/.gitignore"))
            let full = folder + "/" + path
            try FileManager.default.createDirectory(
                atPath: directory ? full : (full as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            if !directory { try Data().write(to: URL(fileURLWithPath: full)) }
            func git(_ arguments: [String]) throws -> Int32 {
                let git = Process()
                git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
                git.arguments = ["-C", folder] + arguments
                git.environment = ["HOME": folder, "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"]
                git.standardOutput = FileHandle.nullDevice
                git.standardError = FileHandle.nullDevice
                try git.run()
                git.waitUntilExit()
                return git.terminationStatus
            }
            // `check-ignore` wants a repository around, even when it reads no index.
            #expect(try git(["init", "-q"]) == 0)
            let status = try git(["check-ignore", "--no-index", "-q", "--", path])
            // 0: ignored, 1: not ignored; anything else is git refusing the path (not a case here).
            #expect(status == (expected ? 0 : 1), "git: \(text.debugDescription) \(path)")
            let ours = IgnoreRules.rule(ignoring: path, isDirectory: directory, root: folder)
            #expect((ours != nil) == expected, "ours: \(text.debugDescription) \(path)")
        }
    }
}
