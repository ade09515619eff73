import Foundation

/// The xterm 256-colour palette, for terminals without 24-bit colour, and the perceptual
/// distance used to pick an entry: CIEDE2000 in CIELAB (D65). Nearest by sRGB distance made
/// different themes collapse onto one entry (orange and yellow) or onto a gray (dark indigo).
public enum XtermPalette {
    /// The channel levels of the 6×6×6 colour cube (entries 16–231).
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// The colour of a palette entry from 16 to 255: the cube, then the gray ramp `8 + 10k`.
    /// The first 16 entries are left out: terminals let users redefine them.
    public static func color(of code: Int) -> RGB {
        if code >= 232 {
            let gray = 8 + 10 * (code - 232)
            return RGB(gray, gray, gray)
        }
        let index = code - 16
        return RGB(cubeLevels[index / 36], cubeLevels[index / 6 % 6], cubeLevels[index % 6])
    }

    private static let entries: [(code: Int, lab: Lab)] = (16...255).map { ($0, Lab(color(of: $0))) }

    /// Palette entries by perceptual distance to `color`, nearest first (ties: lower code first).
    public static func ranked(_ color: RGB) -> [(code: Int, distance: Double)] {
        let lab = Lab(color)
        return entries.map { ($0.code, Lab.deltaE2000(lab, $0.lab)) }
            .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.code < $1.code }
    }

    /// The entry nearest to `color` by CIEDE2000.
    public static func nearest(to color: RGB) -> Int {
        let lab = Lab(color)
        var best = (code: 16, distance: Double.infinity)
        for entry in entries {
            let d = Lab.deltaE2000(lab, entry.lab)
            if d < best.distance { best = (entry.code, d) }
        }
        return best.code
    }

    /// One entry per colour, all different: the choice among each colour's few nearest entries
    /// with the smallest total distance (ties go to the earlier colour's nearer entry). When the
    /// nearest entries are already distinct, that is simply the nearest of each.
    public static func distinctCodes(for colors: [RGB], candidates: Int = 4) -> [Int] {
        let options = colors.map { Array(ranked($0).prefix(candidates)) }
        var best: (codes: [Int], cost: Double)?
        var chosen: [Int] = []
        func search(_ i: Int, _ cost: Double) {
            if let best, cost >= best.cost { return }
            if i == options.count {
                best = (chosen, cost)
                return
            }
            for option in options[i] where !chosen.contains(option.code) {
                chosen.append(option.code)
                search(i + 1, cost + option.distance)
                chosen.removeLast()
            }
        }
        search(0, 0)
        // More colours than candidates could leave no choice: fall back to the nearest of each.
        return best?.codes ?? colors.map(nearest(to:))
    }
}

/// A colour in CIELAB (D65 white), for perceptual distances.
struct Lab: Equatable {
    var l: Double, a: Double, b: Double

    /// Converts an sRGB colour.
    init(_ color: RGB) {
        func linear(_ c: Int) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(color.r), linear(color.g), linear(color.b))
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double {
            let delta = 6.0 / 29
            return t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29
        }
        l = 116 * f(y) - 16
        a = 500 * (f(x) - f(y))
        self.b = 200 * (f(y) - f(z))
    }

    /// The CIEDE2000 colour difference (Sharma, Wu and Dalal's formulation).
    static func deltaE2000(_ one: Lab, _ two: Lab) -> Double {
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
        let c1 = (one.a * one.a + one.b * one.b).squareRoot()
        let c2 = (two.a * two.a + two.b * two.b).squareRoot()
        let cMean7 = pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * one.a
        let a2 = (1 + g) * two.a
        let c1p = (a1 * a1 + one.b * one.b).squareRoot()
        let c2p = (a2 * a2 + two.b * two.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = degrees(atan2(b, a))
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(one.b, a1)
        let h2 = hue(two.b, a2)
        let dL = two.l - one.l
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(radians(dh / 2))
        let lMean = (one.l + two.l) / 2
        let cMeanP = (c1p + c2p) / 2
        var hMean = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) <= 180 {
                hMean = (h1 + h2) / 2
            } else {
                hMean = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2
            }
        }
        let t =
            1 - 0.17 * cos(radians(hMean - 30)) + 0.24 * cos(radians(2 * hMean))
            + 0.32 * cos(radians(3 * hMean + 6)) - 0.20 * cos(radians(4 * hMean - 63))
        let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        let cMeanP7 = pow(cMeanP, 7)
        let rC = 2 * (cMeanP7 / (cMeanP7 + pow(25, 7))).squareRoot()
        let lOffset = (lMean - 50) * (lMean - 50)
        let sL = 1 + 0.015 * lOffset / (20 + lOffset).squareRoot()
        let sC = 1 + 0.045 * cMeanP
        let sH = 1 + 0.015 * cMeanP * t
        let rT = -sin(radians(2 * dTheta)) * rC
        let terms = pow(dL / sL, 2) + pow(dC / sC, 2) + pow(dH / sH, 2) + rT * (dC / sC) * (dH / sH)
        return max(0, terms).squareRoot()
    }
}
