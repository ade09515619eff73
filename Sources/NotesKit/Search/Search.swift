import Foundation

/// A search query: terms separated by white space, `"a quoted phrase"` as one term; a note
/// matches when it satisfies every clause of the query. A clause is one term, or several joined by
/// the word `OR` (any of them will do: `OR` binds tighter than the implicit AND). A term `-word` or
/// `-"a phrase"` is satisfied by a note that does not hold it. A term `#T` that is a tag instead
/// asks for the tag T, or one nested below it (`#work` finds `work/meetings`); quoted, `"#T"` is
/// text like any other. A leading or trailing `OR`, and a lone `-`, are ignored.
public struct SearchQuery: Equatable, Sendable {
    /// One term of a query.
    public struct Term: Equatable, Sendable {
        /// The term as typed, without its `-`.
        public var text: String
        /// Its folded UTF-8 bytes (a tag term with its `#`).
        public var folded: [UInt8]
        /// For a tag term, the folded tag without its `#`; nil for text.
        public var tag: [UInt8]?
        /// Whether the term excludes (`-term`): a note satisfies it by not holding it.
        public var excluded: Bool

        /// Whether two terms ask for the same thing (the spelling typed aside).
        func findsTheSame(as other: Term) -> Bool {
            folded == other.folded && tag == other.tag && excluded == other.excluded
        }
    }

    /// The clauses, each a list of terms joined by `OR`.
    public private(set) var clauses: [[Term]]
    /// Every term as typed (an excluded one without its `-`), in order.
    public var terms: [String]
    /// The folded UTF-8 bytes of each term that is looked for, not excluded (a tag term with its
    /// `#`): what highlights and snippets look for. (`#work` and `"#work"` fold alike;
    /// `findsTheSame` tells them apart.)
    public var foldedTerms: [[UInt8]]
    /// The folded text terms every hit holds: the clauses that are one text term, not excluded.
    public var textTerms: [[UInt8]]
    /// The folded tags every hit has (without their `#`): the clauses that are one tag term, not
    /// excluded.
    public var tagTerms: [[UInt8]]
    /// The clauses `textTerms` and `tagTerms` leave out: those with `OR` or an excluded term.
    let otherClauses: [[Term]]
    /// Whether any clause reads the note's text (a text term, excluded or not).
    public let readsText: Bool
    /// What a title starting with the query starts with: the text terms every hit holds, folded,
    /// one space apart, in the order typed.
    let leading: [UInt8]

    /// Parses a query. An unbalanced quote runs to the end of the query.
    public init(_ query: String) {
        var folding = TextFolder()
        var clauses: [[Term]] = []
        var joining = false
        for token in SearchQuery.tokens(query) {
            guard let word = token.word else {
                joining = !clauses.isEmpty
                continue
            }
            let folded = folding.foldedBytes(word)
            let isTag = !token.quoted && word.hasPrefix("#") && NoteTags.isTag(String(word.dropFirst()))
            let term = Term(
                text: word, folded: folded, tag: isTag ? Array(folded.dropFirst()) : nil,
                excluded: token.excluded)
            if joining, !clauses.isEmpty {
                clauses[clauses.count - 1].append(term)
            } else {
                clauses.append([term])
            }
            joining = false
        }
        self.clauses = clauses
        terms = clauses.flatMap { $0.map(\.text) }
        foldedTerms = clauses.flatMap { $0.filter { !$0.excluded }.map(\.folded) }
        var textTerms: [[UInt8]] = []
        var tagTerms: [[UInt8]] = []
        var other: [[Term]] = []
        for clause in clauses {
            if clause.count == 1, let term = clause.first, !term.excluded {
                if let tag = term.tag { tagTerms.append(tag) } else { textTerms.append(term.folded) }
            } else {
                other.append(clause)
            }
        }
        self.textTerms = textTerms
        self.tagTerms = tagTerms
        otherClauses = other
        readsText = clauses.contains { $0.contains { $0.tag == nil } }
        leading = Array(textTerms.joined(separator: [UInt8(ascii: " ")]))
    }

