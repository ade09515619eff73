import Foundation

/// Folds text for matching: full case folding, NFKD, the diacritic marks
/// removed, NFC, a small table of letters that do not decompose (ø→o, ł→l, …), then case folding
/// again.
///
/// ASCII bytes never reach Foundation; every other scalar is folded once and cached, so a folder
/// reused across many notes runs at memory speed. Recomposition (NFC) can join a scalar to the one
/// before it (`ﾃ` + `ﾞ` → `デ`, a Hangul vowel to its consonant) and canonical ordering can swap
/// marks, so a scalar's cached form is used only when neither can happen; otherwise the run of text
/// since the last scalar that nothing joins is folded as a whole (and cached too). A `TextFolder` is
/// a value with its own caches: give each thread its own.
public struct TextFolder: Sendable {
    /// Every scalar folded so far; their folded bytes, one after another, in `store`.
    private var entries: [Entry] = []
    private var store: [UInt8] = []
    /// Where each scalar's entry is in `entries`.
    private var entryIndex: [UInt32: Int32] = [:]
    /// A direct-mapped cache in front of `entryIndex`, by the scalar's low bits: the scalar in the
    /// high half, its entry's index in the low half (zero means empty: no entry is for U+0000).
    /// Made on the first non-ASCII scalar, so a folder that only sees ASCII costs nothing.
    private var recent: [UInt64] = []
    private var segments: [[UInt8]: [UInt8]] = [:]
    private var pairs: [UInt64: Bool] = [:]
    /// The two-byte scalars (U+0080–U+07FF: accented Latin, Greek, Cyrillic, Hebrew, Arabic) by
    /// value: whether each folds on its own whatever stands around it, and to what (`TwoByte`).
    /// Made on the first such scalar, filled as they come.
    private var twoByte: [TwoByte] = []

    /// The most runs of joined text kept in the cache; past it the cache starts again.
    private static let segmentCacheLimit = 1 << 14
    private static let recentMask: UInt32 = 0x7FF

    /// Creates a folder with empty caches.
    public init() {}

    /// The folded UTF-8 bytes of `text`.
    public mutating func foldedBytes(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { foldedBytes(utf8: $0) }
    }

    /// Appends the folded UTF-8 bytes of `text` to `out`.
    public mutating func appendFolded(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendFolded(utf8: $0, to: &out) }
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
    ///
    /// The folded bytes are written through a pointer into room made at the end of `out` first (a
    /// copy of `bytes`, as long as the fold of most text), sixteen ASCII bytes at a time, and `out` is
    /// cut to what was written: no append per byte or per run. Text that folds longer than the room
    /// (`¼`, `㍿`, `ﷺ`) stops the pass where it is, and it resumes with more room.
    public mutating func appendFolded(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        _ = appendFolded(bytes, to: &out, validating: false)
    }

    /// `appendFolded(utf8:to:)` of bytes not known to be UTF-8, checked as they are folded (each
    /// sequence outside ASCII as `UTF8Bytes.isValid` reads it): false, with `out` as it was, when
    /// they are not well-formed. One pass over a note's bytes, not a check and then a fold.
    mutating func appendFolded(validating bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) -> Bool {
        appendFolded(bytes, to: &out, validating: true)
    }

