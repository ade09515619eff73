import Foundation
import TestSupport
import Testing

/// Where a command looks for the vault, as a stranger found it.
@Suite struct VaultLocationTests {
    /// `notes --vault "$UNSET" delete --yes x` must not act on another vault.
    @Test(arguments: [
        ["--vault", "", "path"], ["--vault=", "list"], ["delete", "--yes", "x", "--vault", ""],
        ["--config", "", "config"],
    ])
    func anEmptyVaultOrConfigIsAUsageError(arguments: [String]) throws {
        let s = try Sandbox()
        try s.write("x.md", "# X\n")
        let r = try s.run(arguments)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.hasPrefix("Error: '--"), "\(r)")
        #expect(r.stderr.contains("' needs a value; it was empty."), "\(r)")
        #expect(s.exists("x.md"))
    }

    @Test func pathOfAMissingNamedVaultIsAnError() throws {
        let s = try Sandbox()
        let typo = s.root.path + "/typo"
        let r = try s.run(["--vault", typo, "path"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr == "Error: the vault '\(typo)' does not exist; create it with: notes init \(typo)\n")
        // The default vault is printed even before it exists: it is where `add` will make it.
        let home = try s.run(["path"], vaultVariable: false)
        #expect(home.status == 0 && home.stdout == s.home + "/Notes\n", "\(home)")
        #expect(try s.run(["path"]).stdout == s.vault + "\n")
    }
}
