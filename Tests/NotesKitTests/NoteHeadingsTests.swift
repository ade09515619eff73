import NotesKit
import Testing

@Suite struct NoteHeadingsTests {
    @Test func headingsOfTheBodyOutsideCode() {
        let text = """
            ---
            # a YAML comment
            title: x
            ---
            # Title #
            text #not-a-heading
            ##No blank
            ```
            # in code
            ```
              ## Indented ##
            ####### seven
            ###
            ~~~
            # unclosed fence
            """
        #expect(
            NoteHeadings.of(text) == [
                NoteHeading(level: 1, title: "Title", line: 4),
                NoteHeading(level: 2, title: "Indented", line: 10),
                NoteHeading(level: 3, title: "", line: 12),
            ])
    }

    @Test func crlfAndClosingHashes() {
        #expect(
            NoteHeadings.of("# A\r\n## B ##\r\n## C#\r\n") == [
                NoteHeading(level: 1, title: "A", line: 0), NoteHeading(level: 2, title: "B", line: 1),
                NoteHeading(level: 2, title: "C#", line: 2),
            ])
    }
}
