import Foundation
import NotesKit
import TestSupport
import Testing

@testable import notes

/// The browser as a pure state machine: keys in, state and a frame of a fixed size
/// out, over a real temporary vault.
@Suite struct BrowserStateTests {
    /// A browser over `notes` (ID → title; the first is the newest) on a `columns`×`rows` screen.
    static func browser(
        _ notes: [(String, String)], _ columns: Int = 60, _ rows: Int = 12,
        sandbox: Sandbox? = nil
    ) throws -> BrowserState {
        let s = try sandbox ?? Sandbox()
        for (offset, (id, title)) in notes.enumerated() {
            // A day apart, from 28 Oct 2026 23:00 UTC back.
            let created = NoteDate.format(1_793_228_400 - Double(offset) * 86_400)
            try s.write(id + ".md", "---\ncreatedAt: \(created)\n---\n# \(title)\n\nBody of \(title).\n")
        }
        let store = NoteStore(vault: try Vault(root: s.vault), cacheDirectory: s.root.path + "/cache")
        return BrowserState(
            search: LiveSearch(catalog: store.catalog, order: .updated),
            size: ScreenSize(columns: columns, rows: rows), theme: Theme(scheme: .default, dark: false))
    }

    static let kitchen = [
        ("creme", "Crème brûlée"), ("groceries", "Groceries for the week"), ("tokyo", "東京 旅行の計画"),
        ("standup", "Standup meeting notes"),
    ]

    /// The frame as plain text: no colour, trailing blanks kept (every line fills its row).
    static func screen(_ state: BrowserState, color: Bool = false) -> [String] {
        BrowserScreen.render(state, style: RenderingTests.style(state.size.columns, color: color)).lines
    }

