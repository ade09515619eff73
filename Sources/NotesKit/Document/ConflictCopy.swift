import Foundation

/// A copy of a note made when two changes met: by Syncthing
/// (`<name>.sync-conflict-<date>-<time>-<device>.md`), Dropbox (`<name> (… conflicted copy …).md`),
/// Nextcloud (`<name> (conflicted copy <date> <time>).md`) or MyNotes itself
/// (`<id>.conflict-<date>-<time>.md`). Recognised by its file name alone.
public struct ConflictCopy: Equatable, Sendable {
    /// Who made the copy.
    public enum Source: String, Sendable {
        case syncthing, dropbox, nextcloud, notes

        /// The tool's name as users know it.
        public var name: String {
            switch self {
            case .syncthing: "Syncthing"
            case .dropbox: "Dropbox"
            case .nextcloud: "Nextcloud"
            case .notes: "MyNotes"
            }
        }
    }

    /// The copy's vault-relative path.
    public var path: String
    /// The vault-relative path of the note it is a copy of (which may be gone).
    public var original: String
    public var source: Source

    /// The copy a vault-relative note path names, or nil when it is not a conflict copy.
    public init?(path: String) {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let folder = String(path[..<slash])
        let name = String(path[slash...])
        let ext = name.hasSuffix(".markdown") ? ".markdown" : name.hasSuffix(".md") ? ".md" : nil
        guard let ext else { return nil }
        let stem = String(name.dropLast(ext.count))
        // A copy of a note with no name (`.sync-conflict-….md`) would be a copy of a hidden file.
        guard let (original, source) = ConflictCopy.parse(stem: stem, ext: ext), !original.hasPrefix(".")
        else { return nil }
        self.path = path
        self.original = folder + original
        self.source = source
    }

    /// The original's file name and the source, from a copy's name without its extension.
    private static func parse(stem: String, ext: String) -> (String, Source)? {
        // Dropbox and Nextcloud: `name (… conflicted copy …)`.
        if stem.hasSuffix(")"), let open = stem.range(of: " (", options: .backwards) {
            let inner = stem[open.upperBound..<stem.index(before: stem.endIndex)]
            if inner.contains("conflicted copy") {
                let name = String(stem[..<open.lowerBound]) + ext
                let nextcloud =
                    inner.hasPrefix("conflicted copy ") && matches(inner.dropFirst(16), "dddd-dd-dd dddddd")
                return (name, nextcloud ? .nextcloud : .dropbox)
            }
        }
        // Syncthing: `name.sync-conflict-YYYYMMDD-HHMMSS-DEVICE`.
        if let marker = stem.range(of: ".sync-conflict-", options: .backwards) {
            let tail = stem[marker.upperBound...]
            if matches(tail.prefix(16), "dddddddd-dddddd-"), tail.count > 16,
                tail.dropFirst(16).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            {
                return (String(stem[..<marker.lowerBound]) + ext, .syncthing)
            }
        }
        // MyNotes: `id.conflict-YYYYMMDD-HHMMSS`, and `-2`, `-3`… when that was taken.
        if ext == ".md", let marker = stem.range(of: ".conflict-", options: .backwards) {
            let tail = stem[marker.upperBound...]
            let extra = tail.dropFirst(15)
            if matches(tail.prefix(15), "dddddddd-dddddd"),
                extra.isEmpty
                    || (extra.first == "-" && extra.count > 1 && extra.dropFirst().allSatisfy(\.isASCIIDigit))
            {
                let id = String(stem[..<marker.lowerBound])
                return (id.hasSuffix(".markdown") ? id : id + ".md", .notes)
            }
        }
        return nil
    }

    /// Whether `text` has the shape of `pattern`, where `d` is an ASCII digit and any other
    /// character stands for itself.
    private static func matches(_ text: Substring, _ pattern: String) -> Bool {
        guard text.count == pattern.count else { return false }
        return zip(text, pattern).allSatisfy { c, p in p == "d" ? c.isASCIIDigit : c == p }
    }

    /// Whether a note path can be a copy at all: a cheap test of the bytes before parsing (every
    /// form holds `onflict`).
    public static func mayBeCopy(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 7 else { return false }
        var start = 0
        // Each `o` found with memchr, then the six bytes after it.
        while start <= bytes.count - 7, let found = memchr(base + start, 0x6F, bytes.count - 6 - start) {
            let at = base.distance(to: UnsafeRawPointer(found))
            if bytes[at + 1] == 0x6E, bytes[at + 2] == 0x66, bytes[at + 3] == 0x6C, bytes[at + 4] == 0x69,
                bytes[at + 5] == 0x63, bytes[at + 6] == 0x74
            {
                return true
            }
            start = at + 1
        }
        return false
    }
}

extension Character {
    /// `0` to `9`.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
