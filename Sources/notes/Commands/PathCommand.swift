import Foundation
import NotesKit

/// `notes path [ID]`: the vault's folder, or a note's file.
struct PathCommand: NotesCommand {
    static let spec = CommandSpec(
        name: "path", overview: "Print the vault's path, or a note's file path.",
        arguments: [idArgument.spec],
        unexpected: { _ in "Give at most one note." })

    static let idArgument = Positional<String>(
        "id", kind: .noteID, arity: .optional, help: "A note: ID, path, unique ID prefix or title.")

    let id: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.optionalArgument(Self.idArgument)
    }

    func run(_ context: Context) throws {
        // A vault named by --vault, NOTES_VAULT or the setting must exist; the default one is
        // printed even before it is made (it is where `notes add` will make it).
        guard let store = try context.store(creatingDefaultVault: false) else {
            guard id == nil else { throw VaultError.noMatch(id ?? "") }
            let (path, _) = context.locations.vault(
                flag: context.globals.vault, setting: context.settings.vault)
            context.output.out(context.locations.absolute(path) + "\n")
            return
        }
        guard let id else {
            context.output.out(context.locations.absolute(store.vault.root) + "\n")
            return
        }
        let note = try context.note(id, in: store).note
        context.output.out(context.locations.absolute(store.vault.fullPath(note.path)) + "\n")
    }
}