    static func trimmed(_ lines: [String]) -> [String] {
        lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// Applies keys, keeping the commands that come out.
    @discardableResult
    static func press(_ state: inout BrowserState, _ keys: Key...) -> [BrowserState.Command] {
        keys.compactMap { state.handle($0) }
    }

    /// Types text one character at a time, as keys.
    static func type(_ state: inout BrowserState, _ text: String) {
        for character in text { _ = state.handle(.text(String(character))) }
    }

    // MARK: The screen

    @Test func theFirstScreenListsEveryNoteUnderTheHeaderAndTheEmptySearchField() throws {
        let state = try Self.browser(Self.kitchen, 60, 8)
        #expect(
            Self.trimmed(Self.screen(state)) == [
                "My Notes                                             4 notes",
                "> Search your note...",
                ">  Crème brûlée            28 Oct 2026 at 23:00  creme",
                "   Groceries for the week  27 Oct 2026 at 23:00  groceries",
                "   東京 旅行の計画         26 Oct 2026 at 23:00  tokyo",
                "   Standup meeting notes   25 Oct 2026 at 23:00  standup",
                "",
                " Enter edit  ^N new  ^D delete  Up/Down ^K/^J move  ^T dark…",
            ])
        #expect(
            BrowserScreen.render(state, style: RenderingTests.style(60)).cursor
                == Frame.Cursor(row: 1, column: 2))
    }

    @Test func typingFiltersOnEveryKeyAndMarksTheMatches() throws {
        var state = try Self.browser(Self.kitchen)
        Self.type(&state, "e")
        #expect(state.hits.count == 3)
        Self.type(&state, "k")
        #expect(
            Self.trimmed(Self.screen(state)).prefix(4) == [
                "My Notes" + String(repeating: " ", count: 60 - 8 - 6) + "1 of 4",
                "> ek",
                ">  Groceries for the week  27 Oct 2026 at 23:00  groceries", "",
            ])
        #expect(
            BrowserScreen.render(state, style: RenderingTests.style(60)).cursor
                == Frame.Cursor(row: 1, column: 4))
        // In colour, the matched letters of the title are marked.
        let row = Self.screen(state, color: true)[2]
        #expect(row.contains(ANSI.underline + "ek"))
        Self.press(&state, .control("u"))
        Self.type(&state, "CRÈME")
        #expect(state.hits.count == 1)
        #expect(Self.screen(state, color: true)[2].contains(ANSI.underline + "Crème"))
    }

    /// The selected row is marked `>` and, in colour, tinted with the theme's stronger colour.
    @Test func theSelectedRowIsClearlyMarked() throws {
        var state = try Self.browser(Self.kitchen)
        Self.press(&state, .down)
        let lines = Self.screen(state, color: true)
        let theme = Theme(scheme: .default, dark: false)
        let strong = ANSI.background(theme.highlight, trueColor: false)
        let normal = ANSI.background(theme.tint, code: theme.tintCode, trueColor: false)
        #expect(lines[3].hasPrefix(ANSI.bold + "> " + ANSI.reset + strong))
        #expect(!lines[3].contains(normal))
        for row in [2, 4, 5] { #expect(lines[row].hasPrefix("  " + normal) && !lines[row].contains(strong)) }
    }

    @Test func accentedAndCJKInputAndBackspaceOverMultiByteCharacters() throws {
        var state = try Self.browser(Self.kitchen)
        var decoder = KeyDecoder()
        // The bytes of "crè" with the è split across two reads, as a slow terminal may send them.
        let bytes = Array("crè".utf8)
        for key in decoder.feed(bytes[0..<3]) + decoder.feed(bytes[3...]) { Self.press(&state, key) }
        #expect(state.query.text == "crè")
        #expect(state.hits.count == 1)
        Self.press(&state, .backspace)
        #expect(state.query.text == "cr")
        Self.press(&state, .control("u"))
        for key in decoder.feed(Array("東京".utf8)) { Self.press(&state, key) }
        #expect(Self.trimmed(Self.screen(state))[2] == ">  東京 旅行の計画  26 Oct 2026 at 23:00  tokyo")
        Self.press(&state, .backspace)
        #expect(state.query.text == "東")
        #expect(state.hits.count == 1)
    }

    @Test func controlUAndControlWEraseTheSearch() throws {
        var state = try Self.browser(Self.kitchen)
        Self.type(&state, "week gro")
        #expect(state.hits.count == 1)
        Self.press(&state, .control("w"))
        #expect(state.query.text == "week ")
        Self.press(&state, .control("u"))
        #expect(state.query.text == "")
        #expect(state.hits.count == 4)
    }

    // MARK: Moving

    static let many = (0..<30).map { ("n\(String(format: "%02d", $0))", "Note \($0)") }

    /// The list has 5 rows on an 8-row screen (header, field, footer).
    static func shown(_ state: BrowserState) -> [String] {
        trimmed(Array(Self.screen(state)[2..<7]).map { String($0.prefix(10)) })
    }

    @Test func arrowsAndTheirControlKeysMoveAndScrollAtBothEnds() throws {
        var state = try Self.browser(Self.many, 40, 8)
        Self.press(&state, .up, .control("k"))
        #expect(state.selected == 0 && state.top == 0)
        Self.press(&state, .down, .down, .control("j"), .down)
        #expect(state.selected == 4 && state.top == 0)
        #expect(Self.shown(state) == ["   Note 0", "   Note 1", "   Note 2", "   Note 3", ">  Note 4"])
        Self.press(&state, .down)
        #expect(state.selected == 5 && state.top == 1)
        #expect(Self.shown(state) == ["   Note 1", "   Note 2", "   Note 3", "   Note 4", ">  Note 5"])
        Self.press(&state, .up, .up, .up, .up, .up)
        #expect(state.selected == 0 && state.top == 0)
        #expect(Self.shown(state).first == ">  Note 0")
    }

    @Test func pagesAndHomeAndEnd() throws {
        var state = try Self.browser(Self.many, 40, 8)
        Self.press(&state, .pageDown)
        #expect(state.selected == 5 && state.top == 1)
        Self.press(&state, .pageDown, .pageDown, .pageDown, .pageDown, .pageDown, .pageDown)
        #expect(state.selected == 29 && state.top == 25)
        #expect(Self.shown(state).last == ">  Note 29")
        Self.press(&state, .down)
        #expect(state.selected == 29)
        Self.press(&state, .pageUp)
        #expect(state.selected == 24 && state.top == 24)
        Self.press(&state, .home)
        #expect(state.selected == 0 && state.top == 0)
        Self.press(&state, .end)
        #expect(state.selected == 29 && state.top == 25)
        // A new search starts at the top.
        Self.type(&state, "1")
        #expect(state.selected == 0 && state.top == 0)
    }

    @Test func aResizeDrawsAtTheNewSizeWithTheSelectionInView() throws {
        var state = try Self.browser(Self.many, 40, 12)
        Self.press(&state, .pageDown)
        #expect(state.selected == 9)
        state.resize(ScreenSize(columns: 30, rows: 6))
        #expect(state.selected == 9 && state.top == 7)
        let lines = Self.screen(state)
        #expect(lines.count == 6)
        for line in lines { #expect(BrowserScreen.visibleWidth(line) == 30) }
        #expect(Self.trimmed(lines)[4].hasPrefix(">  Note 9"))
        // Taller again: no empty rows under the last note while earlier ones are hidden.
        state.resize(ScreenSize(columns: 30, rows: 40))
        #expect(state.top == 0)
    }

    /// With a budget, a key draws once the screen's rows are found (or the budget is spent): the
    /// count says more may come, and the rest are found between keys.
    @Test func aKeyWithABudgetDrawsWhatItFoundAndTheRestComesBetweenKeys() throws {
        var state = try Self.browser(Self.many, 40, 8)
        state.searchBudget = .zero
        Self.type(&state, "2")
        #expect(state.searching)
        #expect(Self.trimmed(Self.screen(state))[0].hasSuffix("2+ of 30"))
        #expect(Self.shown(state).prefix(2) == [">  Note 2", "   Note 12"])
        state.continueSearch()
        #expect(!state.searching)
        #expect(Self.trimmed(Self.screen(state))[0].hasSuffix("12 of 30"))
        #expect(Self.shown(state) == [">  Note 2", "   Note 12", "   Note 20", "   Note 21", "   Note 22"])
        // Nothing found yet is not "nothing matches": Enter finds out before it creates a note.
        Self.press(&state, .control("u"))
        Self.type(&state, "q")
        #expect(state.searching)
        #expect(Self.trimmed(Self.screen(state))[2] == "  Searching…")
        #expect(Self.press(&state, .enter) == [.create("# q\n\n")])
        #expect(Self.trimmed(Self.screen(state))[2] == "  Enter: create \"q\"")
        // End finds every hit; the last one is selected.
        Self.press(&state, .control("u"))
        Self.type(&state, "1")
        Self.press(&state, .end)
        #expect(!state.searching && state.selectedNote?.id == "n21")
    }

    // MARK: Enter, Ctrl-N, Ctrl-D

    @Test func enterOpensTheSelectedNote() throws {
        var state = try Self.browser(Self.kitchen)
        let commands = Self.press(&state, .down, .enter)
        #expect(commands.map { if case .edit(let note) = $0 { note.id } else { "?" } } == ["groceries"])
    }

    @Test func enterWithNoMatchCreatesANoteFromTheSearch() throws {
        var state = try Self.browser(Self.kitchen)
        Self.type(&state, "  Plan the garden ")
        #expect(state.hits.count == 0)
        #expect(Self.trimmed(Self.screen(state))[2] == "  Enter: create \"Plan the garden\"")
        #expect(Self.press(&state, .enter) == [.create("# Plan the garden\n\n")])
        #expect(Self.press(&state, .control("n")) == [.create("")])
    }

    @Test func anEmptyVaultSaysHowToStart() throws {
        var state = try Self.browser([])
        #expect(
            Self.trimmed(Self.screen(state)).prefix(3) == [
                "My Notes" + String(repeating: " ", count: 60 - 8 - 7) + "0 notes", "> Search your note...",
                "  No notes yet: type a title, then Enter.",
            ])
        Self.press(&state, .down, .up, .pageDown, .end, .home)
        #expect(Self.press(&state, .control("d")).isEmpty)
        #expect(Self.trimmed(Self.screen(state)).last == " No note to delete.")
        // Enter with nothing typed opens the editor on an empty note.
        #expect(Self.press(&state, .enter) == [.create("")])
    }

    /// A message wider than the screen is broken into lines above the footer's, so that the
    /// path of a conflict copy it names is shown whole.
    @Test func aLongFooterMessageIsWrappedNotCut() throws {
        var state = try Self.browser(Self.kitchen, 60, 12)
        let copy = "work/standup-meeting-notes.conflict-20261130-101500.md"
        state.message =
            ErrorReport(VaultError.conflict(id: "work/standup-meeting-notes", copy: copy)).headline
        let lines = Self.trimmed(Self.screen(state))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 60 })
        let footer = lines.suffix(3)
        #expect(
            footer.map { $0.dropFirst() }.joined(separator: " ").contains("your text was saved to '\(copy)'"),
            "\(lines)")
        #expect(footer.first?.hasPrefix(" Error: 'work/standup-meeting-notes' changed on disk") == true)
    }

    @Test func controlDAsksInTheFooterAndDeletesOnlyOnY() throws {
        var state = try Self.browser(Self.kitchen)
        #expect(Self.press(&state, .down, .control("d")).isEmpty)
        #expect(Self.trimmed(Self.screen(state)).last == " Delete \"Groceries for the week\"? y/N")
        let footer = Self.screen(state).count - 1
        #expect(BrowserScreen.render(state, style: RenderingTests.style(60)).cursor?.row == footer)
        #expect(Self.press(&state, .text("n")).isEmpty)
        #expect(Self.trimmed(Self.screen(state)).last == " Kept 'groceries'.")
        let commands = Self.press(&state, .control("d"), .text("y"))
        #expect(commands.map { if case .delete(let note) = $0 { note.id } else { "?" } } == ["groceries"])
        // Any other key is a no, and is not typed into the search.
        Self.press(&state, .control("d"), .enter)
        #expect(state.query.text == "" && state.confirming == nil)
    }

    // MARK: Looks

    @Test func controlTTogglesDarkModeAndControlSCyclesTheSchemes() throws {
        var state = try Self.browser(Self.kitchen)
        #expect(Self.press(&state, .control("t")) == [.save(.isDarkOn)])
        #expect(state.theme.dark)
        let dark = Self.screen(state, color: true)[2]
        #expect(dark.contains(ANSI.foreground(Theme(scheme: .default, dark: true).text, trueColor: false)))
        var seen: [Scheme] = []
        for _ in Scheme.allCases {
            #expect(Self.press(&state, .control("s")) == [.save(.scheme)])
            seen.append(state.theme.scheme)
        }
        #expect(seen == [.blue, .orange, .yellow, .green, .indigo, .default])
        #expect(state.theme.dark)
    }

    @Test func tabShowsThePreviewOnlyOnAWideTerminal() throws {
        var narrow = try Self.browser(Self.kitchen, 99, 10)
        Self.press(&narrow, .tab)
        #expect(!narrow.layout.showsPreview)
        #expect(
            Self.trimmed(Self.screen(narrow)).last
                == " The preview needs a terminal at least 100 columns wide.")

        var wide = try Self.browser(Self.kitchen, 100, 10)
        Self.press(&wide, .tab)
        #expect(wide.layout.showsPreview)
        #expect(wide.previewWanted?.id == "creme")
        wide.preview = Preview(id: "creme", lines: ["# Crème brûlée", "", "Body of Crème brûlée."])
        let lines = Self.screen(wide)
        #expect(lines[2].hasSuffix("│ creme" + String(repeating: " ", count: 38)))
        #expect(Self.trimmed(lines)[4].hasSuffix("│ # Crème brûlée"))
        #expect(Self.trimmed(lines)[6].hasSuffix("│ Body of Crème brûlée."))
        for line in lines { #expect(BrowserScreen.visibleWidth(line) == 100) }
        // Another note selected: its lines are wanted, the old ones not shown.
        Self.press(&wide, .down)
        #expect(wide.previewWanted?.id == "groceries")
        #expect(!Self.screen(wide)[6].contains("Body of"))
        Self.press(&wide, .tab)
        #expect(!wide.layout.showsPreview)
    }

    // MARK: Leaving

    @Test func escapeClearsTheSearchThenQuitsAndControlCQuits() throws {
        var state = try Self.browser(Self.kitchen)
        Self.type(&state, "gro")
        #expect(Self.press(&state, .escape).isEmpty)
        #expect(state.query.text == "" && state.hits.count == 4)
        #expect(Self.press(&state, .escape) == [.quit])
        Self.type(&state, "gro")
        #expect(Self.press(&state, .control("c")) == [.quit])
    }

    // MARK: Widths

    /// Titles are cut with `…` by display width (CJK counts two columns), never wrapped; every
    /// line of every frame fills its row exactly, down to 20×5.
    @Test(arguments: [(20, 5), (30, 8), (44, 6), (100, 9), (8, 3), (3, 2), (1, 1)])
    func everyLineFillsItsRowAtAnySize(columns: Int, rows: Int) throws {
        var state = try Self.browser(
            Self.kitchen + [("long", String(repeating: "東京の長い題名", count: 8))],
            columns, rows)
        for keys in [[Key](), [.tab], [.text("東")], [.control("d")], [.text("zz")]] {
            Self.press(&state, keys)
            for color in [false, true] {
                let frame = BrowserScreen.render(state, style: RenderingTests.style(columns, color: color))
                #expect(frame.lines.count == rows)
                for line in frame.lines { #expect(BrowserScreen.visibleWidth(line) == columns, "\(line)") }
            }
        }
    }

    @Test func aTwentyByFiveTerminalStillShowsTheBrowser() throws {
        var state = try Self.browser(Self.kitchen + [("tokyo-long", "東京の長い長い題名のメモ")], 20, 5)
        #expect(
            Self.trimmed(Self.screen(state)) == [
                "My Notes     5 notes", "> Search your note.…", ">  Crè…  creme", "   Gro…  groceries",
                " Enter edit  ^N new…",
            ])
        Self.type(&state, "長い")
        #expect(Self.trimmed(Self.screen(state))[2] == ">  東…   tokyo-long")
    }

    // MARK: The vault changing

    @Test func aNewSearchKeepsTheSelectedNoteSelected() throws {
        let s = try Sandbox()
        var state = try Self.browser(Self.kitchen, sandbox: s)
        Self.press(&state, .down, .down)
        #expect(state.selectedNote?.id == "tokyo")
        try s.write("newer.md", "---\ncreatedAt: 2026-11-01T00:00:00Z\n---\n# Newer\n")
        let store = NoteStore(vault: try Vault(root: s.vault), cacheDirectory: s.root.path + "/cache")
        state.replace(LiveSearch(catalog: store.catalog, order: .updated))
        #expect(state.hits.count == 5)
        #expect(state.selectedNote?.id == "tokyo")
        #expect(state.selected == 3)
        state.replace(LiveSearch(catalog: store.catalog, order: .updated), selecting: "newer")
        #expect(state.selected == 0)
    }
}

