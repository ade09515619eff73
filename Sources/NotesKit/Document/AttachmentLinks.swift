import Foundation

/// Attachment links: embeds and links to files of the vault that are not notes — `![[photo.png]]`,
/// `[[paper.pdf]]`, `![](img/a.png)`, `[pdf](docs/x.pdf)` — read past code as note links are.
/// URLs, anchors and links to note files are not attachments.
extension NoteLinks {
    /// The targets of the attachment links of `body`, in order, as paths: a wiki link's target,
    /// a Markdown destination percent-decoded, both without `#fragment` or `?query`.
    public static func attachments(body: String) -> [String] {
        var body = body
        return body.withUTF8 { bytes -> [String] in
            var code = CodeCursor(bytes)
            var targets: [String] = []
            var i = 0
            while i < bytes.count {
                guard bytes[i] == UInt8(ascii: "["), !MarkdownCode.isEscaped(bytes, i, from: 0) else {
                    i += 1
                    continue
                }
                if let end = code.codeEnd(at: i) {
                    i = end
                    continue
                }
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "["),
                    let link = wikiLink(bytes, at: i, attachments: true)
                {
                    if !code.crosses(link.range) { targets.append(link.target) }
                    i = link.range.upperBound
                    continue
                }
                if let parts = markdownLink(bytes, at: i), !code.overlaps(parts.destination),
                    let path = attachmentPath(bytes, parts.destination)
                {
                    targets.append(path)
                }
                // A link's text may hold an image (`[![badge](b.svg)](docs/x.pdf)`).
                i += 1
            }
            return targets
        }
    }

    /// A Markdown destination as an attachment's path: relative (or from the vault's top, with a
    /// leading `/`), no scheme, not a note file; nil otherwise.
    private static func attachmentPath(_ bytes: UnsafeBufferPointer<UInt8>, _ destination: Range<Int>)
        -> String?
    {
        let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[destination]), as: UTF8.self)
        let path = String(raw.prefix { $0 != "#" && $0 != "?" })
        guard !path.isEmpty, !hasScheme(path) else { return nil }
        let decoded = percentDecoded(path)
        guard !decoded.hasSuffix(".md"), !decoded.hasSuffix(".markdown") else { return nil }
        return decoded
    }
}
