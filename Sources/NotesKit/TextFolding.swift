import Foundation

/// Folds text for matching as SPEC §5 defines it: full case folding, NFKD, non-spacing marks
/// removed, a small table of letters that do not decompose (ø→o, ł→l, …), then case folding again.
///
/// ASCII bytes never reach Foundation; every other scalar is folded once and cached, so a folder
/// reused across many notes runs at memory speed. A `TextFolder` is a value with its own cache:
/// give each thread its own.
public struct TextFolder: Sendable {
    private var cache: [UInt32: [UInt8]] = [:]

    /// Creates a folder with an empty cache.
    public init() {}

    /// The folded UTF-8 bytes of `text`.
    public mutating func foldedBytes(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { foldedBytes(utf8: $0) }
    }

    /// The folded form of `text` as a string.
    public mutating func fold(_ text: String) -> String {
        String(decoding: foldedBytes(text), as: UTF8.self)
    }

    /// Folds valid UTF-8 bytes into folded UTF-8 bytes.
    public mutating func foldedBytes(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        appendFolded(utf8: bytes, to: &out)
        return out
    }

    /// Appends the folded form of valid UTF-8 `bytes` to `out`.
    public mutating func appendFolded(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                // A run of ASCII: copy it in one go, then lower-case it in place (a loop the
                // compiler vectorizes), rather than appending byte by byte.
                var end = i + 1
                while end < n && bytes[end] < 0x80 { end += 1 }
                let start = out.count
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                out.withUnsafeMutableBufferPointer { buffer in
                    for k in start..<buffer.count {
                        let c = buffer[k]
                        buffer[k] = c &+ ((c &- 0x41) < 26 ? 0x20 : 0)
                    }
                }
                i = end
                continue
            }
            // Decode one scalar; invalid sequences are copied through as U+FFFD.
            var scalar: UInt32 = 0xFFFD
            var len = 1
            if b & 0xE0 == 0xC0, i + 1 < n {
                scalar = UInt32(b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                len = 2
            } else if b & 0xF0 == 0xE0, i + 2 < n {
                scalar = UInt32(b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6
                    | UInt32(bytes[i + 2] & 0x3F)
                len = 3
            } else if b & 0xF8 == 0xF0, i + 3 < n {
                scalar = UInt32(b & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12
                    | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
                len = 4
            }
            if let cached = cache[scalar] {
                out.append(contentsOf: cached)
            } else {
                let folded = Self.foldScalar(scalar)
                cache[scalar] = folded
                out.append(contentsOf: folded)
            }
            i += len
        }
    }

    /// The folded UTF-8 bytes of one scalar (the slow path, run once per distinct scalar).
    static func foldScalar(_ value: UInt32) -> [UInt8] {
        guard let scalar = Unicode.Scalar(value) else { return Array("\u{FFFD}".utf8) }
        let caseFolded = caseFold(String(Character(scalar)))
        let decomposed = caseFolded.decomposedStringWithCompatibilityMapping
        var stripped = String.UnicodeScalarView()
        for s in decomposed.unicodeScalars where s.properties.generalCategory != .nonspacingMark {
            if let replacement = letterTable[s] {
                stripped.append(contentsOf: replacement.unicodeScalars)
            } else {
                stripped.append(s)
            }
        }
        return Array(caseFold(String(stripped)).utf8)
    }

    /// Letters that NFKD leaves whole but a reader treats as their base letters.
    static let letterTable: [Unicode.Scalar: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ŧ": "t",
        "æ": "ae", "œ": "oe", "þ": "th",
    ]

    /// Full Unicode case folding (CaseFolding.txt, statuses C and F), one scalar at a time.
    ///
    /// The standard library exposes case mappings but not folding; lower(upper(lower(c))) equals
    /// the full folding for every scalar except Cherokee, whose folding goes to upper case.
    static func caseFold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x13F8...0x13FD:
                out.append(Unicode.Scalar(s.value - 8) ?? s)
            case 0xAB70...0xABBF:
                out.append(Unicode.Scalar(s.value - 0xAB70 + 0x13A0) ?? s)
            case 0x13A0...0x13F5:
                out.append(s)
            default:
                let lower = s.properties.lowercaseMapping
                var upper = ""
                for l in lower.unicodeScalars { upper += l.properties.uppercaseMapping }
                for u in upper.unicodeScalars { out.append(contentsOf: u.properties.lowercaseMapping.unicodeScalars) }
            }
        }
        return String(out)
    }
}

/// Convenience entry points for folding one-off strings (queries, titles).
public enum TextFolding {
    /// The folded form of `text` (SPEC §5).
    public static func fold(_ text: String) -> String {
        var folder = TextFolder()
        return folder.fold(text)
    }

    /// Whether `haystack` (already folded bytes) contains `needle` (already folded bytes).
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBytes { firstIndex(of: needle, in: $0) } != nil
    }

    /// The byte offset of the first occurrence of `needle` in `haystack`, if any.
    public static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        haystack.withUnsafeBytes { firstIndex(of: needle, in: $0) }
    }

    /// `memchr` for the first byte, `memcmp` for the rest (glibc hides `memmem` behind _GNU_SOURCE).
    public static func firstIndex(of needle: [UInt8], in h: UnsafeRawBufferPointer) -> Int? {
        if needle.isEmpty { return 0 }
        guard needle.count <= h.count, let hBase = h.baseAddress else { return nil }
        return needle.withUnsafeBytes { n -> Int? in
            guard let nBase = n.baseAddress else { return nil }
            let first = Int32(needle[0])
            let last = h.count - n.count
            var offset = 0
            while offset <= last {
                guard let hit = memchr(hBase + offset, first, last - offset + 1) else { return nil }
                let at = hBase.distance(to: UnsafeRawPointer(hit))
                if memcmp(hBase + at, nBase, n.count) == 0 { return at }
                offset = at + 1
            }
            return nil
        }
    }
}
