/// Links read from a text that is not the indexed file (an editor's unsaved buffer), resolved as
/// the index's links are.
extension Catalog {
    /// The note at the vault path `path`, if the catalog has it.
    public func note(atPath path: String) -> Note? {
        position(ofPath: path).map { note(at: $0) }
    }

    /// Where `link`, written in the note at the vault path `source`, goes (the one resolver every
    /// command uses); nil when it is broken.
    public func target(of link: NoteLink, from source: String) -> Note? {
        var folding = TextFolder()
        let keys = LinkKeys.make(link, from: source, folding: &folding)
        let resolver = LinkResolver(catalog: self)
        return resolver.resolution(
            keys, kind: link.kind, markdown: link.style == .markdown, from: Array(source.utf8)
        ).map { note(at: $0.position) }
    }
}
