import Foundation

/// What link resolution compares for one link (SPEC §10), made once, when the note is read.
struct LinkKeys: Equatable {
    /// A wiki link: its target without a `.md` ending, compared with IDs and file names. A
    /// Markdown link: the vault path its relative path names from the linking note's folder, or
    /// empty when that leaves the vault.
    var key: [UInt8]
    /// A wiki link: its folded target, compared with folded titles. A Markdown link: its path read
    /// from the top of the vault (Obsidian's "absolute path in vault" links), or empty for a path
    /// that starts with `./` or `../`.
    var alternative: [UInt8]

    /// The keys of `link` in the note at the vault path `source`.
    static func make(_ link: NoteLink, from source: String, folder: inout TextFolder) -> LinkKeys {
        make(style: link.style, target: link.target, from: source, folder: &folder)
    }

    /// The keys of a link of `style` whose target is written `target`, in the note at `source`.
    static func make(style: NoteLink.Style, target: String, from source: String, folder: inout TextFolder) -> LinkKeys {
        switch style {
        case .wiki:
            var key = target
            if key.hasSuffix(".md") && key.utf8.count > 3 { key.removeLast(3) }
            return LinkKeys(key: Array(key.utf8), alternative: folder.foldedBytes(target))
        case .markdown:
            let path = NoteLinks.percentDecoded(target)
            let relative = LinkKeys.join(LinkKeys.folder(of: source), path)
            let fromTop = path.hasPrefix("./") || path.hasPrefix("../") ? nil : LinkKeys.join("", path)
            return LinkKeys(key: Array((relative ?? "").utf8), alternative: Array((fromTop ?? "").utf8))
        }
    }

    /// The folder of a vault path (`""` at the top).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// `path` read from the vault folder `folder`, normalised; nil when it leaves the vault.
    static func join(_ folder: String, _ path: String) -> String? {
        let joined = Vault.normalized(folder.isEmpty ? path : folder + "/" + path)
        guard !joined.isEmpty, !joined.hasPrefix("/"), joined != "..", !joined.hasPrefix("../") else { return nil }
        return joined
    }
}

/// A link as the index keeps it: how it was written, where, and its resolution keys.
public struct IndexedLink: Equatable, Sendable {
    /// How it is written.
    public var style: NoteLink.Style
    /// Whether it is an embed (`![[…]]`).
    public var isEmbed: Bool
    /// The 1-based line of the file.
    public var line: Int
    /// The link as written.
    public var text: String
    /// The target as written.
    public var target: String
    /// The heading, if any.
    public var heading: String?
    /// Where the target is in `text`, in bytes.
    var targetRange: Range<Int>
    var keys: LinkKeys
}

/// A note's tags and links as the index keeps them: one chunk per record, in a region of the index
/// of its own (`IndexLayout`), read in place with bounds checks (damage reads as no tags, no links).
///
///     u16 tag count, u16 link count
///     u16 length + the folded title
///     per tag: u8 length + the folded tag        (all together: what counting and filtering read)
///     per tag: u8 length + the tag as spelled
///     per link: u8 flags (1 Markdown, 2 embed, 4 heading), u32 line,
///               u16 length + key, u16 length + alternative key (`LinkKeys`),
///               u16 length + the link as written, u16 start and end of the target in it,
///               u16 length + heading
struct NoteRefs {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private static let markdown: UInt8 = 1, embed: UInt8 = 2, hasHeading: UInt8 = 4

    /// The chunk of a note: its folded title, its tags (spelling and folded, each once), its links
    /// with their keys. A tag or link too long for the layout (hundreds of bytes, thousands) is
    /// left out.
    static func encode(foldedTitle: [UInt8], tags: [(spelling: String, folded: [UInt8])],
                       links: [(link: NoteLink, keys: LinkKeys)]) -> [UInt8] {
        let tags = tags.filter { $0.folded.count <= 255 && $0.spelling.utf8.count <= 255 }.prefix(Int(UInt16.max))
        let links = links.filter { link, keys in
            link.text.utf8.count <= Int(UInt16.max) && keys.key.count <= Int(UInt16.max)
                && keys.alternative.count <= Int(UInt16.max) && (link.heading?.utf8.count ?? 0) <= Int(UInt16.max)
        }.prefix(Int(UInt16.max))
        var out: [UInt8] = []
        out.reserveCapacity(8 + foldedTitle.count + tags.count * 16 + links.count * 64)
        func u16(_ value: Int) { NoteIndexFile.append(UInt16(truncatingIfNeeded: value), to: &out) }
        func bytes16<C: Collection>(_ bytes: C) where C.Element == UInt8 {
            u16(bytes.count)
            out.append(contentsOf: bytes)
        }
        u16(tags.count)
        u16(links.count)
        bytes16(foldedTitle.prefix(Int(UInt16.max)))
        for tag in tags {
            out.append(UInt8(tag.folded.count))
            out.append(contentsOf: tag.folded)
        }
        for tag in tags {
            out.append(UInt8(tag.spelling.utf8.count))
            out.append(contentsOf: tag.spelling.utf8)
        }
        for (link, keys) in links {
            var flags: UInt8 = link.style == .markdown ? markdown : 0
            if link.isEmbed { flags |= embed }
            if link.heading != nil { flags |= hasHeading }
            out.append(flags)
            NoteIndexFile.append(UInt32(clamping: link.line), to: &out)
            bytes16(keys.key)
            bytes16(keys.alternative)
            bytes16(link.text.utf8)
            let offset = link.range.lowerBound
            u16(link.targetRange.lowerBound - offset)
            u16(link.targetRange.upperBound - offset)
            bytes16((link.heading ?? "").utf8)
        }
        return out
    }

