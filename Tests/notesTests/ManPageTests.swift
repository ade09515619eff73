import Foundation
import TestSupport
import Testing

/// `Sources/notes/notes.1` is what `notes __man` generates from the declarations today, and it
/// is valid roff.
@Suite struct ManPageTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/notes/notes.1").path

    @Test func theManPageInTheRepositoryIsCurrent() throws {
        let s = try Sandbox()
        let r = try s.run(["__man"])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        let kept = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(
            kept == r.stdout,
            "Sources/notes/notes.1 is out of date; regenerate it with: swift run notes __man > Sources/notes/notes.1"
        )
        // Every visible command has its section; the hidden ones have none.
        for command in ["init", "add", "list", "sync", "history", "conflicts", "completions", "config set"] {
            #expect(kept.contains(".SS \"notes \(command)"), "\(command)")
        }
        #expect(!kept.contains("__complete") && !kept.contains("__man\""))
        #expect(kept.contains("gitAutoCommit"))
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed")
    )
    func groffReadsItWithoutWarnings() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-Tutf8", "-ww", "-z", Self.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(warnings == "")
    }
}
