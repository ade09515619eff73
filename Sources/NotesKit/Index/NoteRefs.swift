import Foundation

/// What link resolution compares for one link, made once, when the note is read.
struct LinkKeys: Equatable {
    /// A wiki link: its target without a `.md` ending, compared with IDs and file names. A
    /// Markdown link: the vault path its relative path names from the linking note's folder (from
    /// the vault's top with a leading `/`), or empty when that leaves the vault.
    var key: [UInt8]
    /// A wiki link: its folded target, compared with folded titles. A Markdown link: its path read
    /// from the top of the vault (Obsidian's "absolute path in vault" links), or empty for a path
    /// that starts with `./`, `../` or `/`.
    var alternative: [UInt8]

    /// The keys of `link` in the note at the vault path `source`. An attachment link keeps its
    /// target as a path (percent-decoded), resolved against the vault's files when asked
    /// (`VaultFiles`); a link into its own note has none.
    static func make(_ link: NoteLink, from source: String, folding: inout TextFolder) -> LinkKeys {
        switch link.kind {
        case .note: return make(style: link.style, target: link.target, from: source, folding: &folding)
        case .sameNote: return LinkKeys(key: [], alternative: [])
        case .attachment: return LinkKeys(key: Array(link.decodedTarget.utf8), alternative: [])
        }
    }

    /// The keys of a link of `style` whose target is written `target`, in the note at `source`.
    static func make(style: NoteLink.Style, target: String, from source: String, folding: inout TextFolder)
        -> LinkKeys
    {
        switch style {
        case .wiki:
            var (target, bytes) = (target, [UInt8]())
            let (key, alternative) = target.withUTF8 { appendWiki(target: $0, to: &bytes, folding: &folding) }
            return LinkKeys(key: Array(bytes[key]), alternative: Array(bytes[alternative]))
        case .markdown: return markdown(path: NoteLinks.percentDecoded(target), from: source)
        }
    }

    /// The keys of a Markdown link to a note whose path, percent-decoded, is `path`, in the note
    /// at `source`. A path with a leading `/` is from the vault's top, and only from there.
    static func markdown(path: String, from source: String) -> LinkKeys {
        if path.hasPrefix("/") {
            return LinkKeys(
                key: Array((LinkKeys.join("", String(path.dropFirst())) ?? "").utf8), alternative: [])
        }
        let relative = LinkKeys.join(LinkKeys.folder(of: source), path)
        let fromTop = path.hasPrefix("./") || path.hasPrefix("../") ? nil : LinkKeys.join("", path)
        return LinkKeys(key: Array((relative ?? "").utf8), alternative: Array((fromTop ?? "").utf8))
    }

    /// A wiki link's keys made of its target's bytes, appended to `out`: the target without a
    /// `.md` ending (the key) and the folded target (the alternative); where each is in `out`.
    static func appendWiki(
        target: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], folding: inout TextFolder
    ) -> (key: Range<Int>, alternative: Range<Int>) {
        let start = out.count
        out.append(contentsOf: target)
        let end = out.count
        let key = start..<(target.count > 3 && target.suffix(3).elementsEqual(".md".utf8) ? end - 3 : end)
        folding.appendFolded(utf8: target, to: &out)
        return (key, end..<out.count)
    }

    /// Whether a path may hold a `.`, `..` or empty component (a `/` followed by `.` or `/`, or a
    /// `/` at the end).
    static func needsNormalising(_ path: String.UTF8View) -> Bool {
        var previous: UInt8 = 0
        for byte in path {
            if previous == UInt8(ascii: "/") && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")) {
                return true
            }
            previous = byte
        }
        return previous == UInt8(ascii: "/")
    }

    /// The folder of a vault path (`""` at the top).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// `path` read from the vault folder `folder`, normalised; nil when it leaves the vault.
    static func join(_ folder: String, _ path: String) -> String? {
        // Most paths have no `.` or `..` component and no empty one: nothing to normalise.
        let utf8 = path.utf8
        if let first = utf8.first, first != UInt8(ascii: "."), first != UInt8(ascii: "/"),
            !LinkKeys.needsNormalising(utf8)
        {
            return folder.isEmpty ? path : folder + "/" + path
        }
        let joined = Vault.normalized(folder.isEmpty ? path : folder + "/" + path)
        guard !joined.isEmpty, !joined.hasPrefix("/"), joined != "..", !joined.hasPrefix("../") else {
            return nil
        }
        return joined
    }
}

