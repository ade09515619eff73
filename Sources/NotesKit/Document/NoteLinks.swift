import Foundation

/// A link from a note to another, as written in its body: `[[Target]]`,
/// `[[Target|shown text]]`, `[[Target#Heading]]` (and `![[Target]]`, a note shown inside another),
/// or a Markdown link `[text](relative/path.md#heading)`.
public struct NoteLink: Equatable, Sendable {
    /// How a link is written.
    public enum Style: UInt8, Sendable {
        /// `[[Target]]`, with an optional `#Heading` and `|shown text`.
        case wiki = 0
        /// `[text](path.md)`: a relative path to the note file.
        case markdown = 1
    }

    /// What a link points at.
    public enum Kind: UInt8, Sendable {
        /// Another note (or this one, by name).
        case note = 0
        /// A heading or block of the note it is in: `[[#Heading]]`, `[[#^block-id]]`.
        case sameNote = 1
        /// A file of the vault that is not a note: `![[photo.png]]`, `![](img/a.png)`,
        /// `[pdf](docs/x.pdf)` (an attachment link).
        case attachment = 2
    }

    /// How it is written.
    public var style: Style
    /// What it points at.
    public var kind: Kind = .note
    /// `![[…]]`: the note is shown inside this one (Obsidian's embed).
    public var isEmbed: Bool
    /// The 1-based line of the file it is on.
    public var line: Int
    /// The link as written, from `[` (or `!`) to the closing bracket.
    public var text: String
    /// The target as written: a wiki link's name or path, a Markdown link's destination path (as
    /// written, percent-encoding and all), without the heading.
    public var target: String
    /// The heading after `#`, if any (percent-decoded in a Markdown link).
    public var heading: String?
    /// Where `text` is, in bytes of the body.
    public var range: Range<Int>
    /// Where `target` is, in bytes of the body: what a move rewrites.
    public var targetRange: Range<Int>

    /// The target of a Markdown link with percent-escapes decoded (`My%20Note.md` → `My Note.md`).
    public var decodedTarget: String { style == .markdown ? NoteLinks.percentDecoded(target) : target }
}

extension NoteLink {
    /// The link `span` marks in `bytes`, its strings made.
    init(_ span: LinkSpan, in bytes: UnsafeBufferPointer<UInt8>) {
        let heading = span.heading.map { NoteLinks.string(bytes, $0) }
        self.init(
            style: span.style, kind: span.kind, isEmbed: span.isEmbed, line: span.line,
            text: NoteLinks.string(bytes, span.range), target: NoteLinks.string(bytes, span.targetRange),
            heading: span.style == .markdown ? heading.map(NoteLinks.percentDecoded) : heading,
            range: span.range, targetRange: span.targetRange)
    }
}

/// A link of a body as places in its bytes, no string made: what `NoteLink` makes its strings of,
/// and what the index reads a note's links as.
struct LinkSpan {
    var style: NoteLink.Style
    var kind: NoteLink.Kind
    var isEmbed: Bool
    /// The 1-based line of the file it is on.
    var line: Int
    /// `NoteLink.text`'s bytes.
    var range: Range<Int>
    /// `NoteLink.target`'s bytes.
    var targetRange: Range<Int>
    /// The heading's bytes, if the link has one: as `NoteLink.heading` has it in a wiki link,
    /// percent-encoded in a Markdown link (where `NoteLink.heading` is decoded).
    var heading: Range<Int>?
}

/// Finds the links of a note's body. Links in inline code and fenced code blocks do not
/// count (code inside a wiki link's brackets, `[[Note#`code`]]`, is part of it), nor escaped
/// brackets (`\[[x]]`); images (`![alt](x.png)`), URLs (`[x](https://…)`,
/// `mailto:` and any other scheme), anchors (`[x](#part)`) and attachments (`[[photo.png]]`,
/// `[[paper.pdf]]`) are not links to notes; `[[#Heading]]` points into the same note and is not
/// a link to another. A link is on one line.
public enum NoteLinks {
    /// The links of `body`; `firstLine` is the file's line number of the body's first line.
    public static func of(body: String, firstLine: Int = 1) -> [NoteLink] {
        var body = body
        return body.withUTF8 { bytes -> [NoteLink] in scan(bytes, firstLine: firstLine, everything: false) }
    }

