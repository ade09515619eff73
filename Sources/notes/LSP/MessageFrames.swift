/// Cuts the language server's input into messages: each a header block (`Content-Length: N`,
/// other headers ignored, lines ending in CRLF, a blank line) and N bytes of body. A bad header
/// block — no length, a length that is not a number, garbage before it — is reported and skipped
/// up to the next `Content-Length:`, so the reader is back in step at the next message.
struct MessageFrames {
    /// What the input held next.
    enum Frame: Equatable {
        /// A message body (not yet known to be JSON).
        case body([UInt8])
        /// Bytes that were no message, and why; skipped.
        case bad(String)
    }

    private var buffer: [UInt8] = []
    private var start = 0

    /// A header block longer than this without its blank line is garbage.
    static let maximumHeaderLength = 4096
    /// A body longer than this is refused (and skipped as it arrives).
    static let maximumBodyLength = 64 << 20

    private static let lengthHeader = Array("content-length:".utf8)
    private static let blankLine: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

    /// Adds bytes read from the input.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The bytes received and not yet taken as a frame.
    var pending: Int { buffer.count - start }

    /// The next frame, or nil when more input is needed.
    mutating func next() -> Frame? {
        guard start < buffer.count else { return nil }
        guard let end = find(Self.blankLine, from: start, limit: Self.maximumHeaderLength) else {
            if buffer.count - start > Self.maximumHeaderLength {
                return skipToNextHeader("A header without an end")
            }
            return nil
        }
        guard let length = Self.contentLength(buffer[start..<end]) else {
            return skipToNextHeader("A message without a valid Content-Length header")
        }
        guard length <= Self.maximumBodyLength else {
            return skipToNextHeader("A message longer than \(Self.maximumBodyLength) bytes")
        }
        let bodyStart = end + Self.blankLine.count
        guard buffer.count - bodyStart >= length else { return nil }
        start = bodyStart + length
        return .body(Array(buffer[bodyStart..<start]))
    }

    /// Skips to the next `Content-Length:` after the current start (keeping a tail that could
    /// begin one), reporting what was skipped.
    private mutating func skipToNextHeader(_ reason: String) -> Frame {
        let skipped: Int
        if let found = findFolded(Self.lengthHeader, from: start + 1) {
            skipped = found - start
            start = found
        } else {
            let keep = min(buffer.count - start - 1, Self.lengthHeader.count - 1)
            skipped = buffer.count - start - keep
            start = buffer.count - keep
        }
        return .bad("\(reason); skipped \(skipped) bytes.")
    }

    /// The value of the one `Content-Length` header of a header block whose every line is
    /// `Name: value`; nil otherwise.
    private static func contentLength(_ block: ArraySlice<UInt8>) -> Int? {
        var length: Int?
        for line in block.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = line.last == 0x0D ? line.dropLast() : line
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
            else { return nil }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            guard name == "content-length" else { continue }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingBlanks()
            guard length == nil, !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                value.utf8.count < 12, let n = Int(value)
            else { return nil }
            length = n
        }
        return length
    }

    private func find(_ needle: [UInt8], from: Int, limit: Int) -> Int? {
        let last = min(buffer.count - needle.count, from + limit)
        guard from <= last else { return nil }
        for i in from...last where buffer[i] == needle[0] {
            if buffer[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }

    private func findFolded(_ needle: [UInt8], from: Int) -> Int? {
        guard from <= buffer.count - needle.count else { return nil }
        for i in from...(buffer.count - needle.count) {
            var matches = true
            for k in 0..<needle.count {
                let b = buffer[i + k]
                let lower = b >= 0x41 && b <= 0x5A ? b + 0x20 : b
                if lower != needle[k] {
                    matches = false
                    break
                }
            }
            if matches { return i }
        }
        return nil
    }

    /// The frame for a message: its header and body.
    static func frame(_ body: String) -> [UInt8] {
        Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
    }
}

extension String {
    fileprivate func trimmingBlanks() -> String {
        String(
            drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" })
                .reversed())
    }
}