/// A link as the index keeps it: how it was written, where, and its resolution keys.
public struct IndexedLink: Equatable, Sendable {
    /// How it is written.
    public var style: NoteLink.Style
    /// What it points at.
    public var kind: NoteLink.Kind
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

/// A note's tags and links as the index keeps them (layout in `IndexLayout`). What commands
/// compare — the folded tags and title, the links' keys — sits in two compact regions of their
/// own (`TagsChunk`, `LinkKeysChunk`), so that counting tags or finding backlinks reads a few
/// bytes per note; what they show — the tags as spelled, the links as written — follows the
/// note's title, preview and warnings in its strings (`ShownRefs`), read for shown notes only.
enum NoteRefs {
    /// A note's three parts, ready for an index table.
    struct Encoded: Equatable, Sendable {
        var tags: [UInt8] = []
        var links: [UInt8] = []
        var shown: [UInt8] = ShownRefs.none
    }

    /// A link's flags: written as a Markdown link; an embed; with a heading (`#…`); to an
    /// attachment; into its own note (`[[#Heading]]`). The keys keep all but `embed`.
    static let markdown: UInt8 = 1, embed: UInt8 = 2, hasHeading: UInt8 = 4, attachment: UInt8 = 8,
        sameNote: UInt8 = 16

    /// The flags of `link`.
    static func flags(of link: NoteLink) -> UInt8 {
        flags(link.style, link.kind, isEmbed: link.isEmbed, hasHeading: link.heading != nil)
    }

    /// The flags of a link of `style` and `kind`.
    static func flags(_ style: NoteLink.Style, _ kind: NoteLink.Kind, isEmbed: Bool, hasHeading: Bool)
        -> UInt8
    {
        var flags: UInt8 = style == .markdown ? markdown : 0
        if isEmbed { flags |= embed }
        if hasHeading { flags |= NoteRefs.hasHeading }
        if kind == .attachment { flags |= attachment }
        if kind == .sameNote { flags |= sameNote }
        return flags
    }

