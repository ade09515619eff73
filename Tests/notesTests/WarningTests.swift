import Foundation
import TestSupport
import Testing

/// How problems with the vault's files are reported.
@Suite struct WarningTests {
    @Test func aFilesWarningsComeOncePerChangeOfTheFile() throws {
        let s = try Sandbox()
        try s.write("bad.md", "---\nthis is not a key\n---\nbody\n")
        let first = try s.run(["list"])
        #expect(first.stderr.contains("warning: \(s.vault)/bad.md:2: expected 'key: value'"), "\(first)")
        let second = try s.run(["list"])
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second)")
        try s.write("bad.md", "---\nstill not a key\n---\nnew body\n")
        let changed = try s.run(["search", "body"])
        #expect(changed.stderr.contains("warning: \(s.vault)/bad.md:2: expected 'key: value'"), "\(changed)")
        // A lookup by prefix that reads a changed file reports its warnings (once) too.
        try s.write("bad.md", "---\nagain not a key\n---\nthird body\n")
        try s.write("zeta.md", "# Zeta\n")
        let prefix = try s.run(["show", "zet"])
        #expect(prefix.status == 0, "\(prefix)")
        #expect(prefix.stderr.contains("warning: \(s.vault)/bad.md:2: expected 'key: value'"), "\(prefix)")
        #expect(try s.run(["list"]).stderr.isEmpty)
        // The note asked for by name always shows its own problems.
        let show = try s.run(["show", "bad"])
        #expect(show.stderr.contains("bad.md:2"), "\(show)")
    }

    @Test(arguments: [["--quiet", "list"], ["list", "-q"], ["-q", "show", "bad"]])
    func quietSilencesWarnings(arguments: [String]) throws {
        let s = try Sandbox()
        try s.write("bad.md", "---\nthis is not a key\n---\nbody\n")
        try "{not json".write(toFile: s.config + "/settings.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: s.config + "/notes", withIntermediateDirectories: true)
        try "{not json".write(toFile: s.config + "/notes/settings.json", atomically: true, encoding: .utf8)
        let r = try s.run(arguments)
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.isEmpty, "\(r)")
    }

    /// Permission bits do not stop root, so as root `notes` runs as nobody (util-linux's setpriv).
    @Test func anUnreadableFolderIsReportedNotSkippedSilently() throws {
        let s = try Sandbox()
        try s.write("ok.md", "# Fine\n")
        try s.write("locked/inside.md", "# Hidden by permissions\n")
        let fm = FileManager.default
        try fm.setAttributes([.posixPermissions: 0o000], ofItemAtPath: s.vault + "/locked")
        defer { try? fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: s.vault + "/locked") }
        let r: RunResult
        if geteuid() == 0 {
            guard fm.isExecutableFile(atPath: "/usr/bin/setpriv") else {
                print("skipped: running as root without /usr/bin/setpriv to drop privileges")
                return
            }
            r = try s.run(
                [],
                shell:
                    "exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups '\(Sandbox.binary)' list"
            )
        } else {
            r = try s.run(["list"])
        }
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.hasPrefix("ok\t"), "\(r)")
        #expect(
            r.stderr.contains(
                "warning: \(s.vault)/locked: could not read this folder (Permission denied); its notes are skipped"
            ), "\(r)")
    }
}
