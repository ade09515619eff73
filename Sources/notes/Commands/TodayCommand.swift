import Foundation
import NotesKit

/// `notes today`: the day's daily note, opened in the editor (made from the daily template first
/// when missing), or with a `- HH:mm text` entry added to it.
struct TodayCommand: NotesCommand {
    static let textArgument = Positional<String>(
        "text", arity: .variadic(atLeastOne: false),
        help: "An entry to add as '- HH:mm text'; '-' reads stdin; none opens the editor.")
    static let dateOption = Option<DateArgument>(
        "date", short: "d", value: "date", help: "Another day: 2026-12-01, yesterday, 3 days ago, friday, …")

    static let spec = CommandSpec(
        name: "today", aliases: ["daily"], overview: "Open today's daily note, or add an entry to it.",
        arguments: [textArgument.spec],
        options: [dateOption.spec],
        discussion: """
            The note is <dailyFolder>/<date in dailyFormat>.md (journal/2026-12-02.md by default; in an
            Obsidian vault, where .obsidian/daily-notes.json puts it). A missing note is made from the
            'daily' template of the template folder (or the one daily-notes.json names), else it holds
            '# <date>'; it is kept even when the editor leaves it untouched. With text, the entry is added
            as its last line without an editor, and two at once both land. Prints the note's ID.
            A --date with a time dates the entry at that time. A note made for another day is created on
            that day, at the time of day it is now (or at the --date's time), so that the journal lists
            and filters by its days.
            """)

    let text: [String]
    let date: DateSpan?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        text = try arguments.arguments(Self.textArgument)
        date = try arguments.value(Self.dateOption)?.span
    }

    func run(_ context: Context) throws {
        guard let store = try context.store(creatingDefaultVault: true) else { return }
        let journal = JournalSettings(context.layeredSettings, userFile: context.settingsFile.path)
        // Another day is that day at the time of day it is now (a time the clocks skip on that day
        // moved on as they are), or at the time given; a note made for it is created then, so the
        // journal sorts and filters by its days.
        let clock = LocalDateTime(seconds: context.now)
        var time = clock
        var created = context.now
        if let date, date.isWholeDay {
            let wall = LocalDateTime(date.day, at: clock)
            let moved = LocalDateTime(seconds: wall.seconds())
            // A day the clocks skip whole still names its own note.
            time = moved.day == wall.day ? moved : wall
            if time != clock { created = time.seconds() }
        } else if let date {
            time = LocalDateTime(seconds: date.start)
            created = date.start
        }
        let path = try store.dailyNotePath(for: time, journal)
        // The entry first: a stdin that holds nothing makes no note.
        var entry: String?
        if !text.isEmpty {
            let raw = text == ["-"] ? try context.output.readStandardInput() : text.joined(separator: " ")
            guard let line = JournalEntry.text(raw, at: time) else { throw VaultError.emptyNote }
            entry = line
        }
        // A note made here holds the entry from the start: one write, and one change to commit.
        let made =
            FileSystem.status(store.vault.fullPath(path)) == nil
            ? try make(
                path, for: time, created: created, entry: entry, journal: journal, store: store,
                context: context)
            : false
        if let entry {
            if !made { try store.appendEntry(entry, toNoteAt: path, now: context.now) }
        } else {
            let loaded = try context.note(path, in: store)
            let session = try context.editor().edit(
                Content.editable(loaded.editableText), name: loaded.note.id)
            try session.save { edited in
                try store.update(loaded, content: edited, now: context.now, expectUnchanged: true)
            }
        }
        context.output.out(Note.id(forPath: path) + "\n")
    }

    /// Makes the daily note at `path` from the daily template, or with the date as its heading,
    /// with `entry` as its last line; returns whether it made it. Another process may make it
    /// first; then that note is the day's.
    private func make(
        _ path: String, for time: LocalDateTime, created: Double, entry: String?, journal: JournalSettings,
        store: NoteStore, context: Context
    ) throws -> Bool {
        let name = (Note.id(forPath: path) as NSString).lastPathComponent
        var warnings: [String] = []
        let template = try store.dailyTemplate(journal, warnings: &warnings)
        for warning in warnings { context.output.warn(warning) }
        var body = "# " + name + "\n"
        var filled: FilledTemplate?
        if let template {
            let values = TemplateValues(
                title: name, time: time,
                yesterday: Note.id(forPath: try store.dailyNotePath(for: time.adding(days: -1), journal)),
                tomorrow: Note.id(forPath: try store.dailyNotePath(for: time.adding(days: 1), journal)),
                titleHeading: false)
            let note = try template.filled(with: values)
            if !note.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || note.frontMatter != nil {
                filled = note
                body = note.body
            }
        }
        if let entry {
            while let last = body.last, last.isWhitespace { body.removeLast() }
            body = JournalEntry.appending(entry, to: body)
        }
        let text = filled?.noteText(body: body, created: created) ?? body
        return try store.makeNote(at: path, text: text, created: created)
    }
}