    /// The parts of a note: its folded title (`scratch.foldedTitle`), its tags (as spelled and
    /// folded, each once), its links with their keys (`scratch.spans`, spans of `body`, the body of
    /// the note at the vault path `source`), its folded aliases, its headings and block ids
    /// (`scratch.anchors`, spans of `body` too). A tag, link, alias, heading or block id too long
    /// for the layout (hundreds of bytes, thousands) is left out.
    ///
    /// Written into the arrays of `encoded`, emptied first and their memory kept: a reader that
    /// encodes note after note into the same one allocates nothing for them after the first.
    static func encode(
        tags: [(spelling: String, folded: [UInt8])], body: UnsafeBufferPointer<UInt8>, source: String,
        foldedAliases: [[UInt8]] = [], importedFrom: String = "", folding: inout TextFolder,
        scratch: inout LinkScratch, into encoded: inout Encoded
    ) {
        scratch.keys(in: body, from: source, folding: &folding)
        // What fits the layout, counted first (each count comes before its items), then written
        // in one pass each: no filtered copies of the tags and links.
        func fits(_ tag: (spelling: String, folded: [UInt8])) -> Bool {
            tag.folded.count <= 255 && tag.spelling.utf8.count <= 255
        }
        let (spans, parts, foldedTitle) = (scratch.spans, scratch.parts, scratch.foldedTitle)
        func linkFits(_ k: Int) -> Bool {
            spans[k].range.count <= Int(UInt16.max) && parts[k].key.count <= Int(UInt16.max)
                && parts[k].alternative.count <= Int(UInt16.max)
                && (parts[k].heading?.count ?? 0) <= Int(UInt16.max)
        }
        var tagCount = 0
        var tagsSize = 4 + foldedTitle.count
        var shownSize = 8
        for tag in tags where tagCount < Int(UInt16.max) && fits(tag) {
            tagCount += 1
            tagsSize += 1 + tag.folded.count
            shownSize += 4 + tag.spelling.utf8.count
        }
        var linkCount = 0
        var linksSize = 2
        for k in spans.indices where linkCount < Int(UInt16.max) && linkFits(k) {
            linkCount += 1
            let heading = parts[k].heading?.count ?? 0
            linksSize += 7 + parts[k].key.count + parts[k].alternative.count + heading
            shownSize += 17 + spans[k].range.count + heading
        }
        tagsSize += 2 + foldedAliases.reduce(0) { $0 + 2 + $1.count }
        shownSize += ShownRefs.size(of: scratch.anchors) + 4 + importedFrom.utf8.count
        // Each part in one allocation (or none): its size is known before it is written.
        encoded.tags.removeAll(keepingCapacity: true)
        encoded.tags.reserveCapacity(tagsSize)
        encoded.links.removeAll(keepingCapacity: true)
        encoded.links.reserveCapacity(linksSize)
        func u16(_ value: Int, _ out: inout [UInt8]) {
            NoteIndexFile.append(UInt16(truncatingIfNeeded: value), to: &out)
        }
        func bytes16<C: Collection>(_ bytes: C, _ out: inout [UInt8]) where C.Element == UInt8 {
            u16(bytes.count, &out)
            out.append(contentsOf: bytes)
        }
        var shown: [UInt8] = []
        swap(&shown, &encoded.shown)
        shown.removeAll(keepingCapacity: true)
        shown.reserveCapacity(shownSize)
        // The tags, folded in the tags part and as spelled in the shown part, in one pass.
        u16(tagCount, &encoded.tags)
        bytes16(foldedTitle.prefix(Int(UInt16.max)), &encoded.tags)
        NoteIndexFile.append(UInt32(tagCount), to: &shown)
        var written = 0
        for tag in tags where written < tagCount && fits(tag) {
            encoded.tags.append(UInt8(tag.folded.count))
            encoded.tags.append(contentsOf: tag.folded)
            NoteIndexFile.append(tag.spelling, to: &shown)
            written += 1
        }
        appendAliases(foldedAliases, to: &encoded.tags)
        u16(linkCount, &encoded.links)
        NoteIndexFile.append(UInt32(linkCount), to: &shown)
        written = 0
        for k in spans.indices where written < linkCount && linkFits(k) {
            let (span, part) = (spans[k], parts[k])
            let flags = flags(of: span)
            encoded.links.append(flags & ~embed)
            bytes16(scratch.bytes[part.key], &encoded.links)
            bytes16(scratch.bytes[part.alternative], &encoded.links)
            if let heading = part.heading { bytes16(scratch.bytes[heading], &encoded.links) }
            NoteIndexFile.append(UInt32(clamping: span.line), to: &shown)
            shown.append(flags)
            NoteIndexFile.append(utf8: UnsafeBufferPointer(rebasing: body[span.range]), to: &shown)
            u16(span.targetRange.lowerBound - span.range.lowerBound, &shown)
            u16(span.targetRange.upperBound - span.range.lowerBound, &shown)
            scratch.bytes.withUnsafeBufferPointer { bytes in
                NoteIndexFile.append(
                    utf8: UnsafeBufferPointer(rebasing: bytes[part.heading ?? 0..<0]), to: &shown)
            }
            written += 1
        }
        ShownRefs.append(scratch.anchors, of: body, to: &shown)
        NoteIndexFile.append(importedFrom, to: &shown)
        encoded.shown = shown
    }

