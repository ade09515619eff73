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

    /// A vault we may only read keeps our index in the cache, so a file's warnings still come
    /// once per change of the file, not with every command.
    @Test func aReadOnlyVaultWarnsAboutAFileOncePerChange() throws {
        let s = try Sandbox()
        // Root ignores permission bits: run without the capabilities that let it.
        let wrapper =
            geteuid() == 0
            ? ["/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"] : []
        if !wrapper.isEmpty && access(wrapper[0], X_OK) != 0 {
            try Test.cancel("running as root, and setpriv is not there to drop CAP_DAC_OVERRIDE")
        }
        try s.write("bad.md", "---\nthis is not a key\n---\nbody\n")
        func seal(_ mode: mode_t) { for path in [s.vault + "/.notes", s.vault] { chmod(path, mode) } }
        seal(0o555)
        defer { seal(0o755) }
        let first = try s.run(["list"], wrapper: wrapper)
        #expect(first.stderr.contains("warning: \(s.vault)/bad.md:2: expected 'key: value'"), "\(first)")
        let second = try s.run(["list"], wrapper: wrapper)
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second)")
        #expect(try s.run(["search", "body"], wrapper: wrapper).stderr.isEmpty)
        seal(0o755)
        try s.write("bad.md", "---\nstill not a key\n---\nnew body\n")
        seal(0o555)
        let changed = try s.run(["list"], wrapper: wrapper)
        #expect(changed.stderr.contains("warning: \(s.vault)/bad.md:2: expected 'key: value'"), "\(changed)")
        #expect(!FileManager.default.fileExists(atPath: s.vault + "/.notes/index"))
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

    /// A vault that cannot be read at all is a failure (exit 1), not an empty list: a script can
    /// tell it from a vault with no notes.
    @Test func anUnreadableVaultFails() throws {
        let s = try Sandbox()
        try s.write("ok.md", "# Fine\n")
        guard geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            try Test.cancel("running as root, and setpriv is not there to drop privileges")
        }
        chmod(s.vault, 0o000)
        defer { chmod(s.vault, 0o755) }
        for command in ["list", "search fine"] {
            let r =
                geteuid() == 0
                ? try s.run(
                    [],
                    shell:
                        "exec /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups '\(Sandbox.binary)' "
                        + command)
                : try s.run(command.split(separator: " ").map(String.init))
            #expect(r.status == 1, "\(r)")
            #expect(r.stdout.isEmpty, "\(r)")
            #expect(
                r.stderr.contains(
                    "Error: could not access '\(s.vault)': the vault folder cannot be read (Permission denied)"
                ),
                "\(r)")
        }
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