    /// Both of the above: false only when `validating` and the bytes are not UTF-8.
    private mutating func appendFolded(
        _ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], validating: Bool
    ) -> Bool {
        guard !bytes.isEmpty else { return true }
        let start = out.count
        var state = FoldState(written: start)
        state.validating = validating
        out.append(contentsOf: bytes)
        while !out.withUnsafeMutableBufferPointer({ fold(bytes, into: $0, state: &state) }) {
            out.append(contentsOf: repeatElement(0, count: bytes.count + 16))
        }
        guard !state.invalid else {
            out.removeSubrange(start...)
            return false
        }
        out.removeLast(out.count - state.written)
        return true
    }

    /// Where a fold stands: how far it has read and written, and what recomposition may still join.
    private struct FoldState {
        var read = 0
        var written: Int
        /// Whether the bytes are checked to be UTF-8 as they are read, and whether they were not
        /// (which stops the fold).
        var validating = false
        var invalid = false
        /// Where the text that NFC or canonical ordering may still join began, read and written.
        var segmentStart = 0
        var segmentOut: Int
        /// The combining class of the last decomposed scalar so far, and the last recomposed one.
        var lastClass: UInt8 = 0
        var lastComposed: UInt32 = 0

        init(written: Int) {
            self.written = written
            segmentOut = written
        }
    }

    /// Folds `bytes` from `state.read` on, writing at `state.written` in `out`; true when it is done,
    /// false when `out` has no room for what comes next (`state` says where to resume).
    private mutating func fold(
        _ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
        state: inout FoldState
    ) -> Bool {
        guard let input = bytes.baseAddress, let output = out.baseAddress else { return true }
        let n = bytes.count
        let capacity = out.count
        let (capitalShift, capitalLimit) = (SIMD16<Int8>(repeating: 0x3F), SIMD16<Int8>(repeating: -102))
        let (caseBit, zero) = (SIMD16<Int8>(repeating: 0x20), SIMD16<Int8>())
        var i = state.read
        var o = state.written
        defer {
            state.read = i
            state.written = o
        }
        while i < n {
            if input[i] < 0x80 {
                // A run of ASCII, lower-cased sixteen bytes at a time (all sixteen stored, then
                // as many kept as come before the first byte with its high bit set).
                while i &+ 16 <= n && o &+ 16 <= capacity {
                    // Signed bytes, whose comparisons are single instructions: a byte with its
                    // high bit set is negative, and a capital plus 0x3F is below -102.
                    let block = UnsafeRawPointer(input + i).loadUnaligned(as: SIMD16<Int8>.self)
                    let capitals = block &+ capitalShift .< capitalLimit
                    let lowered = block | (unsafeBitCast(capitals, to: SIMD16<Int8>.self) & caseBit)
                    UnsafeMutableRawPointer(output + o).storeBytes(of: lowered, as: SIMD16<Int8>.self)
                    // (`any` of a mask is a call that loops over the lanes; two words are not.)
                    let words = unsafeBitCast(block .< zero, to: SIMD2<UInt64>.self)
                    if words[0] | words[1] != 0 {
                        let ascii =
                            words[0] != 0
                            ? words[0].trailingZeroBitCount &>> 3 : 8 &+ words[1].trailingZeroBitCount &>> 3
                        i &+= ascii
                        o &+= ascii
                        break
                    }
                    i &+= 16
                    o &+= 16
                }
                while i < n && input[i] < 0x80 {
                    guard o < capacity else { return false }
                    let c = input[i]
                    output[o] = c &+ ((c &- 0x41) < 26 ? 0x20 : 0)
                    i &+= 1
                    o &+= 1
                }
                state.segmentStart = i &- 1
                state.segmentOut = o &- 1
                state.lastClass = 0
                state.lastComposed = UInt32(output[o &- 1])
                continue
            }
            // A letter of two bytes that nothing joins, and that joins nothing (most accented
            // letters, Greek, Cyrillic): its folded bytes from `twoByte`, as the general way
            // below would write them from its entry. A lead byte C2–DF and a continuation byte
            // are a well-formed sequence, so there is nothing more to check.
            let lead = input[i]
            if lead &- 0xC2 < 0x1E && i &+ 1 < n && input[i &+ 1] & 0xC0 == 0x80 && o &+ 4 <= capacity {
                let value = UInt32(lead & 0x1F) << 6 | UInt32(input[i &+ 1] & 0x3F)
                if twoByte.isEmpty { twoByte = Array(repeating: TwoByte(), count: 0x780) }
                var known = twoByte[Int(value &- 0x80)]
                if known.kind == .unknown {
                    known = TwoByte(entry(value), store: store)
                    twoByte[Int(value &- 0x80)] = known
                }
                if known.kind == .alone {
                    UnsafeMutableRawPointer(output + o).storeBytes(
                        of: known.bytes.littleEndian, as: UInt32.self)
                    state.segmentStart = i
                    state.segmentOut = o
                    o &+= Int(known.length)
                    state.lastClass = known.lastClass
                    state.lastComposed = known.composedLast
                    i &+= 2
                    continue
                }
            }
            if state.validating && UTF8Bytes.sequenceLength(bytes, at: i) == 0 {
                state.invalid = true
                return true
            }
            let (scalar, length) = Self.decode(bytes, at: i)
            let entry = self.entry(scalar)
            if entry.vanishes {
                i &+= length
                continue
            }
            if standsAlone(entry, lastClass: state.lastClass, lastComposed: state.lastComposed) {
                guard o &+ Int(entry.length) <= capacity else { return false }
                if entry.firstClass == 0 {
                    state.segmentStart = i
                    state.segmentOut = o
                }
                store.withUnsafeBufferPointer { store in
                    for k in 0..<Int(entry.length) { output[o &+ k] = store[Int(entry.offset) &+ k] }
                }
                o &+= Int(entry.length)
                state.lastClass = entry.lastClass
                state.lastComposed = entry.composedLast
                i &+= length
                continue
            }
            // This scalar joins what came before: fold the whole run from the last scalar that
            // nothing joins up to the next one.
            var end = i &+ length
            while end < n && input[end] >= 0x80 {
                if state.validating && UTF8Bytes.sequenceLength(bytes, at: end) == 0 {
                    state.invalid = true
                    return true
                }
                let (next, nextLength) = Self.decode(bytes, at: end)
                let e = self.entry(next)
                if !e.vanishes && e.firstClass == 0 && !e.firstJoins { break }
                end &+= nextLength
            }
            let folded = foldedSegment(UnsafeBufferPointer(rebasing: bytes[state.segmentStart..<end]))
            guard state.segmentOut &+ folded.count <= capacity else { return false }
            o = state.segmentOut
            for byte in folded {
                output[o] = byte
                o &+= 1
            }
            i = end
            // Whatever comes next starts a run of its own.
            state.lastClass = 0
            state.lastComposed = 0
        }
        return true
    }

    /// Whether `entry`'s cached form can follow the text folded so far unchanged: no reordering
    /// with the marks before it, and no recomposition with the letter before it.
    private mutating func standsAlone(_ entry: Entry, lastClass: UInt8, lastComposed: UInt32) -> Bool {
        if entry.laterJoins { return false }
        if entry.firstClass != 0 && entry.firstClass < lastClass { return false }
        if entry.firstJoins {
            guard lastClass == 0 else { return false }
            return !composes(lastComposed, entry.first)
        }
        return true
    }

    /// Whether NFC changes `first` followed by `second` (they compose), cached per pair.
    private mutating func composes(_ first: UInt32, _ second: UInt32) -> Bool {
        let key = UInt64(first) << 32 | UInt64(second)
        if let known = pairs[key] { return known }
        var pair = String.UnicodeScalarView()
        for value in [first, second] { pair.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
        // Decomposed first, then composed as `fold` does (`TextFolder.composed`): Foundation's NFC
        // leaves a precomposed Hangul LV syllable and a final consonant apart (사 + ᆨ), although
        // NFC joins them (삭).
        let composed = TextFolder.composed(
            Array(String(pair).decomposedStringWithCanonicalMapping.unicodeScalars)
        )
        .map(\.value)
        let result = composed != [first, second]
        pairs[key] = result
        return result
    }

    /// The entry of one scalar (never U+0000: ASCII does not come here).
    @inline(__always)
    private mutating func entry(_ value: UInt32) -> Entry {
        let slot = Int(value & Self.recentMask)
        if !recent.isEmpty {
            let packed = recent[slot]
            if UInt32(truncatingIfNeeded: packed >> 32) == value {
                return entries[Int(truncatingIfNeeded: packed & 0xFFFF_FFFF)]
            }
        }
        return entryMissingFromRecent(value, slot: slot)
    }

    /// The entry of a scalar not in `recent`: looked up, or folded and stored, then put there.
    private mutating func entryMissingFromRecent(_ value: UInt32, slot: Int) -> Entry {
        if recent.isEmpty { recent = Array(repeating: 0, count: Int(Self.recentMask) + 1) }
        let index: Int32
        if let known = entryIndex[value] {
            index = known
        } else {
            index = Int32(entries.count)
            entries.append(Entry(Unicode.Scalar(value) ?? "\u{FFFD}", store: &store))
            entryIndex[value] = index
        }
        recent[slot] = UInt64(value) << 32 | UInt64(UInt32(index))
        return entries[Int(index)]
    }

    /// The folded bytes of a run of text that recomposition joins, cached by its bytes.
    private mutating func foldedSegment(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let key = Array(bytes)
        if let cached = segments[key] { return cached }
        var text = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            let (value, length) = Self.decode(bytes, at: i)
            text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            i += length
        }
        let folded = Self.fold(String(text)).bytes
        if segments.count >= Self.segmentCacheLimit { segments.removeAll(keepingCapacity: true) }
        segments[key] = folded
        return folded
    }

    /// Decodes the scalar at `i` and its length; an invalid sequence is one byte read as U+FFFD.
    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let b = bytes[i]
        let n = bytes.count
        if b < 0x80 {
            return (UInt32(b), 1)
        } else if b & 0xE0 == 0xC0, i + 1 < n {
            return (UInt32(b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2)
        } else if b & 0xF0 == 0xE0, i + 2 < n {
            return (
                UInt32(b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6
                    | UInt32(bytes[i + 2] & 0x3F), 3
            )
        } else if b & 0xF8 == 0xF0, i + 3 < n {
            return (
                UInt32(b & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12
                    | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F), 4
            )
        }
        return (0xFFFD, 1)
    }

    /// What `fold` knows of a two-byte scalar: not yet looked at, folded the general way, or
    /// standing alone — not vanishing, a starter (class 0) that joins nothing before it and that
    /// no later mark may join, folded to at most four bytes — with those bytes (little-endian,
    /// the first in the low byte), how many, and the class of its last scalar and that scalar
    /// after recomposition: all the general way takes from its entry (`standsAlone` holds for
    /// it whatever came before).
    private struct TwoByte: Sendable {
        enum Kind { case unknown, general, alone }
        var kind = Kind.unknown
        var length: UInt8 = 0
        var lastClass: UInt8 = 0
        var bytes: UInt32 = 0
        var composedLast: UInt32 = 0

        init() {}

        init(_ entry: Entry, store: [UInt8]) {
            guard !entry.vanishes, !entry.laterJoins, !entry.firstJoins, entry.firstClass == 0,
                entry.length <= 4
            else {
                kind = .general
                return
            }
            kind = .alone
            length = UInt8(entry.length)
            for k in 0..<Int(entry.length) {
                bytes |= UInt32(store[Int(entry.offset) + k]) << (8 * k)
            }
            lastClass = entry.lastClass
            composedLast = entry.composedLast
        }
    }

    /// How one scalar folds on its own, and what decides whether that form holds beside others.
    struct Entry: Sendable {
        /// Where the folded UTF-8 bytes of the scalar on its own are in the folder's store.
        var offset: UInt32
        var length: UInt32
        /// Nothing is left of it (a diacritic mark): it neither adds nor joins anything.
        var vanishes: Bool
        /// The first scalar of its decomposition (diacritic marks removed).
        var first: UInt32
        /// The canonical combining classes of the first and last scalars of that decomposition.
        var firstClass: UInt8
        var lastClass: UInt8
        /// The last scalar after recomposition (before the letter table and the second folding).
        var composedLast: UInt32
        /// The first scalar may compose with the one before it (a kana voiced mark, a Hangul vowel).
        var firstJoins: Bool
        /// A later mark, before any starter, may compose with what came before.
        var laterJoins: Bool

        /// Folds `scalar` and appends its folded bytes to `store`.
        init(_ scalar: Unicode.Scalar, store: inout [UInt8]) {
            let folded = TextFolder.fold(String(Character(scalar)))
            offset = UInt32(store.count)
            length = UInt32(folded.bytes.count)
            store += folded.bytes
            let decomposed = folded.decomposed
            vanishes = decomposed.isEmpty
            first = decomposed.first?.value ?? 0
            firstClass = decomposed.first.map(TextFolder.combiningClass) ?? 0
            lastClass = decomposed.last.map(TextFolder.combiningClass) ?? 0
            composedLast = folded.composed.last?.value ?? 0
            firstJoins = decomposed.first.map(TextFolder.mayComposeWithPrevious) ?? false
            let leadingMarks = decomposed.dropFirst().prefix { TextFolder.combiningClass($0) != 0 }
            laterJoins = firstClass != 0 && leadingMarks.contains(where: TextFolder.mayComposeWithPrevious)
        }
    }

    /// The slow, exact fold, with the intermediate forms the entries need: the
    /// decomposition without its diacritic marks, and its recomposition.
    static func fold(
        _ text: String
    ) -> (bytes: [UInt8], decomposed: [Unicode.Scalar], composed: [Unicode.Scalar]) {
        let decomposed = Array(
            caseFold(text).decomposedStringWithCompatibilityMapping.unicodeScalars
                .filter { !isDiacritic($0) })
        let composed = String(String.UnicodeScalarView(TextFolder.composed(decomposed)))
        var lettered = String.UnicodeScalarView()
        for s in composed.unicodeScalars {
            if let replacement = letterTable[s] {
                lettered.append(contentsOf: replacement.unicodeScalars)
            } else {
                lettered.append(s)
            }
        }
        return (Array(caseFold(String(lettered)).utf8), decomposed, Array(composed.unicodeScalars))
    }

    /// The canonical composition (NFC) of decomposed `scalars`. Hangul is composed here, as Unicode
    /// defines it — a leading consonant U+1100–U+1112 and a vowel U+1161–U+1175 make a syllable,
    /// which takes a final consonant U+11A8–U+11C2 — and Foundation composes the rest: its NFC
    /// takes the jamo just past those ranges too (ᄋ ᅥ ᇃ became 에, another syllable; U+11A7 after a
    /// syllable vanished) and leaves a precomposed syllable and its final apart. Hangul composes
    /// with nothing else and no mark reorders across it, so the runs between are composed alone.
    static func composed(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(scalars.count)
        var run = String.UnicodeScalarView()
        func flush() {
            guard !run.isEmpty else { return }
            out += String(run).precomposedStringWithCanonicalMapping.unicodeScalars
            run = String.UnicodeScalarView()
        }
        for s in scalars {
            switch s.value {
            case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0xAC00...0xD7A3:
                flush()
                if let last = out.last?.value {
                    if (0x1100...0x1112).contains(last), (0x1161...0x1175).contains(s.value),
                        let syllable = Unicode.Scalar(
                            0xAC00 + ((last - 0x1100) * 21 + (s.value - 0x1161)) * 28)
                    {
                        out[out.count - 1] = syllable
                        continue
                    }
                    if (0xAC00...0xD7A3).contains(last), (last - 0xAC00) % 28 == 0,
                        (0x11A8...0x11C2).contains(s.value),
                        let syllable = Unicode.Scalar(last + (s.value - 0x11A7))
                    {
                        out[out.count - 1] = syllable
                        continue
                    }
                }
                out.append(s)
            default:
                run.append(s)
            }
        }
        flush()
        return out
    }

    /// Whether `s` is one of the diacritic marks folding removes: a non-spacing mark of the
    /// combining-diacritics blocks, a Hebrew point or an Arabic haraka. Marks that are part of a
    /// letter (Thai, Indic, the kana voiced marks) are not.
    static func isDiacritic(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
            0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06ED:
            return s.properties.generalCategory == .nonspacingMark
        default:
            return false
        }
    }

    /// Whether NFC may compose `s` with a scalar before it (Unicode's NFC_Quick_Check=Maybe), for
    /// the scalars that survive `isDiacritic`. Exact for the Basic Multilingual Plane; every mark
    /// beyond it counts, so scripts newer than this table only take the slow path.
    static func mayComposeWithPrevious(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1161...0x1175, 0x11A8...0x11C2,  // Hangul vowels and final consonants
            0x093C, 0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE, 0x0BD7, 0x0C56, 0x0CC2,
            0x0CD5, 0x0CD6, 0x0D3E, 0x0D57, 0x0DCA, 0x0DCF, 0x0DDF, 0x102E, 0x1B35,
            0x3099, 0x309A:  // the kana voiced marks
            return true
        case 0x10000...:
            switch s.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return false
            }
        default:
            return false
        }
    }

    static func combiningClass(_ s: Unicode.Scalar) -> UInt8 {
        s.properties.canonicalCombiningClass.rawValue
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
                for u in upper.unicodeScalars {
                    out.append(contentsOf: u.properties.lowercaseMapping.unicodeScalars)
                }
            }
        }
        return String(out)
    }
}

/// Convenience entry points for folding one-off strings (queries, titles).
public enum TextFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        var folding = TextFolder()
        return folding.fold(text)
    }

    /// Whether `haystack` (already folded bytes) contains `needle` (already folded bytes).
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        haystack.withUnsafeBytes { firstIndex(of: needle, in: $0) } != nil
    }

    /// The byte offset of the first occurrence of `needle` in `haystack`, if any.
    public static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        haystack.withUnsafeBytes { firstIndex(of: needle, in: $0) }
    }
}

extension TextFolder {
    /// Folders waiting for work (the workers of `Parallel.map`, tags made unique), each used by
    /// one thread at a time and kept between uses, so that work starts with a warm cache: folding
    /// a scalar the first time is costly (Foundation's decomposition), and a cold one per
    /// chunk of 32 notes did it again and again.
    static let workers = WorkerStates { TextFolder() }
}
