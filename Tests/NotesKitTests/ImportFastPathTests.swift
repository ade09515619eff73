import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// The byte paths an import takes for every note it writes (parent folders, slugs, one-line titles,
/// trimmed titles) give exactly what the Foundation and Character paths beside them give.
@Suite struct ImportFastPathTests {
    /// Random texts over `alphabet`, of up to `length` characters.
    static func texts(_ alphabet: [String], length: Int, count: Int) -> [String] {
        var random = SplitMix(seed: 42)
        var texts: [String] = []
        for _ in 0..<count {
            var text = ""
            for _ in 0..<random.below(length + 1) {
                text += alphabet[random.below(alphabet.count)]
            }
            texts.append(text)
        }
        return texts
    }

    static let asciiPieces = [
        "a", "Z", "q", "0", "9", " ", "  ", "-", "_", ".", "/", "\t", "\n", "\r\n", "!", "~", "\u{7F}",
        "\u{1}",
    ]

    @Test(arguments: [
        "/a/b", "/a", "/", "a/b", "a/b/", "/a//b", "//a", "", "./x", "/a/./b", "/a/b/..", "notes/x.md",
        "/tmp/vault/folder/note.md", "/é/ü.md", "/a/b/c.d/e", "a//b//c", "/a/b///", "../x",
    ])
    func parentFolderIsNSStrings(_ path: String) {
        #expect(FileSystem.parentFolder(of: path) == (path as NSString).deletingLastPathComponent)
    }

    /// Where the toolchain's Foundation traps (one relative name of one character) or is odd (`//`).
    @Test func parentFolderOfOneNameIsEmpty() {
        #expect(FileSystem.parentFolder(of: "a") == "")
        #expect(FileSystem.parentFolder(of: "x/") == "")
        #expect(FileSystem.parentFolder(of: ".") == "")
        #expect(FileSystem.parentFolder(of: "a//") == "")
        #expect(FileSystem.parentFolder(of: "//") == "/")
    }

    @Test func asciiSlugsAreTheCharacterPathsSlugs() {
        var titles = Self.texts(Self.asciiPieces, length: 90, count: 3000)
        titles += [
            String(repeating: "ab ", count: 40), String(repeating: "x", count: 61),
            String(repeating: "-", count: 1999) + "a",
            String(repeating: "-", count: 2000) + "a", String(repeating: "ab-", count: 700), "Hello, World!",
            "",
        ]
        for title in titles {
            #expect(Slug.make(title) == Slug.byCharacters(title), "\(title.debugDescription)")
        }
        // Not ASCII, or too long to look at whole: the Character path decides.
        #expect(Slug.asciiWords("Crème brûlée") == nil)
        #expect(Slug.asciiWords("e\u{301}") == nil)
        #expect(Slug.asciiWords(String(repeating: "a", count: 2001)) == nil)
        #expect(Slug.make("Crème Brûlée") == "creme-brulee")
    }

    @Test func oneLineTitlesAreTheCharacterPaths() {
        let texts = Self.texts(
            Self.asciiPieces + ["é", "\u{2028}", "\u{3000}", "\u{301}"], length: 30, count: 2000)
        for text in texts {
            let expected = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
                .trimmingCharacters(in: .whitespaces)
            #expect(ImportNoteText.oneLine(text) == expected, "\(text.debugDescription)")
        }
    }

    @Test func trimmedIsFoundationsTrim() {
        let texts = Self.texts(
            Self.asciiPieces + ["é", "\u{85}", "\u{A0}", "\u{2028}", "\u{301}"], length: 12, count: 2000)
        for text in texts + ["", " ", "a", " a ", "\u{A0}a\u{A0}", "a\u{301}"] {
            #expect(
                ImportNoteText.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
        }
    }
}
