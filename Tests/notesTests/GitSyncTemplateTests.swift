import Foundation
import TestSupport
import Testing

/// `notes sync` and `notes init` commit the template folder with the vault (SPEC §11), so the
/// other clone can start notes from the same templates; never a file the ignore rules exclude.
@Suite struct GitSyncTemplateTests {
    /// `notes init` of a folder in git that has templates already: with gitAutoCommit on (the
    /// user's setting, or the vault's own, written before the repository was made), they are
    /// committed with the vault's own files; off, they are in the `git add` it says to run.
    @Test(arguments: ["user", "vault", "off"])
    func initCommitsTheTemplateFolderWithTheVaultsOwnFiles(autoCommit: String) throws {
        let s = try Sandbox(initVault: false)
        try s.useGit()
        try s.write(".templates/meeting.md", "# {{title}}\n\n## Agenda\n")
        try s.write(".templates/scratch.tmp", "ignored by .gitignore\n")
        try s.write(".gitignore", "*.tmp\n")
        try s.write("groceries.md", "# Groceries\n")
        switch autoCommit {
        case "user": try s.run(["config", "set", "gitAutoCommit", "true"])
        case "vault": try s.run(["config", "set", "--vault-local", "gitAutoCommit", "true"])
        default: break
        }
        try s.gitOK(["init", "-q"])
        try s.gitOK(["add", "--", ".gitignore"])
        try s.gitOK(["commit", "-q", "-m", "start"])

        let r = try s.run(["init", s.vault])
        #expect(r.status == 0, "\(r)")
        let settings = autoCommit == "vault" ? [".notes/settings.json"] : []
        let own = [".gitattributes", ".notes/.gitignore"] + settings
        if autoCommit == "off" {
            #expect(
                r.stderr.contains("add -- .notes/.gitignore .gitattributes .templates/meeting.md &&"), "\(r)")
            #expect(try s.commitSubjects() == ["start"])
        } else {
            #expect(r.stderr == "", "\(r)")
            #expect(try s.committedFiles() == own + [".templates/meeting.md"])
            #expect(try s.gitStatus() == "?? groceries.md\n")
        }
    }

    /// Here: templates in `folder` (the default `.templates`, or one the vault's settings name),
    /// with files beside them that `.gitignore` and `.ignore` exclude; synced, then used there.
    @Test(arguments: [".templates", ".tpl/notes"])
    func syncCommitsTheTemplateFolderAndTheCloneUsesIt(folder: String) throws {
        let (s, other) = try GitSyncTests.clones()
        // The vault's setting goes to the clone with this sync.
        if folder != ".templates" {
            let r = try s.run(["config", "set", "--vault-local", "templateFolder", folder])
            #expect(r.status == 0, "\(r)")
        }
        try s.write(folder + "/meeting.md", "# {{title}}\n\n## Agenda\n")
        try s.write(folder + "/work/standup.md", "# Standup {{date}}\n")
        try s.write(folder + "/scratch.tmp", "ignored by .gitignore\n")
        try s.write(folder + "/private/mine.md", "ignored by .ignore\n")
        try s.write(".gitignore", "*.tmp\n")
        try s.write(".ignore", folder + "/private/\n")
        try s.gitOK(["add", "--", ".gitignore", ".ignore"])
        try s.gitOK(["commit", "-q", "-m", "ignore files"])

        var r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout.contains("Committed 2 files of the template folder: a clone has the templates too.\n"),
            "\(r)")
        let tracked = try s.gitOK(["ls-files", "--", folder]).split(separator: "\n").map(String.init)
        #expect(tracked == [folder + "/meeting.md", folder + "/work/standup.md"])
        #expect(try s.gitStatus() == "?? \(folder)/private/mine.md\n")

        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        r = try s.run(["templates"], env: ["NOTES_VAULT": other])
        #expect(r.stdout == "meeting\nwork/standup\n", "\(r)")
        r = try s.run(
            ["add", "--template", "meeting", "--title", "Standup", "x"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")

        // A changed and a removed template go too.
        try s.write(folder + "/meeting.md", "# {{title}}\n\n## Agenda\n\n## Actions\n")
        try FileManager.default.removeItem(atPath: s.vault + "/" + folder + "/work/standup.md")
        r = try s.run(["sync"])
        #expect(r.status == 0, "\(r)")
        #expect(try s.gitOK(["ls-files", "--", folder]) == folder + "/meeting.md\n")
        #expect(try s.gitStatus() == "?? \(folder)/private/mine.md\n")
        r = try s.run(["sync"], env: ["NOTES_VAULT": other])
        #expect(r.status == 0, "\(r)")
        #expect(
            try String(contentsOfFile: other + "/" + folder + "/meeting.md", encoding: .utf8)
                == "# {{title}}\n\n## Agenda\n\n## Actions\n")
        #expect(!FileManager.default.fileExists(atPath: other + "/" + folder + "/work/standup.md"))
    }
}