    /// A word of a query (nil for the operator `OR`), whether it was quoted and whether it excludes.
    struct Token {
        var word: String?
        var quoted = false
        var excluded = false
    }

    /// The tokens of a query: words and phrases, each maybe excluded by a `-` before it, and `OR`.
    static func tokens(_ query: String) -> [Token] {
        var tokens: [Token] = []
        var buffer = ""
        var quoted = false
        var excludedPhrase = false
        func flushWords() {
            for word in buffer.split(whereSeparator: { $0.isWhitespace }) {
                if word == "OR" {
                    tokens.append(Token(word: nil))
                } else if word.hasPrefix("-") {
                    // A lone `-` is no term.
                    if word.count > 1 { tokens.append(Token(word: String(word.dropFirst()), excluded: true)) }
                } else {
                    tokens.append(Token(word: String(word)))
                }
            }
            buffer = ""
        }
        func flushPhrase() {
            if !buffer.allSatisfy(\.isWhitespace) {
                tokens.append(Token(word: buffer, quoted: true, excluded: excludedPhrase))
            }
            buffer = ""
        }
        for character in query {
            if character == "\"" {
                if quoted {
                    flushPhrase()
                } else {
                    // `-"a phrase"`: a `-` glued to the opening quote, at the start of a word.
                    excludedPhrase = false
                    if buffer.last == "-" {
                        let before = buffer.dropLast()
                        if before.last.map(\.isWhitespace) ?? true {
                            buffer = String(before)
                            excludedPhrase = true
                        }
                    }
                    flushWords()
                }
                quoted.toggle()
            } else {
                buffer.append(character)
            }
        }
        if quoted { flushPhrase() } else { flushWords() }
        return tokens
    }

    /// Whether the query has no terms (it then matches every note).
    public var isEmpty: Bool { clauses.isEmpty }

    /// Whether every clause is one term, not excluded: a hit holds every text term and has every
    /// tag, and the hits of a query typed on are among this one's.
    public var isPlain: Bool { otherClauses.isEmpty }

    /// Whether `other` asks for the same notes: the same clauses of the same terms.
    public func findsTheSame(as other: SearchQuery) -> Bool {
        clauses.count == other.clauses.count
            && zip(clauses, other.clauses).allSatisfy { mine, theirs in
                mine.count == theirs.count && zip(mine, theirs).allSatisfy { $0.findsTheSame(as: $1) }
            }
    }

    /// Whether a note satisfies every clause, given whether its folded text holds some folded
    /// bytes and whether it has a folded tag (or one nested below it); without `hasTag`, every tag
    /// term is taken as satisfied. An excluded term that folds to nothing excludes nothing.
    func satisfies(
        _ clauses: [[Term]], holds: ([UInt8]) -> Bool, hasTag: (([UInt8]) -> Bool)?
    ) -> Bool {
        clauses.allSatisfy { clause in
            clause.contains { term in
                if let tag = term.tag { return hasTag.map { $0(tag) != term.excluded } ?? true }
                if term.excluded { return term.folded.isEmpty || !holds(term.folded) }
                return holds(term.folded)
            }
        }
    }

    /// Whether folded text satisfies the query, its tag terms aside (those are the catalog's to
    /// check, against the note's tags: here a tag term counts as present).
    public func matches(folded haystack: [UInt8]) -> Bool {
        textTerms.allSatisfy { TextFolding.contains(haystack, $0) }
            && satisfies(otherClauses, holds: { TextFolding.contains(haystack, $0) }, hasTag: nil)
    }

