import Foundation

extension NoteRefs {
    /// A note's links as spans of its body, and their keys and headings (as `LinkKeys.make` and
    /// `NoteLink.heading` make them) in one buffer; its headings and block ids as spans of its
    /// body; its folded title: memory a reader uses again for every note.
    struct LinkScratch {
        var spans: [LinkSpan] = []
        var anchors = NoteAnchors.Spans()
        var foldedTitle: [UInt8] = []
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
            func appendDecoded(_ range: Range<Int>) {
                NoteLinks.appendPercentDecoded(UnsafeBufferPointer(rebasing: body[range]), to: &bytes)
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
                    (key, alternative) = LinkKeys.appendWiki(
                        target: UnsafeBufferPointer(rebasing: body[span.targetRange]), to: &bytes,
                        folding: &folding)
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
