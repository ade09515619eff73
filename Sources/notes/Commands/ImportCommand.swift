import NotesKit

/// A FORMAT word of `notes import`: one of `ImportFormats.all`.
struct ImportFormatName: ArgumentValue {
    let name: String

    init?(argument: String) {
        guard ImportFormats.named(argument) != nil else { return nil }
        name = argument
    }

    static var names: [String] { ImportFormats.all.map { $0.name } }

    static var kind: ArgumentKind { .choice(names) }

    /// `'x' is not an import format; use …`, with a suggestion for a typo.
    static func invalid(_ text: String) -> String {
        let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        return "'\(text)' is not an import format; use \(list)."
            + Suggestions.didYouMean(Suggestions.closest(to: text, among: names))
    }
}

/// `notes import FORMAT PATH…`: notes from another app's export, each a new note file.
struct ImportCommand: NotesCommand {
    static let formatArgument = Positional<ImportFormatName>(
        "format", help: "The app the notes come from: \(ImportFormatName.names.joined(separator: ", ")).",
        missing: "Missing the format (\(ImportFormatName.names.joined(separator: ", "))).")
    static let pathArgument = Positional<String>(
        "path", kind: .file, arity: .variadic(atLeastOne: true), help: "The app's export: files or folders.",
        missing: "Missing the file to import.")
    static let folderOption = Option<String>(
        "folder", short: "f", value: "folder", kind: .folder,
        help: "Put the notes in this folder of the vault (created if missing).")
    static let dryRunFlag = Flag("dry-run", help: "Print what would be imported, and write nothing.")

    static let spec = CommandSpec(
        name: "import", overview: "Bring notes in from another app.",
        arguments: [formatArgument.spec, pathArgument.spec],
        options: [folderOption.spec, dryRunFlag.spec],
        discussion: """
            Each entry becomes a note as 'notes add' makes one, with its dates, its tags and
            importedFrom: <format>:<id>. The source is read and checked whole before anything is written.
            An entry already imported (its importedFrom is in the vault) or empty is skipped, so running
            an import again finishes one that was cut short, and adds nothing else.
            """)

    let format: String
    let paths: [String]
    let folder: String?
    let dryRun: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.argument(Self.formatArgument).name
        paths = try arguments.arguments(Self.pathArgument)
        folder = arguments.value(Self.folderOption)
        dryRun = arguments.flag(Self.dryRunFlag)
    }

    func run(_ context: Context) throws {
        guard let format = ImportFormats.named(format),
            let store = try context.store(creatingDefaultVault: !dryRun)
        else { return }
        let folder = try store.vault.folderForNewNote(folder, cwd: context.cwd)
        let sources = paths.map { $0.hasPrefix("/") ? $0 : context.cwd + "/" + $0 }
        try store.whileImporting {
            let plan: ImportPlan
            do {
                plan = try store.planImport(format, paths: sources, folder: folder, now: context.now)
            } catch ImportError.vault(let error) {
                throw error
            }
            context.reportDiagnostics(of: store)
            for warning in plan.warnings { context.output.warn(warning) }
            let skipped = plan.alreadyThere + plan.empty
            let counts =
                "\(plan.items.count) note\(plan.items.count == 1 ? "" : "s") from \(plan.format) "
                + "(\(skipped) skipped: \(plan.alreadyThere) already there, \(plan.empty) empty)"
            if dryRun {
                for (item, path) in zip(plan.items, plan.predictedPaths(in: store.vault)) {
                    context.output.out(Note.id(forPath: path) + "\t" + item.importedFrom + "\n")
                }
                context.output.out("Would import " + counts + "\n")
                return
            }
            let progress = ProgressBar(label: "Importing")
            defer { progress.finish() }
            try store.runImport(plan) { progress.update(done: $0, total: $1) }
            progress.finish()
            context.output.out("Imported " + counts + "\n")
        }
    }
}
