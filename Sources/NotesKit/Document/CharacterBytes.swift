/// What bytes of valid UTF-8 say about the Characters they make, for the readers that go by bytes
/// where that reads the same as going Character by Character.
enum CharacterBytes {
    /// Whether every byte of `b[range]` outside ASCII belongs to a letter that is one Character
    /// whatever stands beside it — none is a mark that joins the Character before it, none joins
    /// the one after it, none is a space, none is canonically the same as one other character
    /// (the Greek question mark U+037E is a `;`). These are the letters of the Latin, Greek,
    /// Cyrillic and Armenian blocks (U+00C0–U+0587: `é`, `Ğ`, `Ω`, `Ж`; not U+037E, the ano
    /// teleia U+0387 or the numeral sign U+0374), kana (not the voiced marks, U+3099–U+309A),
    /// CJK ideographs (not the compatibility ones) and Hangul syllables. So text of them reads
    /// by bytes as by Characters (a front-matter line, a heading); any other text (combining
    /// marks, emoji, Thai, a no-break space) is for the slow path.
    static func joinsNoNeighbour(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let base = b.baseAddress else { return true }
        var i = range.lowerBound
        while i < range.upperBound {
            // ASCII eight bytes at a time (most of a front-matter line, a heading).
            while i &+ 8 <= range.upperBound
                && UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                i &+= 8
            }
            guard i < range.upperBound else { break }
            let lead = b[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // The bytes are valid UTF-8: a lead byte below 0xE0 has one continuation byte, one
            // below 0xF0 two.
            if lead >= 0xC3 && lead <= 0xD6 && i + 1 < range.upperBound {
                let scalar = UInt32(lead & 0x1F) << 6 | UInt32(b[i + 1] & 0x3F)
                switch scalar {
                case 0xC0...0x24F, 0x386, 0x388...0x3FF, 0x400...0x482, 0x48A...0x52F, 0x531...0x556,
                    0x561...0x587:
                    i += 2
                    continue
                default: return false
                }
            }
            guard lead >= 0xE3 && lead <= 0xED && i + 2 < range.upperBound else { return false }
            let scalar = UInt32(lead & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F)
            switch scalar {
            case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
                i += 3
            default: return false
            }
        }
        return true
    }
}
