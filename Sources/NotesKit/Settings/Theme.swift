/// An sRGB colour with 8-bit channels.
public struct RGB: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r: Int, g: Int, b: Int

    /// Creates a colour from its channels.
    public init(_ r: Int, _ g: Int, _ b: Int) {
        self.r = r
        self.g = g
        self.b = b
    }

    public var description: String { "(\(r), \(g), \(b))" }

    /// This colour at `alpha` over `base`, per channel `round(α·c + (1−α)·base)`.
    public func blended(alpha: Double, over base: RGB) -> RGB {
        func mix(_ c: Int, _ under: Int) -> Int {
            Int((alpha * Double(c) + (1 - alpha) * Double(under)).rounded())
        }
        return RGB(mix(r, base.r), mix(g, base.g), mix(b, base.b))
    }

    /// The perceptually nearest entry of the xterm 256-colour palette (the 6×6×6 cube or the
    /// gray ramp), by CIEDE2000.
    public var xterm256: Int { XtermPalette.nearest(to: self) }
}

/// The look of list rows: the six themes of the iOS app MyNotes grew out of, blended for light or dark mode.
public struct Theme: Equatable, Sendable {
    /// The scheme.
    public var scheme: Scheme
    /// Whether dark mode is on.
    public var dark: Bool

    /// Creates the theme for a scheme and mode.
    public init(scheme: Scheme, dark: Bool) {
        self.scheme = scheme
        self.dark = dark
    }

    /// SwiftUI's system colour of the scheme.
    public static func baseColor(_ scheme: Scheme) -> RGB {
        switch scheme {
        case .default: return RGB(0x8E, 0x8E, 0x93)
        case .blue: return RGB(0x00, 0x7A, 0xFF)
        case .orange: return RGB(0xFF, 0x95, 0x00)
        case .yellow: return RGB(0xFF, 0xCC, 0x00)
        case .green: return RGB(0x34, 0xC7, 0x59)
        case .indigo: return RGB(0x58, 0x56, 0xD6)
        }
    }

    /// The iOS app's opacity: gray at 0.3, the colours at 0.5.
    public static func opacity(_ scheme: Scheme) -> Double { scheme == .default ? 0.3 : 0.5 }

    /// The background of the mode: black (dark) or white (light).
    public var background: RGB { dark ? RGB(0, 0, 0) : RGB(255, 255, 255) }

    /// The capsule colour: the scheme's colour at its opacity over the mode's background.
    public var tint: RGB { Theme.baseColor(scheme).blended(alpha: Theme.opacity(scheme), over: background) }

    /// The 256-colour entry of the tint. The six themes of a mode always get six different
    /// entries: each its nearest, except where two would share one — then the six are chosen
    /// together among their nearest few for the smallest total distance (in dark mode orange
    /// takes 130 and yellow 94, rather than both 94).
    public var tintCode: Int {
        let codes = dark ? Theme.darkTintCodes : Theme.lightTintCodes
        return Scheme.allCases.firstIndex(of: scheme).map { codes[$0] } ?? tint.xterm256
    }

    private static let darkTintCodes = XtermPalette.distinctCodes(
        for: Scheme.allCases.map { Theme(scheme: $0, dark: true).tint })
    private static let lightTintCodes = XtermPalette.distinctCodes(
        for: Scheme.allCases.map { Theme(scheme: $0, dark: false).tint })

    /// The title colour on the tint: near-white in dark mode, near-black in light mode.
    public var text: RGB { dark ? RGB(242, 242, 247) : RGB(28, 28, 30) }

    /// The dimmer colour of dates: the text colour half-way to the tint.
    public var dim: RGB {
        dark ? text.blended(alpha: 0.7, over: tint) : text.blended(alpha: 0.6, over: tint)
    }

    /// The highlight of search matches: bold on a stronger tint.
    public var highlight: RGB {
        Theme.baseColor(scheme).blended(alpha: min(1, Theme.opacity(scheme) + 0.3), over: background)
    }
}
