import Foundation

extension NoteRefs {
    /// A note's links as spans of its body, and their keys and headings (as `LinkKeys.make` and
    /// `NoteLink.heading` make them) in one buffer: memory a reader uses again for every note.
    struct LinkScratch {
        var spans: [LinkSpan] = []
        /// Every link's key, alternative and heading, one after the other.
        var bytes: [UInt8] = []
        /// Where each link's are in `bytes`.
        var parts: [(key: Range<Int>, alternative: Range<Int>, heading: Range<Int>?)] = []

        /// Fills `bytes` and `parts` for `spans`, links of `body` in the note at vault path `source`.
        mutating func keys(
            in body: UnsafeBufferPointer<UInt8>, from source: String, folding: inout TextFolder
        ) {
            bytes.removeAll(keepingCapacity: true)
            parts.removeAll(keepingCapacity: true)
            func append(_ string: String) {
                var string = string
                string.withUTF8 { bytes.append(contentsOf: $0) }
            }
            /// Appends `range` of the body, percent-decoded as `NoteLinks.percentDecoded` does.
            func appendDecoded(_ range: Range<Int>) {
                let written = UnsafeBufferPointer(rebasing: body[range])
                if written.contains(UInt8(ascii: "%")) {
                    append(NoteLinks.percentDecoded(NoteLinks.string(body, range)))
                } else {
                    bytes.append(contentsOf: written)
                }
            }
            for span in spans {
                let start = bytes.count
                var key = start..<start
                var alternative = start..<start
                switch span.kind {
                case .sameNote: break
                case .attachment:
                    // The target as a path (`NoteLink.decodedTarget`).
                    if span.style == .markdown {
                        appendDecoded(span.targetRange)
                    } else {
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: body[span.targetRange]))
                    }
                    key = start..<bytes.count
                    alternative = bytes.count..<bytes.count
                case .note where span.style == .wiki:
                    let target = UnsafeBufferPointer(rebasing: body[span.targetRange])
                    bytes.append(contentsOf: target)
                    let end = bytes.count
                    key =
                        start..<(end - start > 3 && target.suffix(3).elementsEqual(".md".utf8)
                        ? end - 3 : end)
                    folding.appendFolded(utf8: target, to: &bytes)
                    alternative = end..<bytes.count
                case .note:
                    let keys = LinkKeys.make(
                        style: .markdown, target: NoteLinks.string(body, span.targetRange), from: source,
                        folding: &folding)
                    bytes.append(contentsOf: keys.key)
                    key = start..<bytes.count
                    bytes.append(contentsOf: keys.alternative)
                    alternative = key.upperBound..<bytes.count
                }
                var heading: Range<Int>?
                if let written = span.heading {
                    let headingStart = bytes.count
                    if span.style == .markdown {
                        appendDecoded(written)
                    } else {
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: body[written]))
                    }
                    heading = headingStart..<bytes.count
                }
                parts.append((key, alternative, heading))
            }
        }
    }
}
