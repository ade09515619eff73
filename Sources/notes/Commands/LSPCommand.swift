import Foundation
import NotesKit

/// `notes lsp`: the language server, speaking the Language Server Protocol on stdin and stdout.
struct LSPCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "lsp", overview: "Run the language server for editors (on stdin and stdout).",
        options: [stdioFlag.spec],
        discussion: """
            Speaks the Language Server Protocol (JSON-RPC with Content-Length headers) on stdin and
            stdout, logging to stderr: go to a link's note (definition), the links to a note
            (references), a note's first lines (hover), its headings (document symbols), notes by
            title or ID (workspace symbols), completion of notes after [[, their headings after
            [[note#, tags after # and relative paths after ](, and a code action that creates the
            note a broken link names (committed as add commits it, with gitAutoCommit). The vault
            is --vault or NOTES_VAULT, else the one found from the editor's workspace folder (or
            that folder itself), else the one found from the current directory.
            """)

    static let stdioFlag = Flag(
        "stdio", help: "Use stdin and stdout (the default; accepted as editors pass it).")

    init(_ arguments: ParsedArguments) throws(UsageError) {
        _ = arguments.flag(Self.stdioFlag)
    }

    func run(_ context: Context) throws {
        let output = context.output
        let server = LanguageServer(
            input: 0, output: 1, log: { output.err($0) },
            // Test seams: a request brings the catalog up to date when it is older than this many
            // seconds; the vault is watched by polling, or not at all.
            refreshInterval: context.environment["NOTES_TEST_LSP_REFRESH"].flatMap(Double.init) ?? .infinity,
            watching: Self.watching(context.environment["NOTES_TEST_LSP_WATCH"]),
            openStore: { folder in
                do {
                    return try Self.store(context, workspace: folder)
                } catch {
                    output.err("notes lsp: " + ErrorReport(error).sentence)
                    return nil
                }
            })
        server.settingsPath = context.settingsFile.path
        if server.run() != 0 {
            throw CommandError("The language server ended without a shutdown request.")
        }
    }

    /// How the server watches the vault: by default inotify where there is one, else polling.
    static func watching(_ seam: String?) -> CatalogSession.Watching {
        switch seam {
        case "poll": return .polling
        case "none": return .none
        default: return .automatic
        }
    }

    /// The vault: `--vault` or `NOTES_VAULT`; else the one found from the workspace folder, or
    /// that folder as a plain folder; with no workspace, the one found from the current directory.
    static func store(_ context: Context, workspace: String?) throws -> NoteStore? {
        let named = context.globals.vault.map { !$0.isEmpty } ?? false
        let variable = context.environment["NOTES_VAULT"].map { !$0.isEmpty } ?? false
        guard let workspace, !named, !variable else { return try context.store(creatingDefaultVault: false) }
        let locations = Locations(environment: context.environment, cwd: workspace)
        let (found, source) = locations.vault(flag: nil, setting: nil)
        let root = source == .enclosing ? found : workspace
        let settings = LayeredSettings(user: context.loadedSettings, vaultRoot: root).effective
        var vault = try Vault(root: root)
        vault.titleSource = settings.titleSource
        vault.fileNaming = settings.fileNaming
        return NoteStore(
            vault: vault, cacheDirectory: locations.cacheDirectory, environment: locations.environment)
    }
}