extension BrowserStateTests {
    static func press(_ state: inout BrowserState, _ keys: [Key]) {
        for key in keys { _ = state.handle(key) }
    }
}

/// What a frame writes to the terminal (one write per frame, only when something changed).
@Suite struct FrameUpdateTests {
    static let size = ScreenSize(columns: 4, rows: 3)
    static let frame = Frame(
        size: size, lines: ["aaaa", "bbbb", "cccc"], cursor: Frame.Cursor(row: 1, column: 2))

    @Test func theFirstFrameClearsTheScreenAndDrawsEveryLine() {
        #expect(
            Self.frame.update(from: nil) == Frame.hideCursor + ANSI.reset + "\u{1B}[2J"
                + "\u{1B}[1;1Haaaa" + ANSI.reset + "\u{1B}[2;1Hbbbb" + ANSI.reset + "\u{1B}[3;1Hcccc"
                + ANSI.reset
                + "\u{1B}[2;3H" + Frame.showCursor)
    }

    @Test func anUnchangedFrameWritesNothing() {
        #expect(Self.frame.update(from: Self.frame) == "")
    }

    @Test func onlyTheLinesThatChangedAreWritten() {
        var next = Self.frame
        next.lines[2] = "cxcc"
        #expect(
            next.update(from: Self.frame) == Frame.hideCursor + "\u{1B}[3;1Hcxcc" + ANSI.reset
                + "\u{1B}[2;3H" + Frame.showCursor)
        var moved = Self.frame
        moved.cursor = Frame.Cursor(row: 1, column: 3)
        #expect(moved.update(from: Self.frame) == Frame.hideCursor + "\u{1B}[2;4H" + Frame.showCursor)
    }

    @Test func aNewSizeDrawsEverythingAgain() {
        var resized = Self.frame
        resized.size = ScreenSize(columns: 4, rows: 3 + 0)
        resized.size.columns = 5
        resized.lines = ["aaaaa", "bbbbb", "ccccc"]
        #expect(resized.update(from: Self.frame).contains("\u{1B}[2J"))
    }
}
