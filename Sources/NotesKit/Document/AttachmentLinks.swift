import Foundation

/// Attachment links: embeds and links to files of the vault that are not notes — `![[photo.png]]`,
/// `[[paper.pdf]]`, `![](img/a.png)`, `[pdf](docs/x.pdf)` — read past code as note links are.
/// URLs (`https:`, `//host/…`, any scheme), anchors and links to note files are not attachments.
extension NoteLinks {
    /// The targets of the attachment links of `body`, in order, as paths: a wiki link's target,
    /// a Markdown destination percent-decoded, both without `#fragment` or `?query`.
    public static func attachments(body: String) -> [String] {
        all(body: body).filter { $0.kind == .attachment }.map(\.decodedTarget)
    }

    /// The attachment link a Markdown link or image (whose `[`, or `!`, is at `opening`) is when
    /// its destination is a path to a file that is not a note: relative, or from the vault's top
    /// with a leading `/`; no scheme. Its target is the path as written, without `#fragment` or
    /// `?query`; the fragment is its heading.
    static func attachmentLink(_ bytes: UnsafeBufferPointer<UInt8>, opening: Int, _ parts: MarkdownParts)
        -> LinkSpan?
    {
        let destination = parts.destination
        guard !destination.isEmpty else { return nil }
        var pathEnd = destination.upperBound
        if let cut = destination.first(where: {
            bytes[$0] == UInt8(ascii: "#") || bytes[$0] == UInt8(ascii: "?")
        }) {
            pathEnd = cut
        }
        let pathRange = destination.lowerBound..<pathEnd
        guard !pathRange.isEmpty else { return nil }
        // `//host/a.png` is a URL without its scheme.
        if pathRange.count > 1, bytes[pathRange.lowerBound] == UInt8(ascii: "/"),
            bytes[pathRange.lowerBound + 1] == UInt8(ascii: "/")
        {
            return nil
        }
        // Told apart by their bytes before any string is made: a URL starts with a scheme (an ASCII
        // letter, then letters, digits, `+`, `-` or `.`, then `:`, as `hasScheme` reads it; so
        // `Meeting 10:30.png` is a file), and a note file ends with `.md` or `.markdown` (unless it
        // is percent-encoded).
        let slice = bytes[pathRange]
        if let first = slice.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z"),
            let end = slice.firstIndex(where: { byte in
                let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                return
                    !(letter || digit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "."))
            }),
            slice[end] == UInt8(ascii: ":")
        {
            return nil
        }
        if !slice.contains(UInt8(ascii: "%")),
            slice.suffix(3).elementsEqual(".md".utf8) || slice.suffix(9).elementsEqual(".markdown".utf8)
        {
            return nil
        }
        let path = String(decoding: UnsafeBufferPointer(rebasing: slice), as: UTF8.self)
        let decoded = percentDecoded(path)
        guard !decoded.hasSuffix(".md"), !decoded.hasSuffix(".markdown") else { return nil }
        return LinkSpan(
            style: .markdown, kind: .attachment, isEmbed: bytes[opening] == UInt8(ascii: "!"), line: 0,
            range: opening..<parts.end, targetRange: pathRange,
            heading: fragment(bytes, after: pathEnd, in: destination))
    }
}
