import NotesKit
import Testing

@Suite struct TextPositionsTests {
    static let text = "a😀中e\u{301}x\r\nsecond\n"

    @Test func utf16ColumnsCountSurrogatePairsAsTwo() {
        let positions = TextPositions(Self.text)
        // a(1) 😀(4 bytes, 2 units) 中(3 bytes, 1 unit) e(1) combining acute(2 bytes, 1 unit) x
        #expect(positions.offset(line: 0, column: 3, encoding: .utf16) == 5)
        #expect(positions.offset(line: 0, column: 4, encoding: .utf16) == 8)
        #expect(positions.offset(line: 0, column: 6, encoding: .utf16) == 11)
        #expect(positions.position(of: 11, encoding: .utf16) == (0, 6))
        #expect(positions.position(of: 11, encoding: .utf8) == (0, 11))
        // Inside the surrogate pair: before the emoji.
        #expect(positions.offset(line: 0, column: 2, encoding: .utf16) == 1)
    }

    @Test func positionsPastTheEndAreClamped() {
        let positions = TextPositions(Self.text)
        #expect(positions.offset(line: 0, column: 99, encoding: .utf16) == 12)
        #expect(positions.offset(line: 1, column: 99, encoding: .utf8) == 20)
        #expect(positions.offset(line: 9, column: 0, encoding: .utf16) == Self.text.utf8.count)
        #expect(positions.offset(line: -1, column: 3, encoding: .utf16) == 0)
        #expect(positions.lineCount == 3)
    }

    @Test func incrementalChangesUseTheEncoding() {
        var documents = OpenDocuments()
        documents.open("file:///a.md", text: "😀 x\n", version: 1)
        let change = OpenDocuments.Change(range: ((0, 3), (0, 4)), text: "[[b]]")
        let first = documents.change("file:///a.md", version: 2, changes: [change], encoding: .utf16)
        #expect(first)
        #expect(documents["file:///a.md"]?.text == "😀 [[b]]\n")
        let bytes = OpenDocuments.Change(range: ((0, 5), (0, 10)), text: "y")
        let second = documents.change("file:///a.md", version: 3, changes: [bytes], encoding: .utf8)
        #expect(second)
        #expect(documents["file:///a.md"]?.text == "😀 y\n")
        let closed = documents.change("file:///b.md", version: 1, changes: [change], encoding: .utf8)
        #expect(!closed)
    }

    @Test func fileURIsRoundTrip() {
        let path = "/tmp/My Notes/Café #1.md"
        #expect(FileURI.uri(path) == "file:///tmp/My%20Notes/Caf%C3%A9%20%231.md")
        #expect(FileURI.path(FileURI.uri(path)) == path)
        #expect(FileURI.path("file://localhost/a.md") == "/a.md")
        #expect(FileURI.path("https://example.com/a.md") == nil)
        #expect(FileURI.path("file://server/a.md") == nil)
    }
}
