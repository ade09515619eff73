import Foundation
import NotesKit
import TestSupport
import Testing

/// `notes lsp` run as a process on a temporary vault, spoken to through pipes.
@Suite struct LSPLifecycleTests {
    @Test func initializeAnnouncesTheServerAndItsCapabilities() throws {
        let sandbox = try Sandbox()
        let client = try LSPClient(sandbox, arguments: ["lsp", "--stdio"])
        let result = try #require(try client.initialize()["result"])
        #expect(result["serverInfo"]?["name"] == .string("notes"))
        #expect(result["serverInfo"]?["version"]?.stringValue?.isEmpty == false)
        let capabilities = try #require(result["capabilities"])
        #expect(capabilities["positionEncoding"] == .string("utf-16"))
        #expect(capabilities["textDocumentSync"]?["change"] == .int(2))
        #expect(capabilities["definitionProvider"] == .bool(true))
        #expect(capabilities["executeCommandProvider"]?["commands"] == .array([.string("notes.createNote")]))
        #expect(capabilities["codeActionProvider"]?["codeActionKinds"] == .array([.string("quickfix")]))
        #expect(try client.request("shutdown")["result"] == .null)
        client.notify("exit")
        #expect(client.waitForExit() == 0)
    }

    @Test func requestsBeforeInitializeAreRefused() throws {
        let sandbox = try Sandbox()
        let client = try LSPClient(sandbox)
        #expect(
            try client.request("textDocument/hover", LSPClient.at("file:///x.md", 0, 0))["error"]?["code"]
                == .int(-32002))
        #expect(try client.request("shutdown")["error"]?["code"] == .int(-32002))
        try client.initialize()
        #expect(try client.request("initialize")["error"]?["code"] == .int(-32600))
        #expect(client.finish() == 1)
    }

    @Test func exitWithoutShutdownIsOne() throws {
        let sandbox = try Sandbox()
        let client = try LSPClient(sandbox)
        try client.initialize()
        client.notify("exit")
        #expect(client.waitForExit() == 1)
    }

    @Test func theEndOfInputEndsTheServer() throws {
        let sandbox = try Sandbox()
        let client = try LSPClient(sandbox)
        try client.initialize()
        try client.request("shutdown")
        #expect(client.finish() == 0)
        let other = try LSPClient(sandbox)
        #expect(other.finish() == 1)
    }

    @Test func unknownMethodsAndBadParameters() throws {
        let sandbox = try Sandbox()
        let client = try LSPClient(sandbox)
        #expect(try client.request("initialize", .array([]))["error"]?["code"] == .int(-32602))
        try client.initialize()
        #expect(try client.request("notes/nothing")["error"]?["code"] == .int(-32601))
        client.notify("notes/unknownNotification")
        client.notify("$/setTrace", .object(["value": .string("off")]))
        let bad = try client.request("textDocument/definition", .object(["textDocument": .int(3)]))
        #expect(bad["error"]?["code"] == .int(-32602))
        let position = LSPClient.at("file:///x.md", 0, 0)
        #expect(try client.request("textDocument/hover", position)["result"] == .null)
        try client.request("shutdown")
        #expect(try client.request("textDocument/hover", position)["error"]?["code"] == .int(-32600))
        #expect(client.finish() == 0)
    }

    @Test func badFramesAreSkippedAndTheNextMessageServed() throws {
        let sandbox = try Sandbox()
        let client = try LSPClient(sandbox)
        try client.initialize()
        // Not JSON: a parse error answered with a null id.
        client.send(raw: Array("Content-Length: 8\r\n\r\n{\"jsonrp".utf8))
        let parseError = try client.readMessage()
        #expect(parseError["error"]?["code"] == .int(-32700))
        #expect(parseError["id"] == .null)
        // JSON but not a request.
        client.send(raw: Array("Content-Length: 2\r\n\r\n[]".utf8))
        #expect(try client.readMessage()["error"]?["code"] == .int(-32600))
        // A wrong header, binary garbage, a header without a length, a length that is no number.
        client.send(raw: Array("Content-Lenght: 5\r\n\r\nhello".utf8))
        client.send(raw: [0xFF, 0x00, 0xFE, 0x0D, 0x0A, 0x0D, 0x0A, 0x80, 0x81])
        client.send(raw: Array("Content-Type: x\r\n\r\n".utf8))
        client.send(raw: Array("Content-Length: many\r\n\r\n{}".utf8))
        #expect(try client.request("notes/nothing")["error"]?["code"] == .int(-32601))
        // A body shorter than its length swallows the start of the next message; the one after
        // that is served.
        client.send(raw: Array("Content-Length: 40\r\n\r\n{\"a\":1}".utf8))
        client.notify("initialized")
        #expect(try client.request("shutdown")["result"] == .null)
        client.notify("exit")
        #expect(client.waitForExit() == 0)
        #expect(client.log.contains("Content-Length"))
    }
}

extension LSPLifecycleTests {
    @Test func aMissingVaultIsLoggedAndADocumentStillGetsItsSymbols() throws {
        let sandbox = try Sandbox()
        let file = sandbox.root.path + "/loose.md"
        try "# Loose\n[[x]]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let client = try LSPClient(sandbox, env: ["NOTES_VAULT": sandbox.root.path + "/missing"])
        #expect(try client.initialize()["result"]?["serverInfo"]?["name"] == .string("notes"))
        let uri = FileURI.uri(file)
        #expect(try client.request("textDocument/definition", LSPClient.at(uri, 1, 2))["result"] == .null)
        let symbols = try client.request(
            "textDocument/documentSymbol", .object(["textDocument": .object(["uri": .string(uri)])]))
        #expect(symbols["result"]?.arrayValue?.first?["name"] == .string("Loose"))
        try client.request("shutdown")
        #expect(client.finish() == 0)
        #expect(client.log.contains("missing"), "\(client.log)")
    }
}
