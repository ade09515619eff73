/// Whether the links of a text that is not the indexed file (an editor's buffer) are broken, and
/// why — checked as `notes links --broken` checks the index's links, with one difference: the
/// headings of notes that are open in the editor are their buffers' headings. Made once for a
/// catalog and kept while it is current, so the name tables are built once.
public final class BufferLinkHealth {
    public let catalog: Catalog
    private var checker: LinkChecker
    private var folding = TextFolder()

    public init(catalog: Catalog) {
        self.catalog = catalog
        checker = LinkChecker(catalog: catalog, fewNotes: true)
    }

    /// What is wrong with `link`, written in the note at the vault path `source` whose own
    /// headings and blocks are `own`; nil when it is whole. `openAnchors` gives the anchors of a
    /// note (by vault path) that the editor has open, nil for the others.
    public func problem(
        of link: NoteLink, from source: String, own: NoteAnchors, openAnchors: (String) -> NoteAnchors?
    ) -> LinkProblem? {
        let want = link.heading.map(NoteAnchors.want) ?? .nothing
        let markdown = link.style == .markdown
        if link.kind == .sameNote {
            return Self.problem(want, in: own, markdown: markdown)
        }
        let keys = LinkKeys.make(link, from: source, folding: &folding)
        let from = Array(source.utf8)
        let position = catalog.position(ofPath: source) ?? 0
        let outcome = keys.key.withUnsafeBytes { key in
            keys.alternative.withUnsafeBytes { alternative in
                checker.check(
                    kind: link.kind, markdown: markdown, key: key, alternative: alternative, heading: nil,
                    at: position, from: from)
            }
        }
        if let problem = outcome.problem { return problem }
        guard let target = outcome.note, let heading = link.heading else { return nil }
        if case .nothing = want { return nil }
        let path = catalog.note(at: target).path
        if path == source { return Self.problem(want, in: own, markdown: markdown) }
        if let anchors = openAnchors(path) { return Self.problem(want, in: anchors, markdown: markdown) }
        let bytes = Array(heading.utf8)
        return keys.key.withUnsafeBytes { key in
            keys.alternative.withUnsafeBytes { alternative in
                bytes.withUnsafeBytes { heading in
                    checker.check(
                        kind: link.kind, markdown: markdown, key: key, alternative: alternative,
                        heading: heading, at: position, from: from
                    ).problem
                }
            }
        }
    }

    private static func problem(_ want: NoteAnchors.Want, in anchors: NoteAnchors, markdown: Bool)
        -> LinkProblem?
    {
        guard !NoteAnchors.Matcher(anchors).has(want, markdown: markdown) else { return nil }
        if case .block = want { return .missingBlock }
        return .missingHeading
    }
}