    /// The links of a parsed note file, with file line numbers.
    public static func of(_ document: NoteDocument) -> [NoteLink] {
        of(body: document.body, firstLine: firstBodyLine(document))
    }

    /// Every link of `body` in file order: to notes, into the note itself (`[[#Heading]]`) and to
    /// attachments (`kind` tells them apart); what the index keeps and link health checks.
    public static func all(body: String, firstLine: Int = 1) -> [NoteLink] {
        var body = body
        return body.withUTF8 { bytes -> [NoteLink] in scan(bytes, firstLine: firstLine, everything: true) }
    }

    /// Every link of a parsed note file (see `all(body:firstLine:)`), with file line numbers.
    public static func all(_ document: NoteDocument) -> [NoteLink] {
        all(body: document.body, firstLine: firstBodyLine(document))
    }

    /// The file line number of the first line of `document`'s body: after the front matter's
    /// opening line, its lines and its closing line.
    public static func firstBodyLine(_ document: NoteDocument) -> Int {
        document.frontMatter.map { $0.lines.count + 3 } ?? 1
    }

    /// The links of `bytes`: to notes only, or (`everything`) of every kind.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, everything: Bool)
        -> [NoteLink]
    {
        var code = CodeCursor(bytes)
        return scan(bytes, firstLine: firstLine, everything: everything, code: &code)
    }

