import Foundation
import NotesKit
import TestSupport

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A language-server client for tests: starts `notes lsp` on a sandbox with pipes for stdin and
/// stdout (stderr goes to a file), sends framed JSON-RPC and reads the answers synchronously,
/// each read bounded by a minute so that a server that never answers fails the test.
final class LSPClient {
    struct Timeout: Error, CustomStringConvertible {
        var description: String { "the server did not answer within a minute" }
    }

    let process = Process()
    private let input: FileHandle
    private let output: Int32
    private let errorPath: String
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// Messages from the server other than responses (notifications, its requests), read while
    /// waiting for something else and not taken yet.
    private var received: [JSONValue] = []

    init(
        _ sandbox: Sandbox, arguments: [String] = ["lsp"], vaultVariable: Bool = true, cwd: String? = nil,
        env extra: [String: String] = [:], wrapper: [String] = []
    ) throws {
        // `wrapper` (such as setpriv) execs the server.
        let argv = wrapper + [Sandbox.binary] + arguments
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: cwd ?? sandbox.root.path)
        process.environment = sandbox.baseEnvironment(vaultVariable: vaultVariable).merging(extra) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        errorPath = sandbox.root.path + "/.lsp-err-\(UUID().uuidString)"
        try Data().write(to: URL(fileURLWithPath: errorPath))
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        try process.run()
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading.fileDescriptor
    }

    /// What the server wrote on stderr so far.
    var log: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Sends raw bytes.
    func send(raw bytes: [UInt8]) { input.write(Data(bytes)) }

    /// Sends a message with its header.
    func send(_ message: JSONValue) {
        let body = Array(message.compact.utf8)
        send(raw: Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    /// Sends a request and returns the response to it (messages before it are skipped).
    @discardableResult
    func request(_ method: String, _ params: JSONValue = .object([:])) throws -> JSONValue {
        let id = nextID
        nextID += 1
        send(
            .object(["jsonrpc": .string("2.0"), "id": .int(id), "method": .string(method), "params": params]))
        return try response(to: .int(id))
    }

    /// Reads messages until the response with `id`.
    func response(to id: JSONValue) throws -> JSONValue {
        while true {
            let message = try readMessage()
            if message["id"] == id && message["method"] == nil { return message }
            if message["method"] != nil { received.append(message) }
        }
    }

    /// The messages with `method` read so far and not taken yet (taking them).
    func takeReceived(_ method: String) -> [JSONValue] {
        let found = received.filter { $0["method"]?.stringValue == method }
        received.removeAll { $0["method"]?.stringValue == method }
        return found
    }

    /// The next message from the server with `method` for which `matches` holds (those read
    /// before it are kept for later), waiting for it as long as `readMessage` does.
    func next(_ method: String, where matches: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        if let i = received.firstIndex(where: { $0["method"]?.stringValue == method && matches($0) }) {
            return received.remove(at: i)
        }
        while true {
            let message = try readMessage()
            if message["method"]?.stringValue == method && matches(message) { return message }
            if message["method"] != nil { received.append(message) }
        }
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSONValue = .object([:])) {
        send(.object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params]))
    }

    /// `initialize` with `capabilities`, then `initialized`; returns the result.
    @discardableResult
    func initialize(_ extra: JSONObject = [:], capabilities: JSONValue = .object([:])) throws -> JSONValue {
        var params: JSONObject = ["processId": .null, "capabilities": capabilities, "rootUri": .null]
        for (key, value) in extra.pairs { params[key] = value }
        let response = try request("initialize", .object(params))
        notify("initialized")
        return response
    }

    /// Opens a document with its text.
    func open(_ uri: String, _ text: String) {
        notify(
            "textDocument/didOpen",
            .object([
                "textDocument": .object([
                    "uri": .string(uri), "languageId": .string("markdown"), "version": .int(1),
                    "text": .string(text),
                ])
            ]))
    }

    /// The parameters of a request at a position of a document.
    static func at(_ uri: String, _ line: Int, _ character: Int) -> JSONValue {
        .object([
            "textDocument": .object(["uri": .string(uri)]),
            "position": .object(["line": .int(line), "character": .int(character)]),
        ])
    }

    /// Reads one framed message.
    func readMessage() throws -> JSONValue {
        while true {
            if let end = find([0x0D, 0x0A, 0x0D, 0x0A]) {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                let length = header.split(separator: "\r\n").compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first
                if let length, buffer.count >= end + 4 + length {
                    let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return try JSONValue.parse(body)
                }
            }
            try fill()
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i..<(i + needle.count)].elementsEqual(needle)
        {
            return i
        }
        return nil
    }

    private func fill() throws {
        var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 60_000) > 0 else { throw Timeout() }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        guard n > 0 else { throw Timeout() }
        buffer += chunk[0..<n]
    }

    /// Closes stdin and waits for the server to end; its exit status.
    func finish() -> Int32 {
        try? input.close()
        return waitForExit()
    }

    /// Waits for the server to end by itself (after `exit`); its exit status. A server still
    /// running after a minute is killed, so a hang fails the test instead of stalling the suite.
    func waitForExit() -> Int32 {
        let process = process
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: errorPath)
    }
}
