import NotesKit
import Testing

@Suite struct ThemeTests {
    /// The tint of every scheme in both modes, worked out by hand from the system colours and opacities:
    /// per channel round(α·c + (1−α)·base), halves rounded up, base 0 (dark) or 255 (light).
    /// gray #8E8E93 = (142, 142, 147) at 0.3; blue #007AFF = (0, 122, 255), orange #FF9500 =
    /// (255, 149, 0), yellow #FFCC00 = (255, 204, 0), green #34C759 = (52, 199, 89), indigo
    /// #5856D6 = (88, 86, 214) at 0.5.
    @Test(arguments: [
        // default: dark 0.3·(142, 142, 147) = (42.6, 42.6, 44.1); light + 178.5 = (221.1, 221.1, 222.6).
        (Scheme.default, true, RGB(43, 43, 44)),
        (.default, false, RGB(221, 221, 223)),
        // blue: dark (0, 61, 127.5); light (127.5, 188.5, 255).
        (.blue, true, RGB(0, 61, 128)),
        (.blue, false, RGB(128, 189, 255)),
        // orange: dark (127.5, 74.5, 0); light (255, 201.5, 127.5).
        (.orange, true, RGB(128, 75, 0)),
        (.orange, false, RGB(255, 202, 128)),
        // yellow: dark (127.5, 102, 0); light (255, 229.5, 127.5).
        (.yellow, true, RGB(128, 102, 0)),
        (.yellow, false, RGB(255, 230, 128)),
        // green: dark (26, 99.5, 44.5); light (153.5, 227, 172).
        (.green, true, RGB(26, 100, 45)),
        (.green, false, RGB(154, 227, 172)),
        // indigo: dark (44, 43, 107); light (171.5, 170.5, 234.5).
        (.indigo, true, RGB(44, 43, 107)),
        (.indigo, false, RGB(172, 171, 235)),
    ])
    func tint(_ scheme: Scheme, _ dark: Bool, _ expected: RGB) {
        #expect(Theme(scheme: scheme, dark: dark).tint == expected)
    }

    @Test(arguments: [
        (Scheme.default, RGB(0x8E, 0x8E, 0x93), 0.3),
        (.blue, RGB(0x00, 0x7A, 0xFF), 0.5),
        (.orange, RGB(0xFF, 0x95, 0x00), 0.5),
        (.yellow, RGB(0xFF, 0xCC, 0x00), 0.5),
        (.green, RGB(0x34, 0xC7, 0x59), 0.5),
        (.indigo, RGB(0x58, 0x56, 0xD6), 0.5),
    ])
    func systemColoursAndOpacities(_ scheme: Scheme, _ colour: RGB, _ alpha: Double) {
        #expect(Theme.baseColor(scheme) == colour)
        #expect(Theme.opacity(scheme) == alpha)
    }

    @Test func backgrounds() {
        #expect(Theme(scheme: .blue, dark: true).background == RGB(0, 0, 0))
        #expect(Theme(scheme: .blue, dark: false).background == RGB(255, 255, 255))
    }

    @Test(
        arguments: [
            ("opaque", RGB(10, 20, 30), 1.0, RGB(200, 200, 200), RGB(10, 20, 30)),
            ("transparent", RGB(10, 20, 30), 0.0, RGB(200, 100, 50), RGB(200, 100, 50)),
            ("half over black rounds halves up", RGB(255, 1, 3), 0.5, RGB(0, 0, 0), RGB(128, 1, 2)),
            ("quarter over white", RGB(0, 100, 255), 0.25, RGB(255, 255, 255), RGB(191, 216, 255)),
        ] as [(String, RGB, Double, RGB, RGB)])
    func blending(_ name: String, _ colour: RGB, _ alpha: Double, _ base: RGB, _ expected: RGB) {
        #expect(colour.blended(alpha: alpha, over: base) == expected, "\(name)")
    }

