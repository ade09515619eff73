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
