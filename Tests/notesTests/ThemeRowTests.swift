import Foundation
import NotesKit
import TestSupport
import Testing

@testable import notes

/// The tint escape of `list` rows without truecolor, for every theme and mode: six different
/// 256-colour entries per mode. The renderer is tested on its own; one run of the binary checks
/// that the settings reach it.
@Suite struct ThemeRowTests {
    /// The 256-colour background each scheme's rows get, by mode.
    static let codes: [(scheme: Scheme, dark: Bool, code: String)] = [
        (.default, false, "253"), (.blue, false, "75"), (.orange, false, "222"),
        (.yellow, false, "221"), (.green, false, "115"), (.indigo, false, "147"),
        (.default, true, "236"), (.blue, true, "25"), (.orange, true, "130"),
        (.yellow, true, "94"), (.green, true, "22"), (.indigo, true, "17"),
    ]

    /// The background code of the first row the human renderer draws for `theme`.
    static func tint(_ theme: Theme) -> String? {
        let row = NoteRow(
            note: Note(
                id: "a", path: "a.md", title: "alpha", titleIsOutsideBody: false,
                createdAt: RenderingTests.now, updatedAt: nil, preview: ""),
            date: RenderingTests.now, snippet: nil)
        let style = OutputStyle(
            width: 80, color: true, trueColor: false, theme: theme,
            dates: LocalDate(
                locale: Locale(identifier: "en_GB"), timeZone: RenderingTests.utc, now: RenderingTests.now))
        let line = NoteRows.human([row], query: nil, style: style).joined(separator: "\n")
        let after = line.components(separatedBy: "\u{1B}[48;5;").dropFirst().first
        return after.map { String($0.prefix { $0 != "m" }) }
    }

    @Test func rowsOfTheSixThemesDiffer() {
        for (scheme, dark, code) in Self.codes {
            #expect(Self.tint(Theme(scheme: scheme, dark: dark)) == code, "\(scheme) dark: \(dark)")
        }
        for dark in [false, true] {
            #expect(Set(Self.codes.filter { $0.dark == dark }.map(\.code)).count == Scheme.allCases.count)
        }
        #expect(Self.codes.count == 2 * Scheme.allCases.count)
    }

    @Test func theSchemeAndModeSettingsReachTheRows() throws {
        let s = try Sandbox()
        try s.write("a.md", "alpha\n")
        #expect(try s.run(["config", "set", "scheme", "blue"]).status == 0)
        #expect(try s.run(["config", "set", "isDarkOn", "true"]).status == 0)
        let r = try s.run(["list", "--color", "always"], env: ["COLORTERM": ""])
        #expect(r.status == 0 && r.stderr == "", "\(r)")
        let tint = r.stdout.components(separatedBy: "\u{1B}[48;5;").dropFirst().first
        #expect(tint?.hasPrefix("25m") == true, "\(r)")
    }
}
