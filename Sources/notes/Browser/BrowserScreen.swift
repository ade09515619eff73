import NotesKit

/// One screenful: a line per row, each exactly as wide as the screen, and where the cursor goes.
struct Frame: Equatable {
    var size: ScreenSize
    var lines: [String]
    /// Row and column (0-based) of the visible cursor; nil hides it.
    var cursor: Cursor?

    struct Cursor: Equatable {
        var row: Int
        var column: Int
    }

    /// The bytes that turn `previous` on the screen into this frame: all of it when there was
    /// none or the size changed, else only the lines that changed, then the cursor. Empty when
    /// nothing changed, so that nothing is written. The cursor is hidden while lines are drawn.
    func update(from previous: Frame?) -> String {
        var out = ""
        let old = previous.flatMap { $0.size == size && $0.lines.count == lines.count ? $0 : nil }
        if old == nil { out += ANSI.reset + "\u{1B}[2J" }
        for (row, line) in lines.enumerated() where old?.lines[row] != line {
            // Every line fills its row, so nothing needs erasing after it (and an erase after a
            // line that reaches the last column would take that column's character with it).
            out += "\u{1B}[\(row + 1);1H" + line + ANSI.reset
        }
        if out.isEmpty && cursor == old?.cursor { return "" }
        out = Frame.hideCursor + out
        if let cursor { out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H" + Frame.showCursor }
        return out
    }

    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
}

/// Draws the browser: state and style in, a frame out; no I/O. Header `My Notes` with
/// the count of hits, the search field (its placeholder `Search your note...`), the hits as the
/// list draws them (tinted rows, dimmer dates, matched terms marked) with the selected row marked
/// `>` and tinted more strongly, the preview pane, and a footer with the keys, a message or the
/// delete question. Nothing is ever wider than the screen: titles are cut with `…` by display width.
enum BrowserScreen {
    static let title = "My Notes"
    static let placeholder = "Search your note..."
    static let keys =
        "Enter edit  ^N new  ^D delete  Up/Down ^K/^J move  ^T dark  ^S theme  Tab preview  "
        + "Esc quit"

    /// The frame of `state` in `style`'s colours and dates (its theme and width are the state's).
    static func render(_ state: BrowserState, style base: OutputStyle) -> Frame {
        let size = state.size
        let width = max(0, size.columns)
        let layout = state.layout
        var style = base
        style.theme = state.theme
        style.human = true
        var lines = [String](repeating: String(repeating: " ", count: width), count: max(1, size.rows))
        var cursor: Frame.Cursor?

        if let row = layout.header { lines[row] = header(state, width: width, color: style.color) }
        let (field, column) = searchField(state.query, width: width, color: style.color)
        lines[layout.field] = field
        cursor = Frame.Cursor(row: layout.field, column: column)

        let list = listLines(state, layout: layout, style: style)
        let pane = layout.showsPreview ? previewLines(state, layout: layout, color: style.color) : []
        for (offset, row) in layout.list.enumerated() {
            var line = list[offset]
            if layout.showsPreview {
                let separator = style.color ? ANSI.reset + faint + "│" + ANSI.reset : "│"
                line += separator + pane[offset]
            }
            lines[row] = line
        }

        if let row = layout.footer {
            let (text, bold) = footerText(state)
            // A message too long for one line takes the lines above it (over the list's last rows,
            // until the next key), so that a path it names is shown whole.
            let shown =
                state.message != nil && state.confirming == nil
                ? wrap(text, width: width - 1, lines: min(4, row - layout.field)) : [text]
            for (offset, line) in shown.enumerated() {
                lines[row - shown.count + 1 + offset] = footer(
                    line, bold: bold, width: width, color: style.color)
            }
            if state.confirming != nil {
                cursor = Frame.Cursor(row: row, column: min(width - 1, DisplayWidth.of(text) + 2))
            }
        }
        if width == 0 { cursor = nil }
        return Frame(size: size, lines: lines, cursor: cursor)
    }

