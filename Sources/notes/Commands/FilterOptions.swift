import NotesKit

/// `--since`, `--until`, `--folder`, `--orphan`, `--links-to`, `--linked-from`: the filters
/// shared by `list`, `search` and `browse`.
struct FilterOptions {
    static let sinceOption = Option<DateArgument>(
        "since", value: "date", help: "Only notes dated on or after this date (see DATES).")
    static let untilOption = Option<DateArgument>(
        "until", value: "date", help: "Only notes dated on or before this date (see DATES).")
    static let folderOption = Option<String>(
        "folder", value: "folder", kind: .folder, help: "Only notes in this folder or below it.")
    static let orphanFlag = Flag("orphan", help: "Only notes no other note links to.")
    static let linksToOption = Option<String>(
        "links-to", value: "id", kind: .noteID, help: "Only notes with a link to this note.")
    static let linkedFromOption = Option<String>(
        "linked-from", value: "id", kind: .noteID, help: "Only the notes this note links to.")
    static let specs = [
        sinceOption.spec, untilOption.spec, folderOption.spec, orphanFlag.spec, linksToOption.spec,
        linkedFromOption.spec,
    ]

    /// The help's section on DATE values.
    static let datesHelp = """
        DATES: YYYY-MM-DD (a whole day, local time), YYYY-MM-DDTHH:MM[:SS] with an optional Z or
        offset, today, yesterday, 'N days ago' (also weeks, months, years), 'last week', a
        weekday name (the most recent one before today), Nd or Nw (7d: 7 days ago). A day counts
        whole: --since from its first second, --until to its last. The date is the one the order
        uses (updated: updatedAt, else createdAt).
        """

    var since: DateSpan?
    var until: DateSpan?
    var folder: String?
    var orphan: Bool
    var linksTo: String?
    var linkedFrom: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        since = try arguments.value(Self.sinceOption)?.span
        until = try arguments.value(Self.untilOption)?.span
        folder = arguments.value(Self.folderOption)
        orphan = arguments.flag(Self.orphanFlag)
        linksTo = arguments.value(Self.linksToOption)
        linkedFrom = arguments.value(Self.linkedFromOption)
    }

    /// The filter with `tags`, its folder and notes found in `store` (from the index, reading no
    /// note file): a folder outside the vault, or a note that is not there, is an error.
    func filter(tags: [String], store: NoteStore, context: Context) throws -> NoteFilter {
        var filter = NoteFilter()
        filter.tags = tags
        filter.since = since?.start
        filter.before = until?.end
        filter.orphan = orphan
        if let folder { filter.folder = try store.vault.folderForNewNote(folder, cwd: context.cwd) }
        if let linksTo { filter.linksTo = try store.notePath(naming: linksTo, cwd: context.cwd) }
        if let linkedFrom { filter.linkedFrom = try store.notePath(naming: linkedFrom, cwd: context.cwd) }
        return filter
    }
}
