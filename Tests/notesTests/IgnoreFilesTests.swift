import Foundation
import TestSupport
import Testing

/// The vault's `.gitignore` and `.ignore` files keep what they ignore out of every list, and no
/// command puts a note there; symlinked folders are named in a warning once, not skipped silently.
@Suite struct IgnoreFilesTests {
    func listed(_ s: Sandbox) throws -> Set<String> {
        let r = try s.run(["list"])
        #expect(r.status == 0, "\(r)")
        return Set(ids(r))
    }

    @Test func whatTheGitignoreIgnoresIsNotListedNorSearched() throws {
        let s = try Sandbox()
        try s.write(".gitignore", "# tools\nnode_modules/\nbuild/\n")
        try s.write("a.md", "Alpha needle\n")
        try s.write("node_modules/pkg/README.md", "Package needle\n")
        try s.write("build/out.md", "Output needle\n")
        try s.write("src/build/deep.md", "Deep needle\n")
        #expect(try listed(s) == ["a"])
        #expect(ids(try s.run(["search", "needle"])) == ["a"])
    }

    @Test func aBangLineReincludesAndANestedFileAppliesToItsFolder() throws {
        let s = try Sandbox()
        try s.write(".gitignore", "*.tmp.md\n!keep.tmp.md\n")
        try s.write("x.tmp.md", "x\n")
        try s.write("keep.tmp.md", "keep\n")
        try s.write("secret.md", "top secret, not ignored here\n")
        try s.write("sub/.gitignore", "secret.md\n")
        try s.write("sub/secret.md", "secret\n")
        try s.write("sub/open.md", "open\n")
        #expect(try listed(s) == ["keep.tmp", "secret", "sub/open"])
    }

    @Test func anIgnoreFileWorksWithoutGit() throws {
        let s = try Sandbox()
        try s.write(".ignore", "drafts\n")
        try s.write("drafts/one.md", "one\n")
        try s.write("two.md", "two\n")
        #expect(!s.exists(".git"))
        #expect(try listed(s) == ["two"])
    }

    @Test func editingTheGitignoreRefreshesTheList() throws {
        let s = try Sandbox()
        try s.write("a.md", "a\n")
        try s.write("build/out.md", "out\n")
        #expect(try listed(s) == ["a", "build/out"])
        try s.write(".gitignore", "build/\n")
        #expect(try listed(s) == ["a"])
        try s.write(".gitignore", "build/\n!build/\n")
        #expect(try listed(s) == ["a", "build/out"])
    }

    @Test(arguments: [
        (
            ["add", "--folder", "node_modules", "x"],
            "'node_modules' is ignored by .gitignore:1 (node_modules/), where notes"
        ),
        (["add", "--folder", "build/deeper", "x"], "'build/deeper' is ignored by .gitignore:2 (build/)"),
        (["add", "--folder", "sub", "Draft one"], "is ignored by sub/.ignore:1 (draft-*)"),
        (["move", "a", "build/a"], "'build/a' is ignored by .gitignore:2 (build/)"),
        (["move", "a", "b.tmp"], "'b.tmp' is ignored by .gitignore:3 (*.tmp.md)"),
        (["add", "--folder", ".hidden", "x"], "'.hidden' is a hidden folder"),
    ])
    func noCommandPutsANoteWhereItWouldBeIgnored(arguments: [String], message: String) throws {
        let s = try Sandbox()
        try s.write(".gitignore", "node_modules/\nbuild/\n*.tmp.md\n")
        try s.write("sub/.ignore", "draft-*\n")
        try s.write("a.md", "a\n")
        _ = try s.run(["list"])
        let before = TreeSnapshot(s.vault, skipping: [".notes"])
        let r = try s.run(arguments)
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains(message), "\(r)")
        if message.contains("ignored") { #expect(r.stderr.contains("choose another place"), "\(r)") }
        #expect(TreeSnapshot(s.vault, skipping: [".notes"]) == before)
    }

