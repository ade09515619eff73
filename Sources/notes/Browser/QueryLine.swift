/// The search field's text and cursor, edited as a shell's line is: typing inserts at the
/// cursor; Backspace and Delete remove a whole character (a grapheme cluster: `é`, `東`, an emoji,
/// however many bytes or scalars it takes); Ctrl-U removes everything before the cursor, Ctrl-W
/// the word before it.
struct QueryLine: Equatable {
    private(set) var text = ""
    /// The cursor, in characters from the start.
    private(set) var cursor = 0

    init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// The text before the cursor.
    var beforeCursor: Substring { text.prefix(cursor) }

    /// Inserts typed or pasted text at the cursor; control characters (a pasted tab or newline)
    /// become spaces.
    mutating func insert(_ typed: String) {
        let clean = ANSI.printable(typed)
        let before = beforeCursor + clean
        text = String(before + text.dropFirst(cursor))
        // Counted again: a combining mark typed after a letter joins its character.
        cursor = before.count
    }

    /// Removes the character before the cursor; false when there is none.
    @discardableResult
    mutating func deleteBackward() -> Bool {
        guard cursor > 0 else { return false }
        text = String(text.prefix(cursor - 1) + text.dropFirst(cursor))
        cursor -= 1
        return true
    }

    /// Removes the character under the cursor; false when there is none.
    @discardableResult
    mutating func deleteForward() -> Bool {
        guard cursor < text.count else { return false }
        text = String(text.prefix(cursor) + text.dropFirst(cursor + 1))
        return true
    }

    /// Removes everything before the cursor (Ctrl-U).
    mutating func deleteToStart() {
        text = String(text.dropFirst(cursor))
        cursor = 0
    }

    /// Removes the word before the cursor and the blanks after it (Ctrl-W).
    mutating func deleteWordBackward() {
        var start = beforeCursor
        while let last = start.last, last.isWhitespace { start.removeLast() }
        while let last = start.last, !last.isWhitespace { start.removeLast() }
        let removed = cursor - start.count
        text = String(start + text.dropFirst(cursor))
        cursor -= removed
    }

    mutating func moveLeft() { cursor = max(0, cursor - 1) }

    mutating func moveRight() { cursor = min(text.count, cursor + 1) }

    mutating func clear() { self = QueryLine() }
}