    /// The flags of `span`, as `flags(of:)` has them for its link.
    static func flags(of span: LinkSpan) -> UInt8 {
        flags(span.style, span.kind, isEmbed: span.isEmbed, hasHeading: span.heading != nil)
    }
}

extension NoteRefs {
    /// Appends folded aliases after a note's folded tags: a u16 count, then each with a u16
    /// length (empty ones and ones too long for it left out).
    static func appendAliases(_ aliases: [[UInt8]], to out: inout [UInt8]) {
        func fits(_ alias: [UInt8]) -> Bool { !alias.isEmpty && alias.count <= Int(UInt16.max) }
        let count = min(aliases.reduce(0) { $0 + (fits($1) ? 1 : 0) }, Int(UInt16.max))
        NoteIndexFile.append(UInt16(count), to: &out)
        var written = 0
        for alias in aliases where written < count && fits(alias) {
            NoteIndexFile.append(UInt16(alias.count), to: &out)
            out.append(contentsOf: alias)
            written += 1
        }
    }
}

/// A note's folded title, folded tags and folded aliases, read in place with bounds checks
/// (damage reads as none):
///
///     u16 tag count, u16 length + the folded title, per tag: u8 length + the folded tag,
///     u16 alias count, per alias: u16 length + the folded alias
struct TagsChunk {
    let bytes: UnsafeRawBufferPointer

    /// The folded title, or nil when the chunk is empty or damaged.
    var foldedTitle: UnsafeRawBufferPointer? {
        var reader = ByteReader(bytes: bytes)
        guard reader.u16() != nil else { return nil }
        return reader.bytes16()
    }

    /// Calls `body` with each folded tag, in order; stops when it returns false.
    func forEachFoldedTag(_ body: (UnsafeRawBufferPointer) -> Bool) {
        var reader = ByteReader(bytes: bytes)
        guard var count = reader.u16(), reader.bytes16() != nil else { return }
        while count > 0, let length = reader.byte(), let tag = reader.take(Int(length)) {
            guard body(tag) else { return }
            count -= 1
        }
    }

