import Testing

@testable import notes

/// Bytes from a terminal in raw mode to keys.
@Suite struct KeyDecoderTests {
    @Test(
        arguments: [
            ("plain text is one key", Array("cre".utf8), [Key.text("cre")]),
            ("accented and CJK text", Array("crè東京".utf8), [.text("crè東京")]),
            ("Enter is a carriage return", [0x0D], [.enter]),
            ("a line feed is Ctrl-J", [0x0A], [.control("j")]),
            ("Tab", [0x09], [.tab]),
            ("Backspace as DEL and as Ctrl-H", [0x7F, 0x08], [.backspace, .backspace]),
            (
                "Ctrl-letters", [0x03, 0x04, 0x0B, 0x0E, 0x13, 0x14, 0x15, 0x17],
                [
                    .control("c"), .control("d"), .control("k"), .control("n"), .control("s"), .control("t"),
                    .control("u"), .control("w"),
                ]
            ),
            ("arrows, CSI", Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8), [.up, .down, .right, .left]),
            ("arrows, SS3 (application mode)", Array("\u{1B}OA\u{1B}OB".utf8), [.up, .down]),
            ("arrows with modifiers", Array("\u{1B}[1;5A".utf8), [.up]),
            ("PgUp and PgDn", Array("\u{1B}[5~\u{1B}[6~".utf8), [.pageUp, .pageDown]),
            (
                "Home in its spellings", Array("\u{1B}[H\u{1B}OH\u{1B}[1~\u{1B}[7~".utf8),
                [.home, .home, .home, .home]
            ),
            (
                "End in its spellings", Array("\u{1B}[F\u{1B}OF\u{1B}[4~\u{1B}[8~".utf8),
                [.end, .end, .end, .end]
            ),
            ("Delete", Array("\u{1B}[3~".utf8), [.delete]),
            ("sequences of no use", Array("\u{1B}[2~\u{1B}[Z".utf8), [.unknown, .unknown]),
            ("Esc then a letter (Alt-x, or quick typing)", Array("\u{1B}x".utf8), [.escape, .text("x")]),
            ("two Escs", [0x1B, 0x1B, 0x61], [.escape, .escape, .text("a")]),
            ("text around a key", Array("a\u{1B}[Bb".utf8), [.text("a"), .down, .text("b")]),
            ("bytes that start no character are dropped", [0x61, 0xFF, 0xC0, 0x80, 0x62], [.text("ab")]),
            ("C1 controls are dropped", [0x61, 0xC2, 0x9B, 0x62], [.text("ab")]),
        ] as [(String, [UInt8], [Key])])
    func decodes(_ name: String, _ bytes: [UInt8], _ keys: [Key]) {
        var decoder = KeyDecoder()
        #expect(decoder.feed(bytes) == keys, "\(name)")
        #expect(!decoder.hasPending, "\(name)")
    }

    /// A character or a sequence split between two reads is put together.
    @Test func piecesAcrossReadsAreJoined() {
        var decoder = KeyDecoder()
        let bytes = Array("è東".utf8)
        #expect(decoder.feed(bytes[0..<1]).isEmpty)
        #expect(decoder.hasPending)
        #expect(decoder.feed(bytes[1..<3]) == [.text("è")])
        #expect(decoder.feed(bytes[3...]) == [.text("東")])
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.feed(Array("[".utf8)).isEmpty)
        #expect(decoder.feed(Array("6~".utf8)) == [.pageDown])
    }

    /// A lone Esc waits for more; when nothing comes it is the Esc key. A sequence cut short is
    /// dropped rather than typed.
    @Test func aLoneEscapeIsTheEscapeKeyOnceNothingFollows() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPending)
        #expect(decoder.feed(Array("\u{1B}[1;".utf8)).isEmpty)
        #expect(decoder.flush() == [.unknown])
        #expect(decoder.feed(Array("x".utf8)) == [.text("x")])
    }
}

/// The search field's line editing.
@Suite struct QueryLineTests {
    @Test func backspaceRemovesAWholeCharacterWhateverItsBytes() {
        var line = QueryLine("aé東👍🏽")
        let deleted = line.deleteBackward()
        #expect(deleted)
        #expect(line.text == "aé東")
        line.deleteBackward()
        #expect(line.text == "aé")
        line.deleteBackward()
        #expect(line.text == "a")
        line.deleteBackward()
        let deletedNothing = !line.deleteBackward()
        #expect(deletedNothing)
        #expect(line.text == "" && line.cursor == 0)
    }

    /// A combining accent typed after its letter joins it; Backspace then takes both.
    @Test func aCombiningMarkJoinsTheLetterBeforeIt() {
        var line = QueryLine("cre")
        line.insert("\u{300}")
        #expect(line.text == "cre\u{300}")
        #expect(line.cursor == 3)
        line.deleteBackward()
        #expect(line.text == "cr")
    }

    @Test func editingAtTheCursor() {
        var line = QueryLine("milk eggs")
        for _ in 0..<4 { line.moveLeft() }
        line.insert("oat ")
        #expect(line.text == "milk oat eggs")
        #expect(line.beforeCursor == "milk oat ")
        line.deleteForward()
        #expect(line.text == "milk oat ggs")
        line.moveRight()
        line.deleteToStart()
        #expect(line.text == "gs" && line.cursor == 0)
        line.insert("a\tb\n")
        #expect(line.text == "a b gs")
    }

    @Test(arguments: [
        ("the last word", "milk eggs", "milk "),
        ("blanks after the word go with it", "milk eggs  ", "milk "),
        ("one word", "crème", ""),
        ("only blanks", "   ", ""),
        ("CJK words", "東京 旅行", "東京 "),
    ])
    func controlWRemovesTheWordBeforeTheCursor(_ name: String, _ text: String, _ left: String) {
        var line = QueryLine(text)
        line.deleteWordBackward()
        #expect(line.text == left, "\(name)")
        #expect(line.cursor == left.count)
    }
}
