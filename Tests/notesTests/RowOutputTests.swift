import Foundation
import TestSupport
import Testing

/// `list` and `search` rows through the real binary, at several terminal widths.
@Suite struct RowOutputTests {
    func sandbox() throws -> Sandbox {
        let s = try Sandbox()
        try s.write(
            "creme.md",
            "---\ncreatedAt: 2024-11-30T08:09:00Z\n---\n# Crème brûlée recipe\n\nMix the creme with sugar.\n")
        try s.write(
            "work/standup-meeting-notes.md",
            """
            ---
            createdAt: 2025-03-01T10:00:00Z
            ---
            # Standup meeting notes for the platform team

            Discussed the roadmap and the crème budget.

            """)
        try s.write("khmer.md", "---\ncreatedAt: 2025-01-02T00:00:00Z\n---\n# ភាសាខ្មែរ ភាសាខ្មែរ ភាសាខ្មែរ\n\nkhmer\n")
        return s
    }

    static func visible(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    static let khmer = "ភាសាខ្មែរ"

    /// Dates as Foundation writes them with `LANG=C` (a narrow no-break space before AM).
    @Test(
        arguments: [
            (
                120,
                [
                    " Standup meeting notes for the platform team  1 Mar 2025 at 10:00\u{202F}AM  work/standup-meeting-notes ",
                    " \(khmer) \(khmer) \(khmer)                   2 Jan 2025 at 12:00\u{202F}AM  khmer                      ",
                    " Crème brûlée recipe                          30 Nov 2024 at 8:09\u{202F}AM  creme                      ",
                ]
            ),
            (
                80,
                [
                    " Standup meeting notes for the platfor…  2025-03-01  work/standup-meeting-notes ",
                    " \(khmer) \(khmer) \(khmer)              2025-01-02  khmer                      ",
                    " Crème brûlée recipe                     2024-11-30  creme                      ",
                ]
            ),
            (
                60,
                [
                    " Standup meeting n…  2025-03-01  work/standup-meeting-notes ",
                    " \(khmer) \(khmer)…  2025-01-02  khmer                      ",
                    " Crème brûlée reci…  2024-11-30  creme                      ",
                ]
            ),
            (
                40,
                [
                    " Standup m…  work/standup-meeting-notes ",
                    " \(khmer) …  khmer                      ",
                    " Crème brû…  creme                      ",
                ]
            ),
            (
                30,
                [
                    " Standup…  work/standup-meet… ",
                    " ភាសាខ្មែ…  khmer              ",
                    " Crème b…  creme              ",
                ]
            ),
        ] as [(Int, [String])])
    func listAtWidth(columns: Int, expected: [String]) throws {
        let s = try sandbox()
        let r = try s.run(["list", "--color", "always"], env: ["COLUMNS": String(columns)])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        #expect(Self.visible(r.stdout) == expected.map { $0 + "\n" }.joined())
    }

    @Test func searchPrintsOneLinePerNoteAndASnippetOnlyWithoutATitleMatch() throws {
        let s = try sandbox()
        let r = try s.run(["search", "creme", "--color", "always"], env: ["COLUMNS": "60"])
        #expect(
            Self.visible(r.stdout) == """
                 Standup meeting n…  2025-03-01  work/standup-meeting-notes 
                    Discussed the roadmap and the crème budget.
                 Crème brûlée reci…  2024-11-30  creme                      

                """)
        // The matches are marked: in the snippet, and in the title inside the tinted row.
        #expect(r.stdout.contains("\u{1B}[4mcrème\u{1B}[0m budget."))
        #expect(r.stdout.contains("\u{1B}[4mCrème\u{1B}[48;5;253m\u{1B}[38;5;234m\u{1B}[24m brûlée"))
        // Piped: no snippets, no colour.
        let piped = try s.run(["search", "creme"])
        #expect(
            piped.stdout
                == "work/standup-meeting-notes\t2025-03-01T10:00:00Z\tStandup meeting notes for the platform team\n"
                + "creme\t2024-11-30T08:09:00Z\tCrème brûlée recipe\n")
    }

    @Test func aTitleMatchNeedsNoSnippetEvenWhenTheBodyMatchesToo() throws {
        let s = try Sandbox()
        try s.write(
            "dessert.md",
            "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Dessert\n\nDessert ideas: crème brûlée\n")
        let r = try s.run(["search", "dessert", "--color", "always"], env: ["COLUMNS": "60"])
        #expect(Self.visible(r.stdout).split(separator: "\n").count == 1, "\(r)")
    }
}
