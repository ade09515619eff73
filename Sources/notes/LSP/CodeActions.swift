import Foundation
import NotesKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The `Create note` code action on a broken link, carried out by the server as the command
/// `notes.createNote`, and what a hover on a broken link says it would make.
extension LanguageFeatures {
    /// The command the code action runs.
    static let createNoteCommand = "notes.createNote"

    /// The note a broken link would be made as: the vault path (a `[[link]]`'s target from the
    /// top of the vault, a Markdown link's path from the linking note's folder) and what refuses it.
    func newNotePath(for link: NoteLink, from source: String) -> Result<String, VaultError>? {
        guard let store else { return nil }
        var argument = link.decodedTarget
        if link.style == .markdown {
            let folder = FileSystem.parentFolder(of: source)
            argument =
                argument.hasPrefix("/")
                ? String(argument.drop { $0 == "/" })
                : Vault.normalized(folder.isEmpty ? argument : folder + "/" + argument)
        }
        guard !argument.isEmpty else { return nil }
        do {
            return .success(try store.pathForNewNote(argument))
        } catch {
            return .failure(error)
        }
    }

    /// Whether the server may write into the vault: a vault it may only read is served read-only.
    var vaultIsWritable: Bool {
        guard let store else { return false }
        return access(store.vault.root, W_OK) == 0
    }

    /// `Create note 'X'` for each broken link the range touches, when the note can be made.
    func codeActions(_ params: JSONValue) throws -> JSONValue {
        guard let uri = params["textDocument"]?["uri"]?.stringValue,
            let start = params["range"]?["start"], let end = params["range"]?["end"],
            let startLine = start["line"]?.intValue, let startColumn = start["character"]?.intValue,
            let endLine = end["line"]?.intValue, let endColumn = end["character"]?.intValue
        else {
            throw LanguageServer.Failure(
                code: .invalidParams, message: "Expected textDocument.uri and range.")
        }
        guard vaultIsWritable, let text = text(of: uri), let source = vaultPath(of: uri) else {
            return .array([])
        }
        let positions = TextPositions(text)
        let from = positions.offset(line: startLine, column: startColumn, encoding: encoding)
        let to = positions.offset(line: endLine, column: endColumn, encoding: encoding)
        let diagnostics = params["context"]?["diagnostics"]?.arrayValue ?? []
        var actions: [JSONValue] = []
        var offered: Set<String> = []
        // A note is offered for a `[[link]]` or a `[p](plan.md)` that goes nowhere; `[p](plan)`
        // may be meant for a file.
        for found in links(in: text, bare: false)
        where found.range.lowerBound <= to && from <= found.range.upperBound
            && target(of: found.link, in: uri) == nil
        {
            guard case .success(let path) = newNotePath(for: found.link, from: source),
                offered.insert(path).inserted
            else { continue }
            let title = "Create note '\(found.link.decodedTarget)'"
            let linkRange = range(found.range, in: positions)
            actions.append(
                .object([
                    "title": .string(title), "kind": .string("quickfix"),
                    "diagnostics": .array(diagnostics.filter { $0["range"] == linkRange }),
                    "command": .object([
                        "title": .string(title), "command": .string(Self.createNoteCommand),
                        "arguments": .array([.object(["path": .string(path)])]),
                    ]),
                ]))
        }
        return .array(actions)
    }

    /// Runs a command of ours: `notes.createNote` makes the note (see `NoteStore.create`),
    /// commits it as `add` would with `gitAutoCommit`, asks the client to show it where it can,
    /// and has the open documents' diagnostics published again. Answers the new note's URI.
    func executeCommand(_ params: JSONValue) throws -> JSONValue {
        guard params["command"]?.stringValue == Self.createNoteCommand else {
            throw LanguageServer.Failure(
                code: .invalidParams, message: "Unknown command '\(params["command"]?.stringValue ?? "")'.")
        }
        guard let path = params["arguments"]?.arrayValue?.first?["path"]?.stringValue else {
            throw LanguageServer.Failure(code: .invalidParams, message: "Expected arguments [{\"path\": …}].")
        }
        guard let store else {
            throw LanguageServer.Failure(code: .requestFailed, message: "No vault is open.")
        }
        guard vaultIsWritable else {
            throw LanguageServer.Failure(
                code: .requestFailed,
                message: "The vault \(store.vault.root) is read-only; nothing was created.")
        }
        let created: String
        do {
            created = try store.create(path, now: Date().timeIntervalSince1970)
        } catch .alreadyExists(let existing) {
            throw LanguageServer.Failure(
                code: .requestFailed, message: "The note '\(existing)' already exists; nothing was created.")
        } catch {
            throw LanguageServer.Failure(code: .requestFailed, message: ErrorReport(error).sentence)
        }
        for warning in AutoCommitter.commit(store, enabled: autoCommitEnabled(store)) {
            log("notes lsp: warning: \(warning)")
        }
        let uri = uri(ofNote: created)
        if clientShowsDocuments {
            sendRequest("window/showDocument", .object(["uri": .string(uri), "takeFocus": .bool(true)]))
        }
        republishDiagnostics()
        return .object(["uri": .string(uri), "path": .string(created)])
    }

    /// `gitAutoCommit` as a command run now would read it: the user's settings file with the
    /// vault's own over it.
    private func autoCommitEnabled(_ store: NoteStore) -> Bool {
        let path =
            settingsPath
            ?? Locations(
                environment: ProcessInfo.processInfo.environment,
                cwd: FileManager.default.currentDirectoryPath
            ).settingsPath(flag: nil)
        let user = SettingsFile(path: path).load()
        return LayeredSettings(user: user, vaultRoot: store.vault.root).effective.autoCommit
    }

    /// A hover's text on a broken link: that no note has the name, and what `Create note` makes
    /// (or why it cannot).
    func brokenLinkHover(_ link: NoteLink, in uri: String) -> String {
        let missing = "No note named '\(link.decodedTarget)'."
        guard let source = vaultPath(of: uri), let made = newNotePath(for: link, from: source) else {
            return missing
        }
        switch made {
        case .success(let path):
            guard vaultIsWritable else { return missing + " The vault is read-only." }
            return missing
                + "\n\n*Create note* (a code action) makes `\(path)`, titled `\(Note.fileTitle(path))`."
        case .failure(let error):
            return missing + " It cannot be created: " + ErrorReport(error).sentence
        }
    }
}
