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
        return belowCombiningMarks(bytes) ?? keyByNormalizing(bytes)
    }

    /// `key` of text whose scalars all come before the combining marks (U+0300): Latin letters
    /// with their accents precomposed, which NFC leaves as they are (none of them composes with
    /// another, none decomposes to another), and no capital sigma; so each scalar lower-cases on
    /// its own, with no normalizing. Nil for other text.
    static func belowCombiningMarks(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 4)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.value < 0x80 {
                let byte = UInt8(scalar.value)
                out.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
            } else if scalar.value < 0x300 {
                out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            } else {
                return nil
            }
        }
        return out
    }

    /// `key` the long way: NFC, then each scalar's lower-case mapping (a final capital sigma as
    /// `ς`).
    static func keyByNormalizing(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
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

    /// `MappedIndex.hash` of `key(bytes)`, made without a copy for ASCII.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard !bytes.contains(where: { $0 >= 0x80 }) else {
            return key(bytes).withUnsafeBytes { MappedIndex.hash($0) }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            hash = (hash ^ UInt64(lower)) &* 0x0000_0100_0000_01b3
        }
        return hash ^ (hash >> 32)
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
