import Foundation
import TestSupport
import Testing

@Suite struct ThemeRowTests {
    /// The tint escape of `list` rows without truecolor, for every theme and mode: six different
    /// 256-colour entries per mode.
    @Test(arguments: [false, true])
    func rowsOfTheSixThemesDiffer(dark: Bool) throws {
        let s = try Sandbox()
        try s.write("a.md", "alpha\n")
        var codes: [String: String] = [:]
        for scheme in ["default", "blue", "orange", "yellow", "green", "indigo"] {
            #expect(try s.run(["config", "set", "scheme", scheme]).status == 0)
            #expect(try s.run(["config", "set", "isDarkOn", String(dark)]).status == 0)
            let r = try s.run(["list", "--color", "always"], env: ["COLORTERM": ""])
            let code = r.stdout.components(separatedBy: "\u{1B}[48;5;").dropFirst().first?.prefix { $0 != "m" }
            codes[scheme] = code.map(String.init)
        }
        let expected = dark
            ? ["default": "236", "blue": "25", "orange": "130", "yellow": "94", "green": "22", "indigo": "17"]
            : ["default": "253", "blue": "75", "orange": "222", "yellow": "221", "green": "115", "indigo": "147"]
        #expect(codes == expected)
    }
}
