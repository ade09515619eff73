import NotesKit

/// The word being completed as the shell hands it over — backslashes and quotes as typed, a quote
/// perhaps still open — and how a candidate is written back so that the shell inserts it right.
struct CompletionWord {
    /// The word without its quoting.
    var text: String
    /// The quote still open at the end of the word (`'` or `"`), if any.
    var openQuote: Character?
    /// The part of `text` before the open quote: bash replaces only what follows that quote.
    var beforeQuote: String

    /// A word taken as it is, with no quoting to undo.
    init(text: String) {
        self.text = text
        openQuote = nil
        beforeQuote = text
    }

    /// Reads a word the way the shells quote: a backslash takes the next character as it is, single
    /// quotes everything up to the next one, double quotes all but `\`, `$`, `` ` `` and `"` after
    /// a backslash. fish also reads `\'` and `\\` inside single quotes, and a backslash keeps its
    /// meaning before `` ` `` in double ones. A trailing backslash is dropped, a quote left open is
    /// noted.
    init(typed: String, fish: Bool = false) {
        var text = ""
        var quote: Character?
        var beforeQuote = ""
        var escaped = false
        let escapedInDoubleQuotes = fish ? "\\$\"\n" : "\\$`\"\n"
        for character in typed {
            if escaped {
                if quote == "\"" && !escapedInDoubleQuotes.contains(character)
                    || quote == "'" && character != "'" && character != "\\"
                {
                    text.append("\\")
                }
                text.append(character)
                escaped = false
            } else if quote == "'" {
                if character == "'" {
                    quote = nil
                } else if fish && character == "\\" {
                    escaped = true
                } else {
                    text.append(character)
                }
            } else if character == "\\" {
                escaped = true
            } else if character == quote {
                quote = nil
            } else if quote == nil && (character == "'" || character == "\"") {
                quote = character
                beforeQuote = text
            } else {
                text.append(character)
            }
        }
        self.text = text
        openQuote = quote
        self.beforeQuote = quote == nil ? text : beforeQuote
    }

    /// The candidates whose folded form (case, accents and width aside) starts with the word's.
    func matches(_ candidates: [String]) -> [String] {
        var matcher = Matcher(text)
        return candidates.filter { matcher.matches($0.utf8) }
    }

    /// Whether a candidate's folded form starts with the word's. A candidate that starts with
    /// ASCII is compared a byte at a time, lower-cased, as far as the word goes; one with other
    /// characters there is folded whole.
    struct Matcher {
        private var folder = TextFolder()
        private let wanted: [UInt8]

        init(_ text: String) { wanted = folder.foldedBytes(text) }

        /// Whether `candidate`, valid UTF-8, matches.
        mutating func matches<C: Collection<UInt8>>(_ candidate: C) -> Bool {
            var i = 0
            for byte in candidate {
                if i == wanted.count { return true }
                if byte >= 0x80 {
                    return Array(candidate).withUnsafeBufferPointer { folder.foldedBytes(utf8: $0) }
                        .starts(with: wanted)
                }
                if byte &+ ((byte &- 0x41) < 26 ? 0x20 : 0) != wanted[i] { return false }
                i += 1
            }
            return i == wanted.count
        }
    }

    /// The lines bash's `COMPREPLY` takes: each candidate as it must replace what readline
    /// completes — the word, or what follows its open quote, which readline closes itself on a
    /// single match — escaped for the quoting the user chose. With several candidates, one that
    /// matches only folded starts with the word as typed, so that what they have in common (which
    /// readline inserts) never cuts the word short; a single one is inserted as it is spelled.
    func bashReplies(_ candidates: [String]) -> [String] {
        candidates.map { candidate in
            let spelled =
                candidates.count == 1 || candidate.hasPrefix(text)
                ? candidate : text + Self.remainder(of: candidate, after: text)
            let replaced =
                openQuote == nil ? Substring(spelled) : Self.remainder(of: spelled, after: beforeQuote)
            let quoted: String
            switch openQuote {
            case "'": quoted = replaced.replacingOccurrences(of: "'", with: "'\\''")
            case "\"": quoted = String(replaced.flatMap { "\\$`\"".contains($0) ? ["\\", $0] : [$0] })
            default: return Self.escaped(replaced)
            }
            // Readline closes the quote only when the line does not end with one already.
            if candidates.count == 1, let openQuote, quoted.last == openQuote {
                return quoted + String(openQuote)
            }
            return quoted
        }
    }

    /// `text` with a backslash before every character the shell would read as syntax.
    static func escaped<S: StringProtocol>(_ text: S) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            if byte < 0x80 && !isPlain[Int(byte)] { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The ASCII characters a shell reads as they are, anywhere in a word.
    private static let isPlain: [Bool] = (0..<128).map { byte in
        let c = Character(Unicode.Scalar(UInt8(byte)))
        return c.isLetter || c.isNumber || "_./,:+@%-".contains(c)
    }

    /// What follows, in `candidate`, the part that folds to `prefix` (folded, a prefix of the
    /// candidate's folded form): the characters after as many as make up the prefix folded.
    static func remainder(of candidate: String, after prefix: String) -> Substring {
        if candidate.hasPrefix(prefix) { return candidate.dropFirst(prefix.count) }
        var folder = TextFolder()
        let wanted = folder.foldedBytes(prefix).count
        var length = 0
        var index = candidate.startIndex
        while length < wanted, index < candidate.endIndex {
            length += folder.foldedBytes(String(candidate[index])).count
            index = candidate.index(after: index)
        }
        return candidate[index...]
    }
}
