import Foundation
import NotesKit
import TestSupport
import Testing

@testable import notes

/// Every error becomes its sentence, exit code and `Error: …` lines in `ErrorReport`; the hints
/// that name a `notes` command are added there, not in the library.
@Suite struct ErrorReportTests {
    @Test func suggestedCommandsPutDoubleDashBeforeAnArgumentThatLooksLikeAnOption() {
        #expect(Shell.notes("restore", argument: "-x y") == "notes restore -- '-x y'")
        #expect(Shell.notes("init", argument: "/tmp/v") == "notes init /tmp/v")
    }

    /// The sentences users have always read; the library's part names no command.
    @Test(arguments: [
        (
            VaultError.vaultMissing("/tmp/my v"),
            "the vault '/tmp/my v' does not exist; create it with: notes init '/tmp/my v'"
        ),
        (
            VaultError.notAFolder("/tmp/f"),
            "the vault '/tmp/f' is not a folder; give the path of a folder, or create one with 'notes init DIR'"
        ),
        (
            VaultError.stateNotAFolder("/v/.notes"),
            "could not access '/v/.notes': it is a file, not the vault's state folder; move it away "
                + "and run 'notes init' again"
        ),
        (VaultError.notInTrash("plan"), "no note in the trash matches 'plan'; see 'notes trash'"),
    ])
    func theCommandLineAddsTheHint(error: VaultError, sentence: String) {
        let report = ErrorReport(error)
        #expect(report.sentence == sentence)
        #expect(report.lines == "Error: " + sentence)
        #expect(report.exitCode == 1)
        #expect(!(error.errorDescription ?? "").contains("notes "))
    }

    @Test func aCommandErrorIsItsMessageWithExitOne() {
        let report = ErrorReport(CommandError("refusing to delete without confirmation"))
        #expect(report.headline == "Error: refusing to delete without confirmation")
        #expect(!report.isUsageError)
        #expect(report.exitCode == 1)
    }

    @Test func aUsageErrorShowsTheUsageLineAndExits64() {
        let report = ErrorReport(UsageError(message: "Missing the note to move.", command: MoveCommand.spec))
        #expect(report.isUsageError)
        #expect(report.exitCode == 64)
        #expect(report.sentence == "Missing the note to move.")
        #expect(
            report.lines == """
                Error: Missing the note to move.
                Usage: notes move [--dry-run] <id> <new>
                  See 'notes move --help' for more information.
                """)
    }

    @Test func theStateFolderBeingAFileIsReportedWithTheHint() throws {
        let sandbox = try Sandbox(initVault: false)
        let folder = sandbox.root.path + "/blocked"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder + "/.notes", contents: Data()))
        let r = try sandbox.run(["init", folder])
        #expect(r.status == 1)
        #expect(
            r.stderr == "Error: could not access '\(folder)/.notes': it is a file, not the vault's state "
                + "folder; move it away and run 'notes init' again\n")
    }
}