    @Test(
        arguments: [
            ("pure red", RGB(255, 0, 0), 196),
            ("pure green", RGB(0, 255, 0), 46),
            ("pure blue", RGB(0, 0, 255), 21),
            ("white", RGB(255, 255, 255), 231),
            ("black", RGB(0, 0, 0), 16),
            ("mid grey", RGB(128, 128, 128), 244),
            ("darkest ramp grey", RGB(8, 8, 8), 232),
            ("lightest ramp grey", RGB(238, 238, 238), 255),
            ("a cube colour", RGB(95, 135, 175), 67),
            ("near a cube colour", RGB(100, 130, 170), 67),
            ("yellow", RGB(255, 255, 0), 226),
        ] as [(String, RGB, Int)])
    func xterm256(_ name: String, _ colour: RGB, _ expected: Int) {
        #expect(colour.xterm256 == expected, "\(name)")
    }

    /// Each tint worked out from its hex colour and opacity (in tenths, so halves round up
    /// exactly in integers), its nearest 256-colour entry, and that entry's colour by the xterm
    /// rules (cube levels 0, 95, 135, 175, 215, 255 for 16 + 36r + 6g + b; grays 8 + 10k from 232).
    /// Dark orange and yellow share 94 here; `tintCode` separates them (ThemePaletteTests).
    @Test(
        arguments: [
            (Scheme.default, "8E8E93", 3, false, RGB(221, 221, 223), 253, RGB(218, 218, 218)),
            (.blue, "007AFF", 5, false, RGB(128, 189, 255), 75, RGB(95, 175, 255)),
            (.orange, "FF9500", 5, false, RGB(255, 202, 128), 222, RGB(255, 215, 135)),
            (.yellow, "FFCC00", 5, false, RGB(255, 230, 128), 221, RGB(255, 215, 95)),
            (.green, "34C759", 5, false, RGB(154, 227, 172), 115, RGB(135, 215, 175)),
            (.indigo, "5856D6", 5, false, RGB(172, 171, 235), 147, RGB(175, 175, 255)),
            (.default, "8E8E93", 3, true, RGB(43, 43, 44), 236, RGB(48, 48, 48)),
            (.blue, "007AFF", 5, true, RGB(0, 61, 128), 25, RGB(0, 95, 175)),
            (.orange, "FF9500", 5, true, RGB(128, 75, 0), 94, RGB(135, 95, 0)),
            (.yellow, "FFCC00", 5, true, RGB(128, 102, 0), 94, RGB(135, 95, 0)),
            (.green, "34C759", 5, true, RGB(26, 100, 45), 22, RGB(0, 95, 0)),
            (.indigo, "5856D6", 5, true, RGB(44, 43, 107), 17, RGB(0, 0, 95)),
        ] as [(Scheme, String, Int, Bool, RGB, Int, RGB)])
    func everyTintHasAPaletteEntry(
        _ scheme: Scheme, _ hex: String, _ tenths: Int, _ dark: Bool, _ tint: RGB, _ entry: Int,
        _ entryColor: RGB
    ) throws {
        let base = dark ? 0 : 255
        let channels = try [0, 2, 4].map { offset in
            let digits = hex.dropFirst(offset).prefix(2)
            let c = try #require(Int(digits, radix: 16))
            return (tenths * c + (10 - tenths) * base + 5) / 10
        }
        #expect(RGB(channels[0], channels[1], channels[2]) == tint, "the table agrees with the hex colours")
        let theme = Theme(scheme: scheme, dark: dark)
        #expect(theme.tint == tint)
        #expect(theme.tint.xterm256 == entry)
        #expect(XtermPalette.color(of: entry) == entryColor)
    }

    @Test func greyTintsMapToTheGreyRamp() {
        // (43, 43, 44) and (221, 221, 223) are greys: the ramp is nearer than any cube colour.
        #expect((232...255).contains(Theme(scheme: .default, dark: true).tint.xterm256))
        #expect((232...255).contains(Theme(scheme: .default, dark: false).tint.xterm256))
    }

    @Test(arguments: Scheme.allCases)
    func textContrastsWithTheTint(_ scheme: Scheme) {
        let dark = Theme(scheme: scheme, dark: true)
        let light = Theme(scheme: scheme, dark: false)
        func luma(_ c: RGB) -> Int { (299 * c.r + 587 * c.g + 114 * c.b) / 1000 }
        #expect(luma(dark.text) > luma(dark.tint))
        #expect(luma(light.text) < luma(light.tint))
        // The date is dimmer: between the text and the tint.
        #expect(luma(dark.dim) < luma(dark.text))
        #expect(luma(light.dim) > luma(light.text))
    }
}
