import Foundation

/// A search query: terms separated by white space, `"a quoted phrase"` as one term;
/// a note matches when every folded term occurs in its folded searchable text. A term `#T` that
/// is a tag instead asks for the tag T, or one nested below it (`#work` finds
/// `work/meetings`); quoted, `"#T"` is text like any other.
public struct SearchQuery: Equatable, Sendable {
    /// The terms as typed.
    public var terms: [String]
    /// The folded UTF-8 bytes of each term (a tag term with its `#`): what highlights and
    /// snippets look for. (`#work` and `"#work"` fold alike; `findsTheSame` tells them apart.)
    public var foldedTerms: [[UInt8]]
    /// The folded terms that are looked for in the text (every term but the tag terms).
    public var textTerms: [[UInt8]]
    /// The folded tags of the tag terms, without their `#`.
    public var tagTerms: [[UInt8]]

    /// Parses a query. An unbalanced quote runs to the end of the query.
    public init(_ query: String) {
        var terms: [(String, quoted: Bool)] = []
        var buffer = ""
        var quoted = false
        func flushWords() {
            terms += buffer.split(whereSeparator: { $0.isWhitespace }).map { (String($0), false) }
            buffer = ""
        }
        for character in query {
            if character == "\"" {
                if quoted {
                    if !buffer.allSatisfy(\.isWhitespace) { terms.append((buffer, true)) }
                    buffer = ""
                } else {
                    flushWords()
                }
                quoted.toggle()
            } else {
                buffer.append(character)
            }
        }
        if quoted {
            if !buffer.allSatisfy(\.isWhitespace) { terms.append((buffer, true)) }
        } else {
            flushWords()
        }
        self.terms = terms.map(\.0)
        var folding = TextFolder()
        foldedTerms = terms.map { folding.foldedBytes($0.0) }
        textTerms = []
        tagTerms = []
        for ((term, quoted), folded) in zip(terms, foldedTerms) {
            if !quoted, term.hasPrefix("#"), NoteTags.isTag(String(term.dropFirst())) {
                tagTerms.append(Array(folded.dropFirst()))
            } else {
                textTerms.append(folded)
            }
        }
    }

    /// Whether the query has no terms (it then matches every note).
    public var isEmpty: Bool { foldedTerms.isEmpty }

    /// Whether `other` asks for the same notes: the same text terms and the same tags.
    public func findsTheSame(as other: SearchQuery) -> Bool {
        textTerms == other.textTerms && tagTerms == other.tagTerms
    }

    /// Whether folded text contains every text term (the tag terms are the catalog's to check,
    /// against the note's tags).
    public func matches(folded haystack: [UInt8]) -> Bool {
        textTerms.allSatisfy { TextFolding.contains(haystack, $0) }
    }

    /// Whether folded text in memory the index maps contains every text term.
    public func matches(folded haystack: UnsafeRawBufferPointer) -> Bool {
        textTerms.allSatisfy { TextFolding.firstIndex(of: $0, in: haystack) != nil }
    }

    /// The first line of `text` that contains any term, trimmed, as written; nil if none does.
    public func snippet(in text: String, folding: inout TextFolder) -> String? {
        var found: String?
        Note.forEachLine(of: text) { _, line in
            let folded = folding.foldedBytes(String(line))
            guard foldedTerms.contains(where: { !$0.isEmpty && TextFolding.contains(folded, $0) }) else {
                return true
            }
            found = line.trimmingCharacters(in: .whitespaces)
            return false
        }
        return found
    }

    /// The ranges of `line` (in Characters) where a term matches, for highlighting.
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