    /// A taken name's numbered ones may be ignored (`*.md`, then `!plan.md`): they are passed
    /// over, and with none left `add` refuses, naming the first, and creates nothing.
    @Test func aNumberedNameThatWouldBeIgnoredIsPassedOver() throws {
        let s = try Sandbox()
        try s.write("plan.md", "# Plan\n")
        try s.write(".gitignore", "*.md\n!plan.md\n!plan-3.md\n")
        var r = try s.run(["add", "--title", "Plan", "second plan"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "plan-3\n")
        #expect(try s.run(["show", "plan-3"]).status == 0)
        try s.write(".gitignore", "*.md\n!plan.md\n")
        let before = TreeSnapshot(s.vault, skipping: [".notes"])
        r = try s.run(["add", "--title", "Plan", "third plan"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("'plan-2.md' is ignored by .gitignore:1 (*.md)"), "\(r)")
        #expect(TreeSnapshot(s.vault, skipping: [".notes"]) == before)
    }

    @Test func anIgnoredFileNamedByItsPathIsNotANote() throws {
        let s = try Sandbox()
        try s.write(".gitignore", "node_modules/\n")
        try s.write("node_modules/pkg/README.md", "# Package\n")
        let r = try s.run(["show", "node_modules/pkg/README"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains("is ignored by .gitignore:1 (node_modules/)"), "\(r)")
    }

    @Test func addFromAnIgnoredFolderPutsTheNoteAtTheRoot() throws {
        let s = try Sandbox()
        try s.write(".gitignore", "build/\n")
        try FileManager.default.createDirectory(atPath: s.vault + "/build", withIntermediateDirectories: true)
        let r = try s.run(["add", "From build"], cwd: s.vault + "/build")
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "from-build\n")
    }

    @Test func aSymlinkedFolderIsNamedOnceAndAgainWhenItsFolderChanges() throws {
        let s = try Sandbox()
        let outside = s.root.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try "# Elsewhere\n".write(toFile: outside + "/elsewhere.md", atomically: true, encoding: .utf8)
        try s.write("a.md", "a\n")
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/linked", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/b.md", withDestinationPath: "a.md")
        let first = try s.run(["list"])
        #expect(Set(ids(first)) == ["a"])
        #expect(first.stderr.contains("\(s.vault)/linked: is a symlink to a folder"), "\(first)")
        #expect(!first.stderr.contains("b.md"), "\(first)")
        let second = try s.run(["list"])
        #expect(second.stderr == "", "\(second)")
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/also", withDestinationPath: outside)
        let changed = try s.run(["list"])
        #expect(changed.stderr.contains("/also: is a symlink"), "\(changed)")
        #expect(try s.run(["list"]).stderr == "")
    }

    @Test func anIgnoredSymlinkIsNotNamed() throws {
        let s = try Sandbox()
        try s.write(".gitignore", "vendor\n")
        try FileManager.default.createSymbolicLink(
            atPath: s.vault + "/vendor", withDestinationPath: s.root.path)
        #expect(try s.run(["list"]).stderr == "")
    }

    /// A state folder that cannot take the file (read-only; for root, who writes anyway, a folder
    /// in the way stands in): the links warned about are kept in the cache folder instead.
    @Test func aStateFolderThatCannotBeWrittenDoesNotRepeatTheWarning() throws {
        let s = try Sandbox()
        try s.write("a.md", "a\n")
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/linked", withDestinationPath: s.home)
        chmod(s.vault + "/.notes", 0o555)
        defer { chmod(s.vault + "/.notes", 0o755) }
        if access(s.vault + "/.notes", W_OK) == 0 {
            try FileManager.default.createDirectory(
                atPath: s.vault + "/.notes/symlinks/in-the-way", withIntermediateDirectories: true)
        }
        let env = ["XDG_CACHE_HOME": s.home + "/cache"]
        let first = try s.run(["list"], env: env)
        #expect(first.stderr.contains("/linked: is a symlink to a folder"), "\(first)")
        let second = try s.run(["list"], env: env)
        #expect(!second.stderr.contains("symlink"), "\(second)")
    }
}