    // MARK: Parts

    static let faint = "\u{1B}[2m"
    static let reverse = "\u{1B}[7m"

    /// `My Notes` and, on the right when it fits, how many notes there are or match.
    static func header(_ state: BrowserState, width: Int, color: Bool) -> String {
        let total = state.search.total
        let count =
            state.hits.search.isEmpty
            ? (total == 1 ? "1 note" : "\(total) notes")
            : "\(state.hits.count)\(state.searching ? "+" : "") of \(total)"
        let name = DisplayWidth.truncate(title, to: width)
        let room = width - DisplayWidth.of(name) - 2
        let right = DisplayWidth.of(count) <= room ? count : ""
        let gap = String(repeating: " ", count: width - DisplayWidth.of(name) - DisplayWidth.of(right))
        guard color else { return name + gap + right }
        return ANSI.bold + name + ANSI.reset + gap + faint + right + ANSI.reset
    }

    /// The search field: `> ` and the query, or the placeholder; the cursor's column. A query too
    /// long for the field shows the part around the cursor, cut with `…`.
    static func searchField(_ query: QueryLine, width: Int, color: Bool) -> (String, Int) {
        let prompt = "> "
        guard width > prompt.count + 1 else {
            return (String(repeating: " ", count: width), min(max(0, width - 1), 0))
        }
        let room = width - prompt.count
        let prefix = color ? ANSI.bold + prompt + ANSI.reset : prompt
        if query.text.isEmpty {
            let shown = DisplayWidth.truncate(placeholder, to: room)
            let text = color ? faint + shown + ANSI.reset : shown
            return (
                prefix + text + String(repeating: " ", count: room - DisplayWidth.of(shown)), prompt.count
            )
        }
        let before = String(query.beforeCursor)
        let after = String(query.text.dropFirst(query.beforeCursor.count))
        var shownBefore = before
        if DisplayWidth.of(before) > room - 1 {
            // Keep the end of the text before the cursor, after a `…`.
            var start = before.endIndex
            var used = 1
            while start > before.startIndex {
                let previous = before.index(before: start)
                let w = DisplayWidth.of(before[previous])
                if used + w > room - 1 { break }
                used += w
                start = previous
            }
            shownBefore = "…" + before[start...]
        }
        let column = prompt.count + DisplayWidth.of(shownBefore)
        let shownAfter = DisplayWidth.truncate(after, to: room - DisplayWidth.of(shownBefore))
        let text = shownBefore + shownAfter
        return (prefix + text + String(repeating: " ", count: room - DisplayWidth.of(text)), column)
    }

    /// The list's rows, each `layout.listWidth` wide: a gutter with `>` at the selection, then
    /// the row as `list` draws it; or, with no hits, what Enter would do.
    static func listLines(_ state: BrowserState, layout: BrowserLayout, style: OutputStyle) -> [String] {
        let width = layout.listWidth
        let blank = String(repeating: " ", count: width)
        var lines = [String](repeating: blank, count: layout.list.count)
        guard !lines.isEmpty else { return lines }
        let hits = state.hits
        guard hits.count > 0 else {
            let query = state.query.text.trimmingCharacters(in: .whitespaces)
            let text =
                hits.catalog.count == 0 && query.isEmpty
                ? "No notes yet: type a title, then Enter."
                : state.searching
                    ? "Searching…"
                    : query.isEmpty ? "Nothing here." : "Enter: create \"\(ANSI.printable(query))\""
            let shown = DisplayWidth.truncate("  " + text, to: width)
            let padded = shown + String(repeating: " ", count: width - DisplayWidth.of(shown))
            lines[0] = style.color ? faint + padded + ANSI.reset : padded
            return lines
        }
        let gutter = min(2, width)
        let ranks = state.top..<min(hits.count, state.top + lines.count)
        // Each note made once: its title may be a whole 20 MB line.
        let rows = ranks.map { rank in
            let note = hits.note(at: rank)
            return NoteRow(note: note, date: hits.order.date(of: note))
        }
        var rowStyle = style
        rowStyle.width = width - gutter
        let drawn = NoteRows.human(
            rows, query: hits.search.isEmpty ? nil : hits.search, style: rowStyle,
            selected: state.selected - state.top)
        for (offset, rank) in ranks.enumerated() where offset < drawn.count {
            let isSelected = rank == state.selected
            var mark = String((isSelected ? "> " : "  ").prefix(gutter))
            if style.color && isSelected { mark = ANSI.bold + mark + ANSI.reset }
            lines[offset] = mark + padded(drawn[offset], to: width - gutter, color: style.color)
        }
        return lines
    }

