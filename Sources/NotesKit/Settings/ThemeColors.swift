import Foundation

/// A colour as a terminal is told it: 24-bit, or an entry of the xterm 256-colour palette.
public struct Paint: Equatable, Sendable {
    /// The colour asked for.
    public var rgb: RGB
    /// The palette entry drawn for it without truecolor.
    public var code: Int

    /// The colour `rgb`, and its nearest palette entry unless `code` names another.
    public init(_ rgb: RGB, code: Int? = nil) {
        self.rgb = rgb
        self.code = code ?? rgb.xterm256
    }

    /// The colour the terminal shows: `rgb` in truecolor, else the palette entry's.
    public func shown(trueColor: Bool) -> RGB { trueColor ? rgb : XtermPalette.color(of: code) }
}

extension RGB {
    /// The WCAG 2 relative luminance.
    public var luminance: Double {
        func linear(_ c: Int) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    /// The WCAG 2 contrast ratio of two colours, from 1 to 21.
    public static func contrast(_ one: RGB, _ two: RGB) -> Double {
        let (a, b) = (one.luminance, two.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}

/// The colours of list rows in a theme, for one palette (truecolor or 256 colours), chosen so
/// that what the terminal shows stays readable: titles (and search matches) at least 4.5:1
/// against their background, dates at least 3:1, and the browser's selected row apart from the
/// others by a background contrast of at least 1.3:1.
public struct RowColors: Equatable, Sendable {
    /// The minimum contrasts: titles, dates, and the selected row's background against the others'.
    public static let titleContrast = 4.5, dateContrast = 3.0, selectionContrast = 1.3

    /// A row's background, its title (and ID) and its date.
    public struct Row: Equatable, Sendable {
        public var background: Paint
        public var text: Paint
        public var date: Paint
    }

    /// Every row but the selected one, and the selected one.
    public var plain: Row, selected: Row
    /// A search match: the stronger tint, and text readable on it as a title is on its row.
    public var match: Row

    /// The colours of `theme` as drawn with `trueColor` or 256 colours.
    public init(_ theme: Theme, trueColor: Bool) {
        let background = Paint(theme.tint, code: theme.tintCode)
        plain = RowColors.row(on: background, theme: theme, trueColor: trueColor)
        let shown = background.shown(trueColor: trueColor)
        // The stronger tint, else the colour stronger still, else shaded toward the other mode's
        // background: the first that stands apart from the plain rows.
        let base = Theme.baseColor(theme.scheme)
        let opposite = theme.dark ? RGB(255, 255, 255) : RGB(0, 0, 0)
        var candidates = [theme.highlight]
        candidates += stride(from: Theme.opacity(theme.scheme) + 0.35, through: 1, by: 0.05).map {
            base.blended(alpha: $0, over: theme.background)
        }
        candidates += stride(from: 0.1, through: 0.9, by: 0.1).map { opposite.blended(alpha: $0, over: base) }
        let apart =
            candidates.lazy.map { Paint($0) }.first {
                RGB.contrast($0.shown(trueColor: trueColor), shown) >= RowColors.selectionContrast
            } ?? Paint(opposite)
        selected = RowColors.row(on: apart, theme: theme, trueColor: trueColor)
        match = RowColors.row(on: Paint(theme.highlight), theme: theme, trueColor: trueColor)
    }

    /// The title and date colours on `background`: the theme's text colour when it is readable
    /// there, else the other mode's, else black or white; the date as dim as its ratio allows,
    /// starting from the theme's dimness.
    static func row(on background: Paint, theme: Theme, trueColor: Bool) -> Row {
        let under = background.shown(trueColor: trueColor)
        func contrast(_ paint: Paint) -> Double { RGB.contrast(paint.shown(trueColor: trueColor), under) }
        let other = Theme(scheme: theme.scheme, dark: !theme.dark).text
        let text =
            [theme.text, other].map { Paint($0) }.first { contrast($0) >= titleContrast }
            ?? [Paint(RGB(0, 0, 0)), Paint(RGB(255, 255, 255))].max { contrast($0) < contrast($1) }
            ?? Paint(theme.text)
        let start = theme.dark ? 0.7 : 0.6
        let date =
            stride(from: start, through: 1, by: 0.05).lazy.map {
                Paint(text.rgb.blended(alpha: $0, over: under))
            }.first { contrast($0) >= dateContrast } ?? text
        return Row(background: background, text: text, date: date)
    }
}