    /// `scan(_:firstLine:everything:)` with the code of `bytes` found through `code` (a cursor over
    /// the same bytes, at their start), so another scan of them can use the ranges it found.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, everything: Bool, code: inout CodeCursor
    ) -> [NoteLink] {
        var spans: [LinkSpan] = []
        scan(bytes, firstLine: firstLine, everything: everything, code: &code, into: &spans)
        return spans.map { NoteLink($0, in: bytes) }
    }

    /// `scan(_:firstLine:everything:code:)`, the links appended to `links` as spans.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, everything: Bool, code: inout CodeCursor,
        into links: inout [LinkSpan]
    ) {
        guard let base = bytes.baseAddress else { return }
        var line = firstLine
        var counted = 0
        func lineNumber(at position: Int) -> Int {
            // From one line feed to the next, not byte by byte.
            while counted < position, let hit = memchr(base + counted, 0x0A, position - counted) {
                line += 1
                counted = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            }
            counted = max(counted, position)
            return line
        }
        var i = 0
        // From one `[` to the next; only what parses as a link is checked for code.
        while i < bytes.count, let hit = memchr(base + i, Int32(UInt8(ascii: "[")), bytes.count - i) {
            i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if MarkdownCode.isEscaped(bytes, i, from: 0) {
                i += 1
                continue
            }
            if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                if var link = wikiLink(bytes, at: i), everything || link.kind == .note {
                    if let end = code.codeEnd(at: i) {
                        i = end
                        continue
                    }
                    if !code.crosses(link.range) {
                        link.line = lineNumber(at: link.range.lowerBound)
                        links.append(link)
                        i = link.range.upperBound
                        continue
                    }
                }
                i += 2
                continue
            }
            guard let parsed = markdownLink(bytes, at: i) else {
                i += 1
                continue
            }
            if let end = code.codeEnd(at: i) {
                i = end
                continue
            }
            let image =
                i > 0 && bytes[i - 1] == UInt8(ascii: "!") && !MarkdownCode.isEscaped(bytes, i - 1, from: 0)
            if image || code.overlaps(parsed.destination) {
                // An image is no link to a note (it may be one to an attachment), and nothing in
                // it is a link either.
                if image, everything, !code.overlaps(parsed.destination),
                    var link = attachmentLink(bytes, opening: i - 1, parsed)
                {
                    link.line = lineNumber(at: i)
                    links.append(link)
                }
                i = image ? parsed.end : i + 1
                continue
            }
            if everything, var link = attachmentLink(bytes, opening: i, parsed) {
                // Its text may still hold an image: `[![badge](b.svg)](docs/x.pdf)`.
                link.line = lineNumber(at: i)
                links.append(link)
                i += 1
                continue
            }
            if var link = noteLink(bytes, opening: i, parsed) {
                link.line = lineNumber(at: i)
                links.append(link)
                i = parsed.end
            } else {
                // A link to a URL or to something else: its text may still hold a link.
                i += 1
            }
        }
    }

    // MARK: Wiki links

    /// The wiki link whose `[[` is at `i`, if it is one: `]]` closes it on the same line. Its kind
    /// says whether it goes to a note, an attachment (`[[photo.png]]`) or into this note
    /// (`[[#Heading]]`).
    static func wikiLink(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> LinkSpan? {
        let innerStart = i + 2
        var j = innerStart
        var close: Int?
        while j + 1 < bytes.count, bytes[j] != 0x0A {
            if bytes[j] == UInt8(ascii: "]") && bytes[j + 1] == UInt8(ascii: "]") {
                close = j
                break
            }
            // A second `[[` starts the link again: `[[a [[b]]` links to b.
            if bytes[j] == UInt8(ascii: "[") && bytes[j + 1] == UInt8(ascii: "[") { return nil }
            j += 1
        }
        guard let close else { return nil }
        // The shown text starts at the first `|` (written `\|` inside a table).
        var targetEnd = close
        if let bar = (innerStart..<close).first(where: { bytes[$0] == UInt8(ascii: "|") }) {
            targetEnd = bar > innerStart && bytes[bar - 1] == UInt8(ascii: "\\") ? bar - 1 : bar
        }
        var headingRange: Range<Int>?
        if let hash = (innerStart..<targetEnd).first(where: { bytes[$0] == UInt8(ascii: "#") }) {
            headingRange = (hash + 1)..<targetEnd
            targetEnd = hash
        }
        let target = trimmed(bytes, innerStart..<targetEnd)
        let heading = headingRange.map { trimmed(bytes, $0) }
        guard !target.isEmpty || heading?.isEmpty == false else { return nil }
        let kind: NoteLink.Kind =
            target.isEmpty
            ? .sameNote : isAttachment(UnsafeBufferPointer(rebasing: bytes[target])) ? .attachment : .note
        let embed =
            i > 0 && bytes[i - 1] == UInt8(ascii: "!") && !MarkdownCode.isEscaped(bytes, i - 1, from: 0)
        let range = (embed ? i - 1 : i)..<(close + 2)
        return LinkSpan(
            style: .wiki, kind: kind, isEmbed: embed, line: 0, range: range, targetRange: target,
            heading: heading?.isEmpty == false ? heading : nil)
    }

    /// File extensions of attachments (Obsidian's images, audio, video, PDF, canvas): a wiki link
    /// to one is not a link to a note.
    static let attachmentExtensions: Set<String> = [
        "avif", "bmp", "gif", "jpeg", "jpg", "png", "svg", "webp", "flac", "m4a", "mp3", "ogg", "wav", "webm",
        "3gp", "mkv", "mov", "mp4", "ogv", "pdf", "canvas", "base",
    ]

    /// Whether a wiki link's target (its UTF-8 bytes) names an attachment rather than a note.
    static func isAttachment(_ target: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most targets have no dot: compared as bytes before any string is made.
        guard let dot = target.lastIndex(of: UInt8(ascii: ".")), !target[dot...].contains(UInt8(ascii: "/"))
        else { return false }
        return attachmentExtensions.contains(
            String(decoding: UnsafeBufferPointer(rebasing: target[(dot + 1)...]), as: UTF8.self).lowercased())
    }

    // MARK: Markdown links

    /// The parts of `[text](destination "title")`: where the destination is (without `<>`), and
    /// where the whole ends.
    struct MarkdownParts {
        var destination: Range<Int>
        var angled: Bool
        var end: Int
    }

    /// How many bytes the backslash at `i` and what it escapes take: two, or one when it ends the
    /// line (or the text), so that no link runs on past a line feed.
    private static func escapedLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        i + 1 < bytes.count && bytes[i + 1] != 0x0A ? 2 : 1
    }

    /// The Markdown link (or image, without its `!`) whose `[` is at `i`, all on one line.
    static func markdownLink(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> MarkdownParts? {
        // The text: brackets nest, escaped ones do not count.
        var depth = 0
        var j = i
        var closeText: Int?
        while j < bytes.count, bytes[j] != 0x0A {
            let byte = bytes[j]
            if byte == UInt8(ascii: "\\") {
                // An escape never takes the line feed with it: a link is on one line.
                j += escapedLength(bytes, at: j)
                continue
            }
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 {
                    closeText = j
                    break
                }
            }
            j += 1
        }
        guard let closeText, closeText + 1 < bytes.count, bytes[closeText + 1] == UInt8(ascii: "(") else {
            return nil
        }
        var k = closeText + 2
        func skipBlanks() { while k < bytes.count && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 } }
        skipBlanks()
        let destination: Range<Int>
        var angled = false
        if k < bytes.count, bytes[k] == UInt8(ascii: "<") {
            let start = k + 1
            k = start
            while k < bytes.count, bytes[k] != UInt8(ascii: ">") {
                if bytes[k] == 0x0A || bytes[k] == UInt8(ascii: "<") { return nil }
                k += bytes[k] == UInt8(ascii: "\\") ? escapedLength(bytes, at: k) : 1
            }
            guard k < bytes.count else { return nil }
            destination = start..<k
            angled = true
            k += 1
        } else {
            let start = k
            var parentheses = 0
            while k < bytes.count {
                let byte = bytes[k]
                if byte <= 0x20 { break }
                if byte == UInt8(ascii: "\\") {
                    k += escapedLength(bytes, at: k)
                    continue
                }
                if byte == UInt8(ascii: "(") { parentheses += 1 }
                if byte == UInt8(ascii: ")") {
                    if parentheses == 0 { break }
                    parentheses -= 1
                }
                k += 1
            }
            guard k <= bytes.count else { return nil }
            destination = start..<k
        }
        skipBlanks()
        // An optional title: "…", '…' or (…).
        // (A switch, not a dictionary literal: that was made, hashed and freed on every call.)
        func closing(_ opening: UInt8) -> UInt8? {
            switch opening {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): return opening
            case UInt8(ascii: "("): return UInt8(ascii: ")")
            default: return nil
            }
        }
        if k < bytes.count, let closing = closing(bytes[k]), k > destination.upperBound {
            k += 1
            while k < bytes.count, bytes[k] != closing {
                if bytes[k] == 0x0A { return nil }
                k += bytes[k] == UInt8(ascii: "\\") ? escapedLength(bytes, at: k) : 1
            }
            guard k < bytes.count else { return nil }
            k += 1
            skipBlanks()
        }
        guard k < bytes.count, bytes[k] == UInt8(ascii: ")") else { return nil }
        return MarkdownParts(destination: destination, angled: angled, end: k + 1)
    }

    /// The link a Markdown link is when its destination is a relative path to a note file.
    private static func noteLink(
        _ bytes: UnsafeBufferPointer<UInt8>, opening i: Int, _ parts: MarkdownParts
    ) -> LinkSpan? {
        let destination = parts.destination
        guard !destination.isEmpty else { return nil }
        var pathEnd = destination.upperBound
        if let hash = destination.first(where: { bytes[$0] == UInt8(ascii: "#") }) { pathEnd = hash }
        if let question = (destination.lowerBound..<pathEnd).first(where: { bytes[$0] == UInt8(ascii: "?") })
        {
            pathEnd = question
        }
        let pathRange = destination.lowerBound..<pathEnd
        // Most destinations are URLs or other files: told apart by their bytes first. A leading
        // `/` is the vault's top (`[p](/Plan.md)`); `//host/…` is a URL without its scheme.
        guard !pathRange.isEmpty else { return nil }
        if bytes[pathRange.lowerBound] == UInt8(ascii: "/"),
            pathRange.count < 2 || bytes[pathRange.lowerBound + 1] == UInt8(ascii: "/")
        {
            return nil
        }
        let last = bytes[pathRange.upperBound - 1]
        guard
            last == UInt8(ascii: "d") || last == UInt8(ascii: "n")
                || bytes[pathRange].contains(UInt8(ascii: "%"))
        else { return nil }
        let path = string(bytes, pathRange)
        guard !hasScheme(path) else { return nil }
        let decoded = percentDecoded(path)
        guard decoded.hasSuffix(".md") || decoded.hasSuffix(".markdown") else { return nil }
        let range = i..<parts.end
        return LinkSpan(
            style: .markdown, kind: .note, isEmbed: false, line: 0, range: range, targetRange: pathRange,
            heading: fragment(bytes, after: pathEnd, in: destination))
    }

    /// Where the fragment after the `#` at `pathEnd` of a Markdown link's `destination` is, unless
    /// there is none or it is empty.
    static func fragment(_ bytes: UnsafeBufferPointer<UInt8>, after pathEnd: Int, in destination: Range<Int>)
        -> Range<Int>?
    {
        guard pathEnd + 1 < destination.upperBound, bytes[pathEnd] == UInt8(ascii: "#") else { return nil }
        return (pathEnd + 1)..<destination.upperBound
    }

    /// Whether a destination starts with a URL scheme (`https:`, `mailto:`, `obsidian:`…).
    static func hasScheme(_ destination: String) -> Bool {
        var bytes = destination
        if let byBytes = bytes.withUTF8(hasSchemeByBytes) { return byBytes }
        return hasSchemeByCharacters(destination)
    }

    /// `hasScheme` by bytes, nil where only Characters can tell. A scheme is ASCII, so a byte
    /// outside ASCII before the first colon means none (the first `:` Character is at that colon
    /// or after it, and the scheme would hold that byte), and a colon after ASCII and before
    /// ASCII (or nothing) is a `:` Character of its own. Nil when a byte outside ASCII follows
    /// the colon (a mark may join it).
    static func hasSchemeByBytes(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard let colon = b.firstIndex(of: UInt8(ascii: ":")) else { return false }
        func letter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
        guard colon + 1 >= b.count || b[colon + 1] < 0x80 else { return nil }
        guard colon > 0, letter(b[0]) else { return false }
        return b[..<colon].allSatisfy { c in
            letter(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "+")
                || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        }
    }

    /// `hasScheme`, Character by Character.
    static func hasSchemeByCharacters(_ destination: String) -> Bool {
        guard let colon = destination.firstIndex(of: ":") else { return false }
        let scheme = destination[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "+-.".unicodeScalars.contains(scalar))
        }
    }

    /// `text` with `%XX` escapes decoded; as it is when the result would not be UTF-8.
    public static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = hexValue(bytes[i + 1]),
                let low = hexValue(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self) ?? text
    }

    /// Appends `written` (UTF-8) to `out` as `percentDecoded` decodes it; without a `%`, as it is.
    static func appendPercentDecoded(_ written: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard written.contains(UInt8(ascii: "%")) else { return out.append(contentsOf: written) }
        var decoded = percentDecoded(String(decoding: written, as: UTF8.self))
        decoded.withUTF8 { out.append(contentsOf: $0) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    // MARK: Bytes

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high && (bytes[low] == 0x20 || bytes[low] == 0x09) { low += 1 }
        while high > low && (bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09) { high -= 1 }
        return low..<high
    }

    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