    /// The preview pane's lines, each `layout.previewWidth` wide: the selected note's ID, then the
    /// first lines of its body, cut to the width.
    static func previewLines(_ state: BrowserState, layout: BrowserLayout, color: Bool) -> [String] {
        let width = layout.previewWidth
        var lines = [String](repeating: String(repeating: " ", count: width), count: layout.list.count)
        guard let note = state.selectedNote, let preview = state.preview, preview.id == note.id else {
            return lines
        }
        let text = [ANSI.printable(note.id), ""] + preview.lines.map(ANSI.printable)
        for (offset, line) in text.prefix(lines.count).enumerated() {
            let shown = DisplayWidth.truncate(" " + line, to: width)
            let padding = String(repeating: " ", count: width - DisplayWidth.of(shown))
            lines[offset] = offset == 0 && color ? faint + shown + ANSI.reset + padding : shown + padding
        }
        return lines
    }

    /// The footer's sentence, and whether it is a question or message (bold) or the key help.
    static func footerText(_ state: BrowserState) -> (String, Bool) {
        if let note = state.confirming { return ("Delete \"\(ANSI.printable(note.title))\"? y/N", true) }
        if let message = state.message { return (ANSI.printable(message), true) }
        return (keys, false)
    }

    /// The footer: one line in reverse video, cut to the width.
    static func footer(_ text: String, bold: Bool, width: Int, color: Bool) -> String {
        let shown = DisplayWidth.truncate(" " + text, to: width)
        let padded = shown + String(repeating: " ", count: width - DisplayWidth.of(shown))
        guard color else { return padded }
        return reverse + (bold ? ANSI.bold : "") + padded + ANSI.reset
    }

    /// `text` broken at spaces into lines of at most `width` columns, at most `lines` of them (the
    /// last cut with `…` when the text needs more); a word wider than a line is cut.
    static func wrap(_ text: String, width: Int, lines limit: Int) -> [String] {
        guard width > 0, limit > 1, DisplayWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if DisplayWidth.of(candidate) <= width || line.isEmpty {
                line = candidate
                continue
            }
            lines.append(line)
            line = String(word)
        }
        lines.append(line)
        if lines.count > limit {
            let last = lines[(limit - 1)...].joined(separator: " ")
            lines = Array(lines.prefix(limit - 1)) + [DisplayWidth.truncate(last, to: width)]
        }
        return lines.map { DisplayWidth.truncate($0, to: width) }
    }

    /// `line` padded with spaces to `width` visible columns (escape codes take none), after its
    /// colours end.
    static func padded(_ line: String, to width: Int, color: Bool) -> String {
        let visible = visibleWidth(line)
        guard visible < width else { return line }
        return line + (color ? ANSI.reset : "") + String(repeating: " ", count: width - visible)
    }

    /// The columns a line takes on the screen, skipping `ESC [ … m` colour codes.
    static func visibleWidth(_ line: String) -> Int {
        var width = 0
        var inEscape = false
        for character in line {
            if inEscape {
                // The sequence ends at its final byte (a letter here; `[` only opens it).
                if let ascii = character.asciiValue, (0x40...0x7E).contains(ascii), character != "[" {
                    inEscape = false
                }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                width += DisplayWidth.of(character)
            }
        }
        return width
    }
}
