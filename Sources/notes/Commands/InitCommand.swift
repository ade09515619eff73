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
        let created = try Vault.initialize(at: absolute)
        let (wroteAttributes, inGit) = try setUpMergeDriver(in: absolute, context: context)
        if created {
            context.output.out("Initialized an empty vault in \(absolute)\n")
        } else if !wroteAttributes {
            context.output.out("\(absolute) is already a vault; nothing changed\n")
        }
        if wroteAttributes && (inGit || !created) {
            context.output.out(
                "Wrote .gitattributes: git merges notes through notes' merge driver"
                    + (inGit ? "; 'notes sync' commits it.\n" : ".\n"))
        }
        warnAboutTrackedState(in: absolute, context: context)
    }

    /// Notes merge through this binary's merge driver, so that two machines' `updatedAt` never
    /// conflict: `.gitattributes` (which `sync` commits) and, in git, the local driver setting.
    /// Returns whether `.gitattributes` was written and whether the folder is in git.
    private func setUpMergeDriver(in folder: String, context: Context) throws -> (Bool, Bool) {
        let store = NoteStore(
            vault: try Vault(root: folder), cacheDirectory: context.locations.cacheDirectory,
            environment: context.environment)
        let wrote = try store.setUpMergeDriver(context.mergeDriver)
        return (wrote, (try? store.uncommittedPaths()) != nil)
    }

    /// `.notes/` is ignored by its own `.gitignore`, but files git already tracks stay tracked:
    /// their every rewrite (the index) would leave `git status` dirty. Says how to stop that.
    private func warnAboutTrackedState(in folder: String, context: Context) {
        guard let vault = try? Vault(root: folder),
            NoteStore(
                vault: vault, cacheDirectory: context.locations.cacheDirectory,
                environment: context.environment
            )
            .gitTracksStateFolder()
        else { return }
        context.output.err(
            "warning: git tracks files in '\(folder)/.notes', the tool's local state; stop that "
                + "with: git -C \(Shell.quote(folder)) rm -r --cached .notes && git -C \(Shell.quote(folder)) commit -m "
                + "'Stop tracking .notes'")
    }
}
