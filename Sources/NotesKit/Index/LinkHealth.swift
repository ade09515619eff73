import Foundation

/// Why a link is broken.
public enum LinkProblem: String, Equatable, Sendable, CaseIterable {
    /// No note has its target.
    case noNote = "no-note"
    /// Its note is there, but has no such heading (`[[Note#Heading]]`).
    case missingHeading = "missing-heading"
    /// Its note is there, but has no such block (`[[Note#^block-id]]`).
    case missingBlock = "missing-block"
    /// No file of the vault is its target (an attachment link: `![[photo.png]]`, `![](a.png)`).
    case noFile = "no-file"
}

/// Where a link goes, and whether it is whole: its note (or file) and, for a link into a note,
/// whether the note has the heading or block the link names. Reads only the index: the links'
/// keys, and the headings and block ids of the notes linked to with a `#…` (each note once).
struct LinkChecker {
    let catalog: Catalog
    let resolver: LinkResolver
    let files: VaultFiles
    private var anchors: [Int: NoteAnchors.Matcher] = [:]
    private let viaPread: Bool

    /// Where one link goes: a note (its position) or a file (its vault path), and what is wrong.
    struct Outcome {
        var note: Int?
        var file: String?
        var problem: LinkProblem?
    }

    /// A checker of `catalog`'s links; `fewNotes` when only a few notes' anchors will be read
    /// (then they are read, not mapped: see `MappedIndex.note(at:viaPread:)`).
    init(catalog: Catalog, fewNotes: Bool = false) {
        self.catalog = catalog
        resolver = LinkResolver(catalog: catalog)
        files = resolver.files
        viaPread = fewNotes
    }

    /// Where a link of `kind` with `key`, `alternative` and `heading` (as the index keeps them)
    /// in the note at `position`, at vault path `source`, goes.
    mutating func check(
        kind: NoteLink.Kind, markdown: Bool, key: UnsafeRawBufferPointer, alternative: UnsafeRawBufferPointer,
        heading: UnsafeRawBufferPointer?, at position: Int, from source: [UInt8]
    ) -> Outcome {
        let target: Int
        switch kind {
        case .attachment:
            let path = String(decoding: key, as: UTF8.self)
            let from = String(decoding: source, as: UTF8.self)
            if let file = files.resolve(path, from: from) { return Outcome(file: file) }
            // `[text](Other%20note)`: Obsidian reads a path without an extension as a note's.
            guard markdown, LinkResolver.bareName(key) != nil else { return Outcome(problem: .noFile) }
            guard let found = resolver.note(ofBare: key, from: source) else {
                return Outcome(problem: .noNote)
            }
            target = found
        case .sameNote:
            target = position
        case .note:
            guard
                let found = resolver.resolve(
                    markdown: markdown, key: key, alternative: alternative, from: source)
            else {
                // `[[notes.txt]]`: a file name with an extension that is not an attachment's.
                if !markdown, let file = fileNamed(key, from: source) { return Outcome(file: file) }
                return Outcome(problem: .noNote)
            }
            target = found
        }
        guard let heading else { return Outcome(note: target) }
        let want = NoteAnchors.want(String(decoding: heading, as: UTF8.self))
        if case .nothing = want { return Outcome(note: target) }
        if anchors[target] == nil {
            anchors[target] = NoteAnchors.Matcher(
                catalog.index?.anchors(at: Int(catalog.mapped[target]), viaPread: viaPread) ?? NoteAnchors())
        }
        guard anchors[target]?.has(want, markdown: markdown) == true else {
            if case .block = want { return Outcome(note: target, problem: .missingBlock) }
            return Outcome(note: target, problem: .missingHeading)
        }
        return Outcome(note: target)
    }

    /// `check` of a link as the keys chunk has it.
    mutating func check(_ link: LinkKeysChunk.Link, at position: Int, from source: [UInt8]) -> Outcome {
        check(
            kind: link.kind, markdown: link.isMarkdown, key: link.key, alternative: link.alternative,
            heading: link.heading, at: position, from: source)
    }

    /// `check` of a link made whole.
    mutating func check(_ link: IndexedLink, at position: Int, from source: [UInt8]) -> Outcome {
        link.keys.key.withUnsafeBytes { key in
            link.keys.alternative.withUnsafeBytes { alternative in
                let heading = link.heading.map { Array($0.utf8) }
                return heading.withUnsafeBytes { heading in
                    check(
                        kind: link.kind, markdown: link.style == .markdown, key: key,
                        alternative: alternative,
                        heading: link.heading == nil ? nil : heading, at: position, from: source)
                }
            }
        }
    }

    /// The file a wiki link's key names when its last part has an extension, as an attachment
    /// link's would; nil otherwise.
    private func fileNamed(_ key: UnsafeRawBufferPointer, from source: [UInt8]) -> String? {
        let name = key.split(separator: UInt8(ascii: "/")).last ?? []
        guard name.dropFirst().contains(UInt8(ascii: ".")) else { return nil }
        return files.resolve(
            String(decoding: key, as: UTF8.self), from: String(decoding: source, as: UTF8.self))
    }
}

extension Optional where Wrapped == [UInt8] {
    /// Calls `body` with the bytes, or with none for nil.
    fileprivate func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        switch self {
        case .some(let bytes): return bytes.withUnsafeBytes(body)
        case .none: return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}