    /// Calls `body` with the probes of a plain query's first text term (of two bytes or more), for
    /// a scan of many notes' texts (`Catalog.matches`): made once, not once a note; else with nil.
    func withFirstTermProbes<R>(_ body: (TextFolding.Probes?) -> R) -> R {
        guard isPlain, let term = textTerms.first, term.count >= 2 else { return body(nil) }
        return term.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return body(nil) }
            return body(TextFolding.Probes(base, count: term.count))
        }
    }

    /// Whether folded text in memory the index maps satisfies the query, its tag terms aside.
    public func matches(folded haystack: UnsafeRawBufferPointer) -> Bool {
        matches(folded: haystack, hasTag: nil)
    }

    /// Whether folded text in memory the index maps, and a note's tags, satisfy the query: the
    /// text terms every hit holds first, then the clauses with `OR` or an excluded term.
    func matches(folded haystack: UnsafeRawBufferPointer, hasTag: (([UInt8]) -> Bool)?) -> Bool {
        textTerms.allSatisfy { TextFolding.firstIndex(of: $0, in: haystack) != nil }
            && (otherClauses.isEmpty
                || satisfies(
                    otherClauses, holds: { TextFolding.firstIndex(of: $0, in: haystack) != nil },
                    hasTag: hasTag))
    }

    /// How well a folded title answers the query, for `relevance`: 0 when the title holds every
    /// term and starts with the query's leading terms, 1 when it holds every term, 2 otherwise
    /// (and for a query with no text term to look for). Tag terms and excluded ones are the
    /// note's to satisfy, not the title's.
    func titleRank(_ title: UnsafeRawBufferPointer) -> UInt8 {
        guard ranksTitles else { return 2 }
        let holds = { (term: [UInt8]) in TextFolding.firstIndex(of: term, in: title) != nil }
        let all = clauses.allSatisfy { clause in
            clause.contains { term in term.tag != nil || term.excluded || holds(term.folded) }
        }
        guard all else { return 2 }
        guard !leading.isEmpty, title.count >= leading.count, let base = title.baseAddress else { return 1 }
        let starts = leading.withUnsafeBytes { wanted in
            wanted.baseAddress.map { memcmp(base, $0, wanted.count) == 0 } ?? false
        }
        return starts ? 0 : 1
    }

    /// Whether `titleRank` tells titles apart: the query looks for some text.
    var ranksTitles: Bool { clauses.contains { $0.contains { $0.tag == nil && !$0.excluded } } }

    /// The first line of `text` that holds a term looked for, trimmed, as written, cut to a window
    /// around the first match when it is long (see `Snippet`); nil if no line does.
    public func snippet(in text: String, folding: inout TextFolder) -> String? {
        let bytes = Array(text.utf8)
        var finder = Snippet.Finder(terms: foldedTerms, folding: folding)
        defer { folding = finder.folding }
        return finder.first(in: Snippet.Lines(bytes: bytes))
    }

    /// The ranges of `line` (in Characters) where a term looked for matches, for highlighting
    /// (excluded terms are not).
    public func highlights(in line: String) -> [Range<String.Index>] {
        var folding = TextFolder()
        // Fold each Character on its own so folded offsets map back to the line.
        var folded: [UInt8] = []
        var owners: [String.Index] = []
        for index in line.indices {
            let bytes = folding.foldedBytes(String(line[index]))
            folded += bytes
            owners += repeatElement(index, count: bytes.count)
        }
        var ranges: [Range<String.Index>] = []
        for term in foldedTerms where !term.isEmpty {
            var start = 0
            while start + term.count <= folded.count,
                let hit = TextFolding.firstIndex(of: term, in: Array(folded[start...]))
            {
                let from = owners[start + hit]
                let lastOwner = owners[start + hit + term.count - 1]
                ranges.append(from..<line.index(after: lastOwner))
                start += hit + max(term.count, 1)
            }
        }
        return ranges.sorted { $0.lowerBound < $1.lowerBound }
    }
}

/// The orders of `list` and `search`.
public enum SortOrder: String, CaseIterable, Codable, Sendable {
    /// `updatedAt`, else `createdAt`, newest first.
    case updated
    /// `createdAt`, newest first.
    case created
    /// Title in localized standard order, A→Z.
    case title

    /// The date shown beside a note in this order.
    public func date(of note: Note) -> Double {
        self == .created ? note.createdAt : note.modifiedAt
    }
}
