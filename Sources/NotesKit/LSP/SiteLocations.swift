/// Where link sites (`notes backlinks`' lines and texts) are in their files, as an editor counts
/// positions: the n-th site of a file with a text on a line is the n-th occurrence of that text
/// there. Each file is read once, on all cores, and only the lines up to its last site are looked
/// at; columns are counted on the site's own line.
public enum SiteLocations {
    /// A (line, column) pair, both 0-based.
    public typealias Position = (line: Int, column: Int)

    /// The start and end of each site's text, in the file at `root/path` of its note; nil where
    /// the file cannot be read or is not UTF-8, or its line does not hold the text.
    public static func locate(_ sites: [LinkSite], root: String, encoding: PositionEncoding)
        -> [(start: Position, end: Position)?]
    {
        // The sites of each file, in the order given.
        var groups: [[Int]] = []
        var groupOf: [String: Int] = [:]
        for (i, site) in sites.enumerated() {
            if let group = groupOf[site.source.path] {
                groups[group].append(i)
            } else {
                groupOf[site.source.path] = groups.count
                groups.append([i])
            }
        }
        let files = groups
        let located = Parallel.map(count: files.count, chunk: 16) {
            g -> [(start: Position, end: Position)?] in
            let members = files[g]
            guard let bytes = (try? FileSystem.read(root + "/" + sites[members[0]].source.path))?.0,
                String(validating: bytes, as: UTF8.self) != nil
            else { return members.map { _ in nil } }
            return locate(members.map { (sites[$0].line - 1, sites[$0].text) }, in: bytes, encoding: encoding)
        }
        var out = [(start: Position, end: Position)?](repeating: nil, count: sites.count)
        for (g, members) in files.enumerated() {
            for (k, i) in members.enumerated() { out[i] = located[g][k] }
        }
        return out
    }

    /// The start and end of each (0-based line, text) in `bytes`, a file's UTF-8.
    static func locate(_ sites: [(line: Int, text: String)], in bytes: [UInt8], encoding: PositionEncoding)
        -> [(start: Position, end: Position)?]
    {
        var seen: [String: Int] = [:]
        // The start of line `cursor.line`, found by counting line breaks from the last one.
        var cursor = (line: 0, start: 0)
        return bytes.withUnsafeBufferPointer { text in
            sites.map { site -> (start: Position, end: Position)? in
                let key = "\(site.line)\n\(site.text)"
                let nth = seen[key, default: 0]
                seen[key] = nth + 1
                guard site.line >= 0 else { return nil }
                if site.line < cursor.line { cursor = (0, 0) }
                while cursor.line < site.line {
                    guard let newline = text[cursor.start...].firstIndex(of: 0x0A) else { return nil }
                    cursor = (cursor.line + 1, newline + 1)
                }
                var end = text[cursor.start...].firstIndex(of: 0x0A) ?? text.count
                if end > cursor.start && text[end - 1] == 0x0D { end -= 1 }
                guard let found = occurrence(nth, of: Array(site.text.utf8), in: text, cursor.start..<end)
                else { return nil }
                return (
                    (site.line, column(of: found.lowerBound, from: cursor.start, in: text, encoding)),
                    (site.line, column(of: found.upperBound, from: cursor.start, in: text, encoding))
                )
            }
        }
    }

    /// The byte range of the `nth` (0-based) occurrence of `needle` in `line` of `text`, the
    /// occurrences counted without overlaps.
    static func occurrence(
        _ nth: Int, of needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, _ line: Range<Int>
    )
        -> Range<Int>?
    {
        guard !needle.isEmpty, line.count >= needle.count else { return nil }
        var count = 0
        var i = line.lowerBound
        while i + needle.count <= line.upperBound {
            if text[i..<(i + needle.count)].elementsEqual(needle) {
                if count == nth { return i..<(i + needle.count) }
                count += 1
                i += needle.count
            } else {
                i += 1
            }
        }
        return nil
    }

    /// The column of byte `offset` of a line that starts at `start`, in `encoding`'s units.
    private static func column(
        of offset: Int, from start: Int, in text: UnsafeBufferPointer<UInt8>, _ encoding: PositionEncoding
    ) -> Int {
        if encoding == .utf8 { return offset - start }
        var units = 0
        var i = start
        while i < offset {
            // A lead byte of four (an astral scalar) is two UTF-16 units; continuation bytes none.
            let byte = text[i]
            if byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
            i += 1
        }
        return units
    }
}
