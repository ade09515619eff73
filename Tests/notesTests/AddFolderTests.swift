import Foundation
import TestSupport
import Testing

/// Where `add` puts a new note: the current folder when it is inside the
/// vault, or `--folder`; never outside the vault, through a symlink or into a hidden folder.
@Suite struct AddFolderTests {
    @Test func addFromASubfolderOfTheVaultPutsTheNoteThere() throws {
        let s = try Sandbox()
        try FileManager.default.createDirectory(
            atPath: s.vault + "/work/meetings", withIntermediateDirectories: true)
        let r = try s.run(["add", "Standup"], cwd: s.vault + "/work/meetings", vaultVariable: false)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "work/meetings/standup\n")
        #expect(s.exists("work/meetings/standup.md"))
    }

    @Test func addFromTheRootOrOutsideTheVaultPutsTheNoteAtTheRoot() throws {
        let s = try Sandbox()
        #expect(try s.run(["add", "At root"], cwd: s.vault).stdout == "at-root\n")
        #expect(try s.run(["add", "From elsewhere"], cwd: s.home).stdout == "from-elsewhere\n")
    }

    @Test func addFromAHiddenFolderOfTheVaultPutsTheNoteAtTheRoot() throws {
        let s = try Sandbox()
        let r = try s.run(["add", "Hidden cwd"], cwd: s.vault + "/.notes")
        #expect(r.stdout == "hidden-cwd\n", "\(r)")
        #expect(s.exists("hidden-cwd.md"))
    }

    @Test func folderOptionIsRelativeToTheVaultFromOutsideAndToTheCurrentFolderInside() throws {
        let s = try Sandbox()
        #expect(
            try s.run(["add", "--folder", "projects/x", "Plan"], cwd: s.home).stdout == "projects/x/plan\n")
        #expect(s.exists("projects/x/plan.md"))
        let inside = try s.run(["add", "-f", "notes", "Sub"], cwd: s.vault + "/projects")
        #expect(inside.stdout == "projects/notes/sub\n", "\(inside)")
        let absolute = try s.run(["add", "--folder=\(s.vault)/abs", "Abs"], cwd: s.home)
        #expect(absolute.stdout == "abs/abs\n", "\(absolute)")
    }

    @Test(arguments: [
        ("../escape", "is outside the vault"),
        ("/tmp", "is outside the vault"),
        ("link/deeper", "is outside the vault"),
        (".git", "is a hidden folder"),
        ("a/.hidden", "is a hidden folder"),
        ("file.md/x", "it is a file, not a folder"),
    ])
    func foldersThatLeaveTheVaultOrHideNotesAreRefused(folder: String, message: String) throws {
        let s = try Sandbox()
        let outside = s.root.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: s.vault + "/link", withDestinationPath: outside)
        try s.write("file.md", "a file\n")
        let before = TreeSnapshot(s.root.path, skipping: ["vault/.notes"])
        let r = try s.run(["add", "--folder", folder, "Text"], cwd: s.home)
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.contains(message), "\(r)")
        #expect(TreeSnapshot(s.root.path, skipping: ["vault/.notes"]) == before)
    }

    /// A folder `--folder` would make gets a name links and every system can hold, as a moved
    /// note does (exit 64, nothing made); a folder that is there already is the user's and is used.
    @Test func aNewFolderNoNoteCanBeInIsAWrongArgument() throws {
        let s = try Sandbox()
        for folder in ["e:f", "x/ y", "Plan?", "a#b"] {
            let r = try s.run(["add", "--folder", folder, "Text"], cwd: s.home)
            #expect(r.status == 64 && r.stdout == "", "\(r)")
            #expect(
                r.stderr.hasPrefix("Error: '\(folder)' ") && r.stderr.contains("Usage: notes add"), "\(r)")
        }
        #expect(!s.exists("e:f") && !s.exists("x") && !s.exists("Plan?") && !s.exists("a#b"))
        try FileManager.default.createDirectory(atPath: s.vault + "/c:d", withIntermediateDirectories: true)
        #expect(try s.run(["add", "--folder", "c:d", "Text"], cwd: s.home).stdout == "c:d/text\n")
    }

    @Test func anEmptyNoteLeavesNoNewFolderBehind() throws {
        let s = try Sandbox()
        let r = try s.run(["add", "--folder", "new/place", "-"], stdin: "  \n", cwd: s.home)
        #expect(r.status == 1)
        #expect(!s.exists("new"))
    }
}
