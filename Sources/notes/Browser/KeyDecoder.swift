/// A key the browser acts on.
enum Key: Equatable, Sendable {
    /// Printable text: typed, or pasted in one go.
    case text(String)
    case enter, tab, backspace, delete, escape
    case up, down, left, right, pageUp, pageDown, home, end
    /// Ctrl and a letter (lower case) that has no name of its own above (Ctrl-J is `control("j")`:
    /// Enter sends a carriage return in raw mode, Ctrl-J a line feed).
    case control(Character)
    /// A key or sequence the browser has no use for.
    case unknown
}

/// Turns the bytes a terminal sends in raw mode into keys: UTF-8 text (a character split across
/// two reads is joined), control keys, and the escape sequences of arrows and the editing keys
/// in both their CSI (`ESC [ A`) and SS3 (`ESC O A`) forms. A lone Esc cannot be told from the
/// start of a sequence until no more bytes come: the reader waits a moment, then calls `flush()`.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Whether bytes are waiting for more (an escape sequence or a UTF-8 character cut short).
    var hasPending: Bool { !pending.isEmpty }

    /// The keys `bytes` complete.
    mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var i = 0
        while i < pending.count {
            guard let (key, length) = decode(at: i) else { break }
            if let key {
                if case .text(let more) = key, case .text(let text)? = keys.last {
                    keys[keys.count - 1] = .text(text + more)
                } else {
                    keys.append(key)
                }
            }
            i += length
        }
        pending.removeFirst(i)
        return keys
    }

    /// The keys of the bytes still waiting, now that no more came: a lone Esc is the Esc key; a
    /// sequence or character cut short is dropped.
    mutating func flush() -> [Key] {
        defer { pending = [] }
        guard let first = pending.first else { return [] }
        return first == 0x1B && pending.count == 1 ? [.escape] : [.unknown]
    }

    /// The key at `i` and how many bytes it takes; the key is nil for bytes that make none (an
    /// invalid one). Nil when the bytes there are the start of something not complete yet.
    private func decode(at i: Int) -> (Key?, Int)? {
        let byte = pending[i]
        switch byte {
        case 0x1B: return escape(at: i)
        case 0x0D: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x08, 0x7F: return (.backspace, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (.unknown, 1)
        case 0x20..<0x80: return (.text(String(Character(Unicode.Scalar(byte)))), 1)
        default: return utf8(at: i)
        }
    }

    /// A multi-byte UTF-8 character (C1 controls and bytes that start no valid character are
    /// dropped).
    private func utf8(at i: Int) -> (Key?, Int)? {
        let lead = pending[i]
        let length = lead >= 0xF0 && lead < 0xF5 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0
        guard length > 0 else { return (nil, 1) }
        var end = i + 1
        while end < min(pending.count, i + length) {
            guard pending[end] & 0xC0 == 0x80 else { return (nil, end - i) }
            end += 1
        }
        guard end == i + length else { return nil }
        guard let text = String(validating: pending[i..<end], as: UTF8.self),
            let scalar = text.unicodeScalars.first, !(0x80..<0xA0).contains(scalar.value)
        else {
            return (nil, length)
        }
        return (.text(text), length)
    }

    /// Esc, or the sequence it starts.
    private func escape(at i: Int) -> (Key?, Int)? {
        guard i + 1 < pending.count else { return nil }
        switch pending[i + 1] {
        case UInt8(ascii: "["):
            // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte.
            var end = i + 2
            while end < pending.count, (0x20...0x3F).contains(pending[end]) { end += 1 }
            guard end < pending.count else { return nil }
            let parameters = String(decoding: pending[(i + 2)..<end], as: UTF8.self)
            return (csi(final: pending[end], parameters: parameters), end + 1 - i)
        case UInt8(ascii: "O"):
            guard i + 2 < pending.count else { return nil }
            return (csi(final: pending[i + 2], parameters: ""), 3)
        default:
            // Esc then another key (Alt-x, or typed quickly): the Esc on its own; the rest follows.
            return (.escape, 1)
        }
    }

    /// The key of a CSI or SS3 sequence; modifiers (`1;5A` for Ctrl-↑) are ignored.
    private func csi(final: UInt8, parameters: String) -> Key {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameters.split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return .unknown
            }
        default: return .unknown
        }
    }
}
