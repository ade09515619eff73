import NotesKit
import Testing

@Suite struct ThemePaletteTests {
    /// The 256-colour tint of every theme. Before the perceptual match, orange and yellow shared
    /// 222 (light) and 94 (dark), and dark indigo was gray 238.
    @Test(arguments: [
        (Scheme.default, false, 253), (.blue, false, 75), (.orange, false, 222),
        (.yellow, false, 221), (.green, false, 115), (.indigo, false, 147),
        (.default, true, 236), (.blue, true, 25), (.orange, true, 130),
        (.yellow, true, 94), (.green, true, 22), (.indigo, true, 17),
    ])
    func tintCodes(_ scheme: Scheme, _ dark: Bool, _ code: Int) {
        #expect(Theme(scheme: scheme, dark: dark).tintCode == code, "\(scheme) dark: \(dark)")
    }

    @Test(arguments: [false, true])
    func theSixThemesStayDistinct(dark: Bool) {
        let codes = Scheme.allCases.map { Theme(scheme: $0, dark: dark).tintCode }
        #expect(Set(codes).count == Scheme.allCases.count, "\(codes)")
    }

    @Test(arguments: [false, true])
    func onlyTheGrayThemeIsGray(dark: Bool) {
        for scheme in Scheme.allCases {
            let code = Theme(scheme: scheme, dark: dark).tintCode
            let color = XtermPalette.color(of: code)
            #expect((color.r == color.g && color.g == color.b) == (scheme == .default), "\(scheme) → \(code)")
        }
    }

    @Test func whereNearestDoesNotCollideItIsKept() {
        for dark in [false, true] {
            for scheme in Scheme.allCases where !(dark && [.orange, .yellow].contains(scheme)) {
                let theme = Theme(scheme: scheme, dark: dark)
                #expect(theme.tintCode == theme.tint.xterm256, "\(scheme) dark: \(dark)")
            }
        }
        // Dark orange and yellow are both nearest to 94; yellow is nearer to it, orange takes 130.
        #expect(Theme(scheme: .orange, dark: true).tint.xterm256 == 94)
        #expect(Theme(scheme: .yellow, dark: true).tint.xterm256 == 94)
    }

    @Test(arguments: Scheme.allCases)
    func searchMatchesStandOutFromTheTint(_ scheme: Scheme) {
        for dark in [false, true] {
            let theme = Theme(scheme: scheme, dark: dark)
            #expect(theme.highlight.xterm256 != theme.tintCode, "\(scheme) dark: \(dark)")
        }
    }

    @Test(
        arguments: [
            ("pure red", RGB(255, 0, 0), 196), ("white", RGB(255, 255, 255), 231),
            ("black", RGB(0, 0, 0), 16),
            ("a dark blue-violet is not a gray", RGB(44, 43, 107), 17),
            ("light orange", RGB(255, 202, 128), 222), ("light yellow", RGB(255, 230, 128), 221),
        ] as [(String, RGB, Int)])
    func nearestIsPerceptual(_ name: String, _ color: RGB, _ code: Int) {
        #expect(color.xterm256 == code, "\(name)")
    }

    @Test func paletteEntries() {
        #expect(XtermPalette.color(of: 16) == RGB(0, 0, 0))
        #expect(XtermPalette.color(of: 67) == RGB(95, 135, 175))
        #expect(XtermPalette.color(of: 231) == RGB(255, 255, 255))
        #expect(XtermPalette.color(of: 232) == RGB(8, 8, 8))
        #expect(XtermPalette.color(of: 255) == RGB(238, 238, 238))
    }

    @Test func distinctCodesAreTheNearestWhenTheyDiffer() {
        let colors = [RGB(255, 0, 0), RGB(0, 0, 255)]
        #expect(XtermPalette.distinctCodes(for: colors) == [196, 21])
        #expect(XtermPalette.distinctCodes(for: [RGB(255, 0, 0), RGB(254, 0, 0)]).count == 2)
        #expect(Set(XtermPalette.distinctCodes(for: [RGB(255, 0, 0), RGB(254, 0, 0)])).count == 2)
    }
}