    /// Calls `body` with each folded alias, in order; stops when it returns false.
    func forEachFoldedAlias(_ body: (UnsafeRawBufferPointer) -> Bool) {
        var reader = ByteReader(bytes: bytes)
        guard let tags = reader.u16(), reader.bytes16() != nil else { return }
        for _ in 0..<tags {
            guard let length = reader.byte(), reader.take(Int(length)) != nil else { return }
        }
        guard let count = reader.u16() else { return }
        for _ in 0..<count {
            guard let alias = reader.bytes16(), body(alias) else { return }
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
}

/// A note's links' keys, read in place with bounds checks (damage reads as no more links):
///
///     u16 link count, per link: u8 flags (`NoteRefs`, but the embed's), u16 length + key,
///         u16 length + alternative, with a heading: u16 length + the heading as written
struct LinkKeysChunk {
    let bytes: UnsafeRawBufferPointer

    /// One link's keys, in place, and its number among the note's links.
    struct Link {
        var number: Int
        var flags: UInt8
        var key: UnsafeRawBufferPointer
        var alternative: UnsafeRawBufferPointer
        /// The `#…` as written (`Heading`, `A#B`, `^block-id`), if the link has one.
        var heading: UnsafeRawBufferPointer?

        var isMarkdown: Bool { flags & NoteRefs.markdown != 0 }
        /// Whether it is a link to a note (not an attachment, nor into its own note).
        var isToNote: Bool { flags & (NoteRefs.attachment | NoteRefs.sameNote) == 0 }
        /// Whether it may go to a note: a link to a note, or a Markdown link without an extension
        /// (`LinkResolver.note(ofBare:from:)`).
        var mayBeToNote: Bool {
            isToNote || (flags & NoteRefs.attachment != 0 && isMarkdown && LinkResolver.bareName(key) != nil)
        }
        var kind: NoteLink.Kind {
            flags & NoteRefs.attachment != 0
                ? .attachment : flags & NoteRefs.sameNote != 0 ? .sameNote : .note
        }
    }

    /// Calls `body` with each link, in order; stops when it returns false.
    func forEachLink(_ body: (Link) -> Bool) {
        var links = self.links
        while let link = links.next() {
            guard body(link) else { return }
        }
    }

    /// The links, in order: for a loop over every note's links, which a closure per note would
    /// slow down.
    var links: Links { Links(reader: ByteReader(bytes: bytes)) }

    /// The links of a chunk, one at a time; none after a damaged one.
    struct Links: IteratorProtocol {
        var reader: ByteReader
        var number = 0
        var count: Int?

        init(reader: ByteReader) {
            self.reader = reader
            count = self.reader.u16().map(Int.init)
        }

        mutating func next() -> Link? {
            guard let count, number < count else { return nil }
            guard let flags = reader.byte(), let key = reader.bytes16(), let alternative = reader.bytes16()
            else {
                self.count = nil
                return nil
            }
            var heading: UnsafeRawBufferPointer?
            if flags & NoteRefs.hasHeading != 0 {
                guard let read = reader.bytes16() else {
                    self.count = nil
                    return nil
                }
                heading = read
            }
            number += 1
            return Link(
                number: number - 1, flags: flags, key: key, alternative: alternative, heading: heading)
        }
    }
}

/// What the index shows of a note's tags and links, and its headings and block ids, after its
/// title, preview and warnings in its strings (read with bounds checks; damage reads as none):
///
///     u32 tag count, per tag: u32 length + the tag as spelled
///     u32 link count, per link: u32 line, u8 flags (`NoteRefs`),
///         u32 length + the link as written, u16 start and end of the target in it, u32 length + heading
///     u32 heading count, per heading: u8 level, u32 line, u32 length + the heading as written
///     u32 block count, per block id: u32 line, u32 length + the id
enum ShownRefs {
    /// No tags, no links, no headings, no block ids, no `importedFrom`.
    static let none = [UInt8](repeating: 0, count: 20)

    /// The bytes `append(_:of:to:)` writes for `anchors` (at most: counted with those left out).
    static func size(of anchors: NoteAnchors.Spans) -> Int {
        8 + anchors.headings.reduce(0) { $0 + 9 + $1.text.count }
            + anchors.blocks.reduce(0) { $0 + 8 + $1.id.count }
    }

    /// Appends the headings and block ids, spans of `body`.
    static func append(
        _ anchors: NoteAnchors.Spans, of body: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]
    ) {
        // Those too long for the layout are left out, counted first: no filtered copies.
        let limit = Int(UInt16.max)
        func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: body[range])
        }
        NoteIndexFile.append(
            UInt32(anchors.headings.reduce(0) { $0 + ($1.text.count <= limit ? 1 : 0) }), to: &out)
        for heading in anchors.headings where heading.text.count <= limit {
            out.append(UInt8(clamping: heading.level))
            NoteIndexFile.append(UInt32(clamping: heading.line), to: &out)
            NoteIndexFile.append(utf8: bytes(heading.text), to: &out)
        }
        NoteIndexFile.append(
            UInt32(anchors.blocks.reduce(0) { $0 + ($1.id.count <= limit ? 1 : 0) }), to: &out)
        for block in anchors.blocks where block.id.count <= limit {
            NoteIndexFile.append(UInt32(clamping: block.line), to: &out)
            NoteIndexFile.append(utf8: bytes(block.id), to: &out)
        }
    }

    /// The headings and block ids, from a reader past the links; nil when they do not parse.
    static func anchors(_ reader: inout ByteReader) -> NoteAnchors? {
        var anchors = NoteAnchors()
        guard let headings = reader.u32(), UInt64(headings) * 9 <= UInt64(reader.bytes.count - reader.offset)
        else { return nil }
        for _ in 0..<headings {
            guard let level = reader.byte(), let line = reader.u32(), let text = reader.repairedString()
            else {
                return nil
            }
            anchors.headings.append(NoteHeading(level: Int(level), text: text, line: Int(line)))
        }
        guard let blocks = reader.u32(), UInt64(blocks) * 8 <= UInt64(reader.bytes.count - reader.offset)
        else { return nil }
        for _ in 0..<blocks {
            guard let line = reader.u32(), let id = reader.repairedString() else { return nil }
            anchors.blocks.append(NoteBlock(id: id, line: Int(line)))
        }
        return anchors
    }

