import Foundation

/// Merge conflict markers left in a note: a line starting with `<<<<<<<` and, after
/// it, a line starting with `>>>>>>>`, as git, Mercurial and diff3 write them.
public enum ConflictMarkers {
    /// Whether `text` holds a `<<<<<<<` line followed, later, by a `>>>>>>>` line. One pass over
    /// the bytes that looks only at the starts of lines, so it costs little beside parsing.
    public static func present(in text: String) -> Bool { present(in: [text]) }

    /// `present(in:)` over texts that follow each other, each ending at the end of a line (a
    /// note's front matter and its body: when both sides changed `updatedAt`, git's markers are
    /// in the front matter).
    public static func present(in parts: [String]) -> Bool {
        // Almost no note has a run of seven '<': look for one anywhere first (from one '<' to
        // the next, with memchr), and only then line by line.
        guard
            parts.contains(where: { part in
                var part = part
                return part.withUTF8(hasSevenOpenings)
            })
        else { return false }
        var opened = false
        for var part in parts {
            if part.withUTF8({ scan(UnsafeRawBufferPointer($0), opened: &opened) }) { return true }
        }
        return false
    }

    /// Whether `merged` holds a marker line (one that starts with seven `<` or seven `>`) that the
    /// merge of `ours` and `theirs` from `base` put there: more copies of that line than the sides
    /// account for (the most either side has, or what both added to the base together). Markers a
    /// note quotes, in a "Git tips" note's code block, are on a side already and do not count; a
    /// merge's own markers carry their labels and their size (git's `%L`, longer in a merge of
    /// merge bases) and so are lines no side has. Lines are compared as written, without a final
    /// `\r`.
    public static func introduced(in merged: [UInt8], base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> Bool {
        let found = markerLines(in: merged)
        guard !found.isEmpty else { return false }
        let (base, ours, theirs) = (markerLines(in: base), markerLines(in: ours), markerLines(in: theirs))
        return found.contains { line, count in
            let (inBase, inOurs, inTheirs) = (
                base[line, default: 0], ours[line, default: 0], theirs[line, default: 0]
            )
            return count > max(inOurs, inTheirs, inOurs + inTheirs - inBase)
        }
    }

    /// The lines of `bytes` that start with seven `<` or seven `>` (without a final `\r`), each
    /// with how many times it occurs.
    static func markerLines(in bytes: [UInt8]) -> [ArraySlice<UInt8>: Int] {
        var lines: [ArraySlice<UInt8>: Int] = [:]
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[start..<end]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if let first = line.first, first == UInt8(ascii: "<") || first == UInt8(ascii: ">"),
                line.count >= 7, line.prefix(7).allSatisfy({ $0 == first })
            {
                lines[line, default: 0] += 1
            }
            start = end + 1
        }
        return lines
    }

    /// Whether `bytes` holds `<<<<<<<` anywhere.
    static func hasSevenOpenings(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = 0
        while i + 7 <= bytes.count, let hit = memchr(base + i, Int32(UInt8(ascii: "<")), bytes.count - 6 - i)
        {
            i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            var run = 1
            while run < 7 && bytes[i + run] == UInt8(ascii: "<") { run += 1 }
            if run == 7 { return true }
            i += run
        }
        return false
    }

    /// Scans bytes for the markers, `opened` saying whether a `<<<<<<<` line came before.
    private static func scan(_ bytes: UnsafeRawBufferPointer, opened: inout Bool) -> Bool {
        let open = UInt8(ascii: "<")
        let close = UInt8(ascii: ">")
        let newline = UInt8(ascii: "\n")
        var start = 0
        let count = bytes.count
        while start + 7 <= count {
            let wanted = opened ? close : open
            if bytes[start] == wanted {
                var run = 1
                while run < 7 && bytes[start + run] == wanted { run += 1 }
                if run == 7 {
                    if opened { return true }
                    opened = true
                }
            }
            // On to the next line.
            guard let base = bytes.baseAddress,
                let found = memchr(base + start, Int32(newline), count - start)
            else { return false }
            start = base.distance(to: UnsafeRawPointer(found)) + 1
        }
        return false
    }
}
