import Foundation

/// File names as Obsidian compares them when no name matches exactly: both in NFC (so a name
/// macOS stored decomposed matches one typed composed), then lower-cased as JavaScript's
/// `toLowerCase` does — each scalar's lower-case mapping, and a capital sigma that ends a word
/// as `ς`. Case is ignored, accents are not: `Cafe` is not `Café`, `STRASSE` is not `Straße`.
enum CaselessName {
    /// The caseless form of the valid UTF-8 `bytes`.
    static func key(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        // ASCII is NFC already, and lower-cases byte by byte.
        if !bytes.contains(where: { $0 >= 0x80 }) {
            return bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
        }
        let scalars = Array(
            String(decoding: bytes, as: UTF8.self).precomposedStringWithCanonicalMapping.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, scalar) in scalars.enumerated() {
            if scalar.value == 0x03A3 && endsAWord(scalars, at: i) {
                out.append("\u{03C2}")
            } else {
                out.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return Array(String(out).utf8)
    }

    /// The caseless form of `text`.
    static func key(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { key(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the capital sigma at `i` is final in Unicode's sense: a cased letter before it and
    /// none after it, past any case-ignorable scalars (apostrophes, marks) between.
    private static func endsAWord(_ scalars: [Unicode.Scalar], at i: Int) -> Bool {
        func casedNeighbour(_ indices: some Sequence<Int>) -> Bool {
            for j in indices {
                let properties = scalars[j].properties
                if properties.isCaseIgnorable { continue }
                return properties.isCased
            }
            return false
        }
        return casedNeighbour((0..<i).reversed()) && !casedNeighbour((i + 1)..<scalars.count)
    }
}
