import Foundation
import NotesKit
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// How `notes lsp` serves while it reads: cancellation, and the vault kept fresh without the
/// client's help (inotify, polling) or with it (`workspace/didChangeWatchedFiles`).
@Suite struct LSPServingTests {
    static func frame(_ message: JSONValue) -> [UInt8] {
        let body = Array(message.compact.utf8)
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    static func request(_ id: String, _ method: String, _ params: JSONValue) -> JSONValue {
        .object(["jsonrpc": .string("2.0"), "id": .string(id), "method": .string(method), "params": params])
    }

    /// Asks `condition` again and again (a request each time) until it holds or a minute passes.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func aCancelledRequestIsAnsweredCancelledAndTheNextOneIsServed() throws {
        let sandbox = try Sandbox()
        for i in 0..<300 { try sandbox.write("n\(i).md", "# Note \(i)\n") }
        let client = try LSPClient(sandbox)
        try client.initialize()
        // The request, its cancellation and another request, in one write.
        let cancel: JSONValue = .object([
            "jsonrpc": .string("2.0"), "method": .string("$/cancelRequest"),
            "params": .object(["id": .string("long")]),
        ])
        client.send(
            raw: Self.frame(Self.request("long", "workspace/symbol", .object(["query": .string("zzz")])))
                + Self.frame(cancel)
                + Self.frame(Self.request("next", "workspace/symbol", .object(["query": .string("Note 12")])))
        )
        let cancelled = try client.response(to: .string("long"))
        #expect(cancelled["error"]?["code"] == .int(-32800), "\(cancelled)")
        let next = try client.response(to: .string("next"))
        #expect(next["result"]?.arrayValue?.count == 11, "\(next)")
        // A cancellation of a request already answered changes nothing.
        client.notify("$/cancelRequest", .object(["id": .string("next")]))
        #expect(
            try client.request("workspace/symbol", .object(["query": .string("Note 299")]))["result"]?
                .arrayValue?.count == 1)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func requestsReadBeforeTheEndOfInputAreStillAnswered() throws {
        let sandbox = try Sandbox()
        try sandbox.write("alpha.md", "# Alpha\n")
        let client = try LSPClient(sandbox)
        try client.initialize()
        client.send(
            raw: Self.frame(Self.request("last", "workspace/symbol", .object(["query": .string("alpha")]))))
        #expect(client.finish() == 1)
        #expect(try client.response(to: .string("last"))["result"]?.arrayValue?.count == 1)
    }

    @Test(arguments: ["inotify", "poll"])
    func aNoteAddedInATerminalIsSeenWithoutTheClient(watching: String) throws {
        let sandbox = try Sandbox()
        try sandbox.write("alpha.md", "[[later]]\n")
        let client = try LSPClient(sandbox, env: watching == "poll" ? ["NOTES_TEST_LSP_WATCH": "poll"] : [:])
        try client.initialize()
        let alpha = LSPFeatureTests.uri(sandbox, "alpha.md")
        let later = LSPFeatureTests.uri(sandbox, "later.md")
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"] == .null)
        let add = try sandbox.run(["add", "--title", "Later", "Written in a terminal"])
        #expect(add.status == 0 && sandbox.exists("later.md"), "\(add)")
        #expect(
            try Self.eventually {
                try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"]
                    == LSPFeatureTests.location(later, 0, 0, 0)
            })
        // Removed: gone too.
        try FileManager.default.removeItem(atPath: sandbox.vault + "/later.md")
        #expect(
            try Self.eventually {
                try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"] == .null
            })
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func inotifySeesARewriteInPlace() throws {
        #if os(Linux)
            let sandbox = try Sandbox()
            try sandbox.write("alpha.md", "[[b#Part]]\n")
            try sandbox.write("b.md", "# B\n")
            let client = try LSPClient(sandbox)
            try client.initialize()
            let alpha = LSPFeatureTests.uri(sandbox, "alpha.md")
            let b = LSPFeatureTests.uri(sandbox, "b.md")
            #expect(
                try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"]
                    == LSPFeatureTests.location(b, 0, 0, 0))
            // Written in place (same inode), as an editor that does not rename its saves writes.
            let handle = try #require(FileHandle(forWritingAtPath: sandbox.vault + "/b.md"))
            handle.write(Data("# B\n\nmore\n## Part\n".utf8))
            try handle.close()
            #expect(
                try Self.eventually {
                    try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"]
                        == LSPFeatureTests.location(b, 3, 0, 0)
                })
            try client.request("shutdown")
            #expect(client.finish() == 0)
        #endif
    }

    @Test func watchedFilesAreRegisteredWhereAllowedAndTheirChangesSeenAtOnce() throws {
        let sandbox = try Sandbox()
        try sandbox.write("alpha.md", "[[later]]\n")
        // The server's own watching off: only the client's notification can tell it.
        let client = try LSPClient(sandbox, env: ["NOTES_TEST_LSP_WATCH": "none"])
        let capabilities: JSONValue = .object([
            "workspace": .object(["didChangeWatchedFiles": .object(["dynamicRegistration": .bool(true)])])
        ])
        try client.initialize(capabilities: capabilities)
        let registration = try client.next("client/registerCapability")
        let registered = registration["params"]?["registrations"]?.arrayValue?.first
        #expect(registered?["method"] == .string("workspace/didChangeWatchedFiles"))
        #expect(
            registered?["registerOptions"]?["watchers"]?.arrayValue?.first?["globPattern"]
                == .string("**/*.md"))
        let alpha = LSPFeatureTests.uri(sandbox, "alpha.md")
        let later = LSPFeatureTests.uri(sandbox, "later.md")
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"] == .null)
        let add = try sandbox.run(["add", "--title", "Later", "Written in a terminal"])
        #expect(add.status == 0, "\(add)")
        // Not seen without the notification…
        #expect(try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"] == .null)
        // …and seen at once with it.
        client.notify(
            "workspace/didChangeWatchedFiles",
            .object(["changes": .array([.object(["uri": .string(later), "type": .int(1)])])]))
        #expect(
            try client.request("textDocument/definition", LSPClient.at(alpha, 0, 2))["result"]
                == LSPFeatureTests.location(later, 0, 0, 0))
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }

    @Test func noRegistrationWithoutDynamicRegistration() throws {
        let sandbox = try Sandbox()
        try sandbox.write("alpha.md", "# Alpha\n")
        let client = try LSPClient(sandbox)
        try client.initialize()
        // Anything sent while `initialized` was handled comes before this answer.
        try client.request("workspace/symbol", .object(["query": .string("")]))
        #expect(client.takeReceived("client/registerCapability").isEmpty)
        try client.request("shutdown")
        #expect(client.finish() == 0)
    }
}
