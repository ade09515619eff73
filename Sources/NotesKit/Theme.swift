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
        func mix(_ c: Int, _ under: Int) -> Int { Int((alpha * Double(c) + (1 - alpha) * Double(under)).rounded()) }
        return RGB(mix(r, base.r), mix(g, base.g), mix(b, base.b))
    }

    /// The nearest entry of the xterm 256-colour palette (the 6×6×6 cube or the grey ramp).
    public var xterm256: Int {
        let levels = [0, 95, 135, 175, 215, 255]
        func nearestLevel(_ c: Int) -> Int {
            var best = 0
            for (i, level) in levels.enumerated() where abs(level - c) < abs(levels[best] - c) { best = i }
            return best
        }
        let (ri, gi, bi) = (nearestLevel(r), nearestLevel(g), nearestLevel(b))
        let cube = RGB(levels[ri], levels[gi], levels[bi])
        let average = (r + g + b) / 3
        let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
        let grey = RGB(8 + 10 * greyIndex, 8 + 10 * greyIndex, 8 + 10 * greyIndex)
        return distance(to: grey) < distance(to: cube) ? 232 + greyIndex : 16 + 36 * ri + 6 * gi + bi
    }

    func distance(to other: RGB) -> Int {
        let dr = r - other.r, dg = g - other.g, db = b - other.b
        return dr * dr + dg * dg + db * db
    }
}

/// The look of list rows (SPEC §7): the seed app's six themes, blended for light or dark mode.
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

    /// The seed's opacity: gray at 0.3, the colours at 0.5.
    public static func opacity(_ scheme: Scheme) -> Double { scheme == .default ? 0.3 : 0.5 }

    /// The background of the mode: black (dark) or white (light).
    public var background: RGB { dark ? RGB(0, 0, 0) : RGB(255, 255, 255) }

    /// The capsule colour: the scheme's colour at its opacity over the mode's background.
    public var tint: RGB { Theme.baseColor(scheme).blended(alpha: Theme.opacity(scheme), over: background) }

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
