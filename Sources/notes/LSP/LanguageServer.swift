import Foundation
import NotesKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// `notes lsp`'s loop: a reader thread cuts the input into messages and queues them, and the
/// worker (the calling thread) handles them in turn, answering on the output and logging on a
/// third descriptor — so a `$/cancelRequest` is seen while the request it names runs. Bad input
/// is answered or logged and never ends it; `exit` and the end of input do. The worker also sends
/// diagnostics when they are due, and hears from the catalog session when the vault changed.
final class LanguageServer {
    /// JSON-RPC and protocol error codes.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case serverNotInitialized = -32002
        case requestFailed = -32803
        case requestCancelled = -32800
    }

    /// A request that cannot be answered with a result.
    struct Failure: Error {
        var code: ErrorCode
        var message: String
    }

    private let input: Int32
    private let output: Int32
    private let log: (String) -> Void
    /// Makes the store once the vault is known: from the flag, the variable, the workspace folder
    /// (nil when the client named none), or the current directory.
    private let openStore: (String?) throws -> NoteStore?
    /// How old the catalog may get before a request brings it up to date itself (a test seam:
    /// the session keeps it fresh otherwise).
    private let refreshInterval: Double
    /// How the catalog session learns of changes to the vault.
    private let watching: CatalogSession.Watching
    private let queue = ServerQueue()
    private let diagnostics = DiagnosticsPublisher()
    private var initialized = false
    private var shuttingDown = false
    /// What the client said it can do, in `initialize`.
    private var clientCapabilities: JSONValue = .null
    /// Whether the client lets the server register for `workspace/didChangeWatchedFiles`.
    private var canRegisterWatching = false
    private var nextRequestID = 1
    var features: LanguageFeatures?
    /// The user's settings file (`--config`, else where the environment puts it), which the
    /// features read `gitAutoCommit` from when they change the vault.
    var settingsPath: String?

    init(
        input: Int32, output: Int32, log: @escaping (String) -> Void,
        refreshInterval: Double = .infinity, watching: CatalogSession.Watching = .automatic,
        openStore: @escaping (String?) throws -> NoteStore?
    ) {
        self.refreshInterval = refreshInterval
        self.watching = watching
        self.input = input
        self.output = output
        self.log = log
        self.openStore = openStore
    }

    /// Serves until `exit` (0 after `shutdown`, else 1) or the end of input (0 after `shutdown`,
    /// else 1).
    func run() -> Int32 {
        let reader = Thread { [input, queue] in Self.readLoop(input, into: queue) }
        reader.name = "notes lsp reader"
        reader.start()
        defer { features?.session?.stop() }
        while true {
            if let features { send(diagnostics.take(features)) }
            guard let item = queue.take(until: diagnostics.nextDeadline) else { continue }
            switch item {
            case .message(let message):
                if let status = handle(message) { return status }
            case .notJSON(let error):
                log("notes lsp: a message that is not JSON (\(error.reason) at byte \(error.offset)).")
                respond(
                    id: .null, error: Failure(code: .parseError, message: "Invalid JSON: \(error.reason)"))
            case .badFrame(let reason): log("notes lsp: \(reason)")
            case .catalogChanged:
                if let features { diagnostics.scheduleAll(features, after: 0) }
            case .end: return shuttingDown ? 0 : 1
            }
        }
    }

    /// The reader: each read's messages queued together, then the end of input.
    private static func readLoop(_ input: Int32, into queue: ServerQueue) {
        var frames = MessageFrames()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                var last: [Incoming] = []
                if frames.pending > 0 { last.append(.badFrame("the input ended inside a message.")) }
                queue.add(last + [.end])
                return
            }
            frames.append(chunk[0..<count])
            var batch: [Incoming] = []
            while let frame = frames.next() {
                switch frame {
                case .bad(let reason): batch.append(.badFrame(reason))
                case .body(let body):
                    do {
                        batch.append(.message(try JSONValue.parse(body)))
                    } catch {
                        batch.append(.notJSON(error))
                    }
                }
            }
            if !batch.isEmpty { queue.add(batch) }
        }
    }

    // MARK: Messages

    /// Handles one message; returns the exit status when it ends the server.
    private func handle(_ message: JSONValue) -> Int32? {
        let id = message["id"]
        guard message.isObject, let method = message["method"]?.stringValue else {
            // A response to a request of ours (none are sent) or a message without a method.
            if message["result"] != nil || message["error"] != nil { return nil }
            respond(id: id ?? .null, error: Failure(code: .invalidRequest, message: "Not a request."))
            return nil
        }
        let params = message["params"] ?? .null
        guard let id else {
            return notification(method, params)
        }
        switch id {
        case .number, .string: break
        default:
            respond(
                id: .null,
                error: Failure(code: .invalidRequest, message: "An id must be a number or a string."))
            return nil
        }
        let queue = queue
        features?.isCancelled = { queue.isCancelled(id) }
        defer { features?.isCancelled = { false } }
        let answer: Result<JSONValue, Failure>
        do {
            guard !queue.isCancelled(id) else {
                throw Failure(code: .requestCancelled, message: "The request was cancelled.")
            }
            answer = .success(try request(method, params))
        } catch let failure as Failure {
            answer = .failure(failure)
        } catch {
            answer = .failure(Failure(code: .internalError, message: "\(error.localizedDescription)"))
        }
        // Forgotten before the answer goes out: a client may reuse the id as soon as it has it.
        queue.answered(id)
        switch answer {
        case .success(let result): respond(id: id, result: result)
        case .failure(let failure): respond(id: id, error: failure)
        }
        return nil
    }

    private func request(_ method: String, _ params: JSONValue) throws -> JSONValue {
        if method == "initialize" {
            guard !initialized else { throw Failure(code: .invalidRequest, message: "Already initialized.") }
            return try initialize(params)
        }
        guard initialized, let features else {
            throw Failure(code: .serverNotInitialized, message: "The server is not initialized yet.")
        }
        guard !shuttingDown else {
            throw Failure(code: .invalidRequest, message: "The server is shutting down.")
        }
        switch method {
        case "shutdown":
            shuttingDown = true
            return .null
        case "textDocument/definition": return try features.definition(try TextDocumentPosition(params))
        case "textDocument/references": return try features.references(try TextDocumentPosition(params))
        case "textDocument/hover": return try features.hover(try TextDocumentPosition(params))
        case "textDocument/prepareRename": return try features.prepareRename(try TextDocumentPosition(params))
        case "textDocument/rename":
            return try features.rename(params, support: WorkspaceEditSupport(clientCapabilities))
        case "textDocument/completion": return try features.completion(try TextDocumentPosition(params))
        case "textDocument/codeAction": return try features.codeActions(params)
        case "workspace/executeCommand": return try features.executeCommand(params)
        case "textDocument/documentSymbol":
            guard let uri = params["textDocument"]?["uri"]?.stringValue else {
                throw Failure(code: .invalidParams, message: "Expected textDocument.uri.")
            }
            return try features.documentSymbols(uri)
        case "workspace/symbol":
            guard let query = params["query"]?.stringValue else {
                throw Failure(code: .invalidParams, message: "Expected a query.")
            }
            return try features.workspaceSymbols(query)
        default: throw Failure(code: .methodNotFound, message: "Unknown method '\(method)'.")
        }
    }

    private func notification(_ method: String, _ params: JSONValue) -> Int32? {
        if method == "exit" { return shuttingDown ? 0 : 1 }
        guard initialized, let features else { return nil }
        do {
            switch method {
            case "initialized": registerWatching()
            case "textDocument/didOpen":
                try features.didOpen(params)
                if let uri = params["textDocument"]?["uri"]?.stringValue {
                    diagnostics.schedule(uri, after: 0)
                }
                diagnostics.scheduleAll(features)
            case "textDocument/didChange":
                try features.didChange(params)
                diagnostics.scheduleAll(features)
            case "textDocument/didClose":
                try features.didClose(params)
                if let uri = params["textDocument"]?["uri"]?.stringValue { send([diagnostics.closed(uri)]) }
                diagnostics.scheduleAll(features)
            case "workspace/didChangeWatchedFiles":
                // Read at once, so that the next request sees the change.
                if features.session?.refresh() != nil { diagnostics.scheduleAll(features, after: 0) }
            default: break
            }
        } catch let failure as Failure {
            log("notes lsp: \(method): \(failure.message)")
        } catch {
            log("notes lsp: \(method): \(error.localizedDescription)")
        }
        return nil
    }

    private func initialize(_ params: JSONValue) throws -> JSONValue {
        guard params.isObject else {
            throw Failure(code: .invalidParams, message: "initialize needs an object.")
        }
        let encodings = params["capabilities"]?["general"]?["positionEncodings"]?.arrayValue ?? []
        let encoding: PositionEncoding = encodings.contains(.string("utf-8")) ? .utf8 : .utf16
        let store = try openStore(Self.workspaceFolder(params))
        clientCapabilities = params["capabilities"] ?? .null
        canRegisterWatching =
            params["capabilities"]?["workspace"]?["didChangeWatchedFiles"]?["dynamicRegistration"]?.boolValue
            == true
        // The session's own store, used on its thread only.
        let session = (store == nil ? nil : try openStore(Self.workspaceFolder(params))).map { store in
            let log = UnsafeSendable(log)
            return CatalogSession(
                store: store, watching: watching, log: { log.value("notes lsp: \($0)") },
                changed: { [queue] in queue.catalogChanged() })
        }
        session?.start()
        let features = LanguageFeatures(
            store: store, encoding: encoding, session: session, refreshInterval: refreshInterval, log: log)
        features.republish = { [weak self, weak features] in
            guard let self, let features else { return }
            features.session?.refresh()
            self.send(self.diagnostics.take(features, force: true))
        }
        features.clientShowsDocuments =
            params["capabilities"]?["window"]?["showDocument"]?["support"]?.boolValue ?? false
        features.settingsPath = settingsPath
        features.sendRequest = { [unowned self] method, params in self.request(toClient: method, params) }
        self.features = features
        initialized = true
        let sync: JSONValue = .object([
            "openClose": .bool(true), "change": .int(2), "save": .object(["includeText": .bool(false)]),
        ])
        return .object([
            "capabilities": .object([
                "positionEncoding": .string(encoding.rawValue), "textDocumentSync": sync,
                "definitionProvider": .bool(true), "referencesProvider": .bool(true),
                "hoverProvider": .bool(true), "documentSymbolProvider": .bool(true),
                "workspaceSymbolProvider": .bool(true),
                "renameProvider": .object(["prepareProvider": .bool(true)]),
                "completionProvider": .object([
                    "triggerCharacters": .array([.string("["), .string("#"), .string("(")])
                ]),
                "codeActionProvider": .object(["codeActionKinds": .array([.string("quickfix")])]),
                "executeCommandProvider": .object([
                    "commands": .array([.string(LanguageFeatures.createNoteCommand)])
                ]),
            ]),
            "serverInfo": .object(["name": .string("notes"), "version": .string(CLI.version)]),
        ])
    }

    /// The first workspace folder's path: `workspaceFolders`, else `rootUri`, else `rootPath`.
    static func workspaceFolder(_ params: JSONValue) -> String? {
        if let first = params["workspaceFolders"]?.arrayValue?.first?["uri"]?.stringValue {
            return FileURI.path(first)
        }
        if let uri = params["rootUri"]?.stringValue { return FileURI.path(uri) }
        if let path = params["rootPath"]?.stringValue, path.hasPrefix("/") { return path }
        return nil
    }

    /// Sends a request to the client; its answer is read and dropped as every response is.
    private func request(toClient method: String, _ params: JSONValue) {
        send(
            .object([
                "jsonrpc": .string("2.0"), "id": .string("notes-\(nextRequestID)"), "method": .string(method),
                "params": params,
            ]))
        nextRequestID += 1
    }

    /// Asks the client to tell of changes to the vault's notes (and ignore files), when it lets
    /// the server register for that.
    private func registerWatching() {
        guard canRegisterWatching, features?.session != nil else { return }
        let watchers: [JSONValue] = ["**/*.md", "**/*.markdown", "**/.gitignore", "**/.ignore"].map {
            .object(["globPattern": .string($0)])
        }
        let registration: JSONValue = .object([
            "id": .string("notes-watched-files"), "method": .string("workspace/didChangeWatchedFiles"),
            "registerOptions": .object(["watchers": .array(watchers)]),
        ])
        send([
            .object([
                "jsonrpc": .string("2.0"), "id": .string("notes-\(nextRequestID)"),
                "method": .string("client/registerCapability"),
                "params": .object(["registrations": .array([registration])]),
            ])
        ])
        nextRequestID += 1
    }

    private func send(_ messages: [JSONValue]) {
        for message in messages { send(message) }
    }

    private func respond(id: JSONValue, result: JSONValue) {
        send(.object(["jsonrpc": .string("2.0"), "id": id, "result": result]))
    }

    private func respond(id: JSONValue, error: Failure) {
        let body: JSONValue = .object(["code": .int(error.code.rawValue), "message": .string(error.message)])
        send(.object(["jsonrpc": .string("2.0"), "id": id, "error": body]))
    }

    private func send(_ message: JSONValue) {
        let bytes = MessageFrames.frame(message.compact)
        // The work of a message is done when it is answered: the index pages it read go back.
        features?.session?.releaseResidentPages()
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            written += n
        }
    }
}

/// A value handed to another thread that only ever calls it in a way that is safe there (a log
/// line written with one `write`).
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A request's `textDocument` and `position`.
struct TextDocumentPosition {
    var uri: String
    var line: Int
    var column: Int

    init(_ params: JSONValue) throws {
        guard let uri = params["textDocument"]?["uri"]?.stringValue,
            let line = params["position"]?["line"]?.intValue,
            let column = params["position"]?["character"]?.intValue
        else {
            throw LanguageServer.Failure(
                code: .invalidParams, message: "Expected textDocument.uri and position.line/character.")
        }
        self.uri = uri
        self.line = line
        self.column = column
    }
}