    // MARK: Reading

    private func counts() -> (tags: Int, links: Int, reader: ByteReader)? {
        var reader = ByteReader(bytes: bytes)
        guard let tags = reader.u16(), let links = reader.u16(), reader.bytes16() != nil else { return nil }
        return (Int(tags), Int(links), reader)
    }

    /// The folded title, or nil when the chunk is empty or damaged.
    var foldedTitle: UnsafeRawBufferPointer? {
        var reader = ByteReader(bytes: bytes)
        guard reader.u16() != nil, reader.u16() != nil else { return nil }
        return reader.bytes16()
    }

    /// Calls `body` with each folded tag, in order; stops when it returns false.
    func forEachFoldedTag(_ body: (UnsafeRawBufferPointer) -> Bool) {
        guard var (tags, _, reader) = counts() else { return }
        while tags > 0, let length = reader.byte(), let tag = reader.take(Int(length)) {
            guard body(tag) else { return }
            tags -= 1
        }
    }

    /// Whether the note has every tag of `wanted` (folded), or one nested below it.
    func hasTags(_ wanted: [[UInt8]]) -> Bool {
        wanted.allSatisfy { want in
            var found = false
            forEachFoldedTag { tag in
                found = NoteTags.matches(tag, want)
                return !found
            }
            return found
        }
    }

    /// The tags as spelled, in order.
    func tagSpellings() -> [String] {
        guard var (tags, _, reader) = counts() else { return [] }
        for _ in 0..<tags {
            guard let length = reader.byte(), reader.take(Int(length)) != nil else { return [] }
        }
        var out: [String] = []
        while tags > 0, let length = reader.byte(), let tag = reader.take(Int(length)) {
            out.append(String(decoding: tag, as: UTF8.self))
            tags -= 1
        }
        return out
    }

    /// One stored link, read in place: its keys for comparing, and where it is for reading it whole.
    struct LinkView {
        var isMarkdown: Bool
        var key: UnsafeRawBufferPointer
        var alternative: UnsafeRawBufferPointer
        /// The entry's offset in the chunk.
        var offset: Int
    }

    /// Calls `body` with each link, in order; stops when it returns false.
    func forEachLink(_ body: (LinkView) -> Bool) {
        guard var (tags, links, reader) = counts() else { return }
        // Skip the tags, folded and spelled.
        tags *= 2
        while tags > 0 {
            guard let length = reader.byte(), reader.take(Int(length)) != nil else { return }
            tags -= 1
        }
        while links > 0 {
            let offset = reader.offset
            guard let flags = reader.byte(), reader.u32() != nil, let key = reader.bytes16(),
                  let alternative = reader.bytes16(), reader.bytes16() != nil, reader.u16() != nil,
                  reader.u16() != nil, reader.bytes16() != nil
            else { return }
            guard body(LinkView(isMarkdown: flags & NoteRefs.markdown != 0, key: key, alternative: alternative,
                                offset: offset)) else { return }
            links -= 1
        }
    }

    /// The link whose entry is at `offset` (from `forEachLink`), made whole.
    func link(at offset: Int) -> IndexedLink? {
        var reader = ByteReader(bytes: bytes)
        reader.offset = offset
        guard let flags = reader.byte(), let line = reader.u32(), let key = reader.bytes16(),
              let alternative = reader.bytes16(), let text = reader.bytes16(), let start = reader.u16(),
              let end = reader.u16(), let heading = reader.bytes16()
        else { return nil }
        let targetRange = start <= end && Int(end) <= text.count ? Int(start)..<Int(end) : 0..<0
        return IndexedLink(
            style: flags & NoteRefs.markdown != 0 ? .markdown : .wiki, isEmbed: flags & NoteRefs.embed != 0,
            line: Int(line), text: String(decoding: text, as: UTF8.self),
            target: String(decoding: UnsafeRawBufferPointer(rebasing: text[targetRange]), as: UTF8.self),
            heading: flags & NoteRefs.hasHeading != 0 ? String(decoding: heading, as: UTF8.self) : nil,
            targetRange: targetRange, keys: LinkKeys(key: Array(key), alternative: Array(alternative)))
    }

    /// Every link, made whole, in order.
    func links() -> [IndexedLink] {
        var out: [IndexedLink] = []
        forEachLink { view in
            if let link = link(at: view.offset) { out.append(link) }
            return true
        }
        return out
    }
}

extension ByteReader {
    /// A u16-length-prefixed run of bytes.
    mutating func bytes16() -> UnsafeRawBufferPointer? {
        guard let length = u16() else { return nil }
        return take(Int(length))
    }
}