    /// The `importedFrom` of the note (empty for none), from a reader past the block ids.
    static func importedFrom(_ reader: inout ByteReader) -> String? { reader.repairedString() }

    /// Reads past the shown tags, links, headings, block ids and `importedFrom`; false when they
    /// do not parse.
    static func skip(_ reader: inout ByteReader) -> Bool {
        guard skipLinks(&reader) else { return false }
        guard let headings = reader.u32(), UInt64(headings) * 9 <= UInt64(reader.bytes.count - reader.offset)
        else { return false }
        for _ in 0..<headings {
            guard reader.byte() != nil, reader.u32() != nil, reader.range() != nil else { return false }
        }
        guard let blocks = reader.u32(), UInt64(blocks) * 8 <= UInt64(reader.bytes.count - reader.offset)
        else { return false }
        for _ in 0..<blocks {
            guard reader.u32() != nil, reader.range() != nil else { return false }
        }
        return reader.range() != nil
    }

    /// Reads past the shown tags and links; false when they do not parse.
    static func skipLinks(_ reader: inout ByteReader) -> Bool {
        guard let tags = reader.u32(), UInt64(tags) * 4 <= UInt64(reader.bytes.count - reader.offset) else {
            return false
        }
        for _ in 0..<tags {
            guard reader.range() != nil else { return false }
        }
        guard let links = reader.u32(), UInt64(links) * 17 <= UInt64(reader.bytes.count - reader.offset)
        else { return false }
        for _ in 0..<links {
            guard reader.u32() != nil, reader.byte() != nil, reader.range() != nil, reader.u16() != nil,
                reader.u16() != nil, reader.range() != nil
            else { return false }
        }
        return true
    }

    /// The tags as spelled; nil when they do not parse.
    static func tags(_ reader: inout ByteReader) -> [String]? {
        guard let count = reader.u32(), UInt64(count) * 4 <= UInt64(reader.bytes.count - reader.offset) else {
            return nil
        }
        var tags: [String] = []
        for _ in 0..<count {
            guard let tag = reader.repairedString() else { return nil }
            tags.append(tag)
        }
        return tags
    }

    /// The links as written, paired with their keys from `keys`, in order.
    static func links(_ reader: inout ByteReader, keys: LinkKeysChunk) -> [IndexedLink] {
        guard tags(&reader) != nil else { return [] }
        var allKeys: [LinkKeys] = []
        keys.forEachLink { link in
            allKeys.append(LinkKeys(key: Array(link.key), alternative: Array(link.alternative)))
            return true
        }
        guard let count = reader.u32() else { return [] }
        var links: [IndexedLink] = []
        for number in 0..<min(Int(count), allKeys.count) {
            guard let line = reader.u32(), let flags = reader.byte(), let text = reader.range(),
                let start = reader.u16(),
                let end = reader.u16(), let heading = reader.range()
            else { break }
            let textBytes = UnsafeRawBufferPointer(rebasing: reader.bytes[text])
            let target = start <= end && Int(end) <= textBytes.count ? Int(start)..<Int(end) : 0..<0
            links.append(
                IndexedLink(
                    style: flags & NoteRefs.markdown != 0 ? .markdown : .wiki,
                    kind: flags & NoteRefs.attachment != 0
                        ? .attachment : flags & NoteRefs.sameNote != 0 ? .sameNote : .note,
                    isEmbed: flags & NoteRefs.embed != 0,
                    line: Int(line), text: String(decoding: textBytes, as: UTF8.self),
                    target: String(
                        decoding: UnsafeRawBufferPointer(rebasing: textBytes[target]), as: UTF8.self),
                    heading: flags & NoteRefs.hasHeading != 0
                        ? String(
                            decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[heading]), as: UTF8.self)
                        : nil,
                    targetRange: target, keys: allKeys[number]))
        }
        return links
    }
}

extension ByteReader {
    /// A u16-length-prefixed run of bytes.
    mutating func bytes16() -> UnsafeRawBufferPointer? {
        guard let length = u16() else { return nil }
        return take(Int(length))
    }
}
