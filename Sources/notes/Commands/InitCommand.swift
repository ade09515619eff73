import Foundation
import NotesKit

/// `notes init [DIR]`: makes a folder a vault.
struct InitCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "init", overview: "Make a folder a vault (creates its .notes/ state folder).",
        arguments: [directoryArgument.spec],
        unexpected: { _ in "Give at most one folder." })

    static let directoryArgument = Positional<String>(
        "dir", kind: .directory, arity: .optional,
        help: "The folder (default: --vault, else the current directory). Created if missing.")

    let directory: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        directory = try arguments.optionalArgument(Self.directoryArgument)
    }

    func run(_ context: Context) throws {
        let given = directory ?? context.globals.vault ?? "."
        let absolute = context.locations.absolute(given)
        if let status = FileSystem.status(absolute), status.kind != .directory {
            throw CommandError("'\(given)' exists and is not a folder; choose another path")
        }
        let setup = try Vault.prepareState(at: absolute)
        let store = NoteStore(
            vault: try Vault(root: absolute), cacheDirectory: context.locations.cacheDirectory,
            environment: context.environment)
        store.record(setup)
        // Notes merge through this binary's merge driver, so that two machines' `updatedAt` never
        // conflict: `.gitattributes` and, in git, the local driver setting.
        let wroteAttributes = try store.setUpMergeDriver(context.mergeDriver) { warning in
            context.output.err("warning: " + warning)
        }
        if setup.madeStateFolder {
            context.output.out("Initialized an empty vault in \(absolute)\n")
        } else if store.pendingChanges.isEmpty {
            context.output.out("\(absolute) is already a vault; nothing changed\n")
        } else {
            let wrote =
                (setup.wroteIgnore ? [".notes/.gitignore"] : []) + (wroteAttributes ? [".gitattributes"] : [])
            context.output.out(
                "\(absolute) is already a vault; brought \(wrote.joined(separator: " and ")) up to date\n")
        }
        // The vault's own files are committed as any change is, by the vault's own gitAutoCommit
        // (or the `git add` to run is said): those written here, and those git has changes to,
        // such as the templates of a folder that was a vault before.
        let settings = LayeredSettings(user: context.loadedSettings, vaultRoot: absolute).effective
        store.recordUncommittedVaultFiles(templateFolder: settings.templatesFolder)
        for warning in AutoCommitter.commit(store, enabled: settings.autoCommit) {
            context.output.err("warning: " + warning)
        }
        warnAboutTrackedState(in: absolute, context: context)
    }

    /// `.notes/` is ignored by its own `.gitignore`, but files git already tracks stay tracked:
    /// their every rewrite (the index) would leave `git status` dirty. Says how to stop that,
    /// keeping the two files that are committed with the vault.
    private func warnAboutTrackedState(in folder: String, context: Context) {
        guard let vault = try? Vault(root: folder),
            NoteStore(
                vault: vault, cacheDirectory: context.locations.cacheDirectory,
                environment: context.environment
            )
            .gitTracksStateFolder()
        else { return }
        let local = NoteStore.stateFolderLocal.map(Shell.quote).joined(separator: " ")
        context.output.err(
            "warning: git tracks files in '\(folder)/.notes', the tool's local state (only its "
                + ".gitignore and settings.json belong in git); stop that with: git -C \(Shell.quote(folder)) "
                + "rm -r -q --cached -- \(local) && git -C \(Shell.quote(folder)) commit -m 'Stop tracking .notes'"
        )
    }
}
