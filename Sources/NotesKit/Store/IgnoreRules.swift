import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The `.gitignore` and `.ignore` files of the folders from the vault's top down to one folder,
/// compiled: which of that folder's entries are not notes. Gitignore's pattern syntax and
/// precedence, as git itself matches (its `wildmatch`), in a git repository or not: a file deeper
/// down overrides one above it, a later line an earlier one (`.ignore` after `.gitignore` in the
/// same folder), `!` re-includes, a trailing `/` matches folders only, a pattern with a `/` before
/// its end is anchored to its file's folder, one without matches a name at any depth, and `**`
/// spans folders. Nothing inside an ignored folder is looked at, so it cannot be re-included.
///
/// Matching works on bytes and allocates nothing: the walk asks about every name it reads.
public struct IgnoreRules: Sendable {
    /// The names of the files read in each folder, in the order their lines apply.
    public static let fileNames = [".gitignore", ".ignore"]

    /// The innermost folder with rules; nil when no folder on the way has any.
    private let innermost: IgnoreLevel?

    /// A checksum of every ignore file the rules were made of, with its folder and name: rules
    /// with the same fingerprint ignore the same paths (`FolderListing`). 0 for no rules.
    let fingerprint: UInt64

    /// No rules at all.
    public static let none = IgnoreRules(innermost: nil, fingerprint: 0)

    private init(innermost: IgnoreLevel?, fingerprint: UInt64) {
        self.innermost = innermost
        self.fingerprint = fingerprint
    }

    /// Whether any folder on the way has a rule.
    public var isEmpty: Bool { innermost == nil }

    /// Whether any rule names a path (has a `/` before its end), so that matching needs the whole
    /// path and not only the name.
    public var needsPaths: Bool { innermost?.needsPaths ?? false }

    /// These rules with those of the ignore files of `folder` (vault-relative, "" for the top)
    /// added, each given as its name and bytes.
    public func adding(folder: String, files: [(name: String, bytes: [UInt8])]) -> IgnoreRules {
        var patterns: [IgnorePattern] = []
        var sources: [String] = []
        for file in files {
            let before = patterns.count
            patterns += IgnorePattern.parse(file.bytes, source: sources.count)
            if patterns.count > before {
                sources.append(folder.isEmpty ? file.name : folder + "/" + file.name)
            }
        }
        guard !patterns.isEmpty else { return self }
        // Each part after its length, so that no two sequences of parts run together the same.
        var described: [UInt8] = []
        for part in [Array(folder.utf8)] + files.flatMap({ [Array($0.name.utf8), $0.bytes] }) {
            NoteIndexFile.append(UInt64(part.count), to: &described)
            described += part
        }
        return IgnoreRules(
            innermost: IgnoreLevel(
                base: Array(folder.utf8), patterns: patterns, sources: sources, parent: innermost),
            fingerprint: described.withUnsafeBytes { IndexChecksum.of($0, seed: fingerprint) })
    }

    /// These rules with those of the ignore files in the open folder `fd` (vault-relative
    /// `folder`) added. An ignore file that is a symlink is not read, as git does not read one.
    public func adding(folder: String, fd: Int32) -> IgnoreRules {
        var files: [(name: String, bytes: [UInt8])] = []
        for name in IgnoreRules.fileNames {
            if let bytes = IgnoreRules.contents(of: name, in: fd) { files.append((name, bytes)) }
        }
        return files.isEmpty ? self : adding(folder: folder, files: files)
    }

    /// The line that ignores the vault-relative `path` of the vault at `root` (a file, or a folder
    /// with `isDirectory`), or a folder on its way there; nil when nothing does. Each folder's
    /// ignore files are read on the way down, as the walk reads them; folders that do not exist yet
    /// have none.
    public static func rule(ignoring path: String, isDirectory: Bool, root: String) -> IgnoreRule? {
        var rules = IgnoreRules.none
        var built = ""
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        let components = path.split(separator: "/").map(String.init)
        for (i, component) in components.enumerated() {
            if fd >= 0 { rules = rules.adding(folder: built, fd: fd) }
            built = built.isEmpty ? component : built + "/" + component
            let last = i == components.count - 1
            if let rule = rules.rule(for: built, isDirectory: !last || isDirectory), rule.ignores {
                return rule
            }
            if !last && fd >= 0 {
                let next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                close(fd)
                fd = next
            }
        }
        return nil
    }

    /// What applies to the entries of the vault-relative `folder`: the rule that ignores the folder
    /// or one above it, else the rules of the ignore files from the top down to it (asked about
    /// each entry's vault-relative path), so that many names in one folder cost one walk.
    public enum FolderRules: Sendable {
        case ignored(IgnoreRule)
        case rules(IgnoreRules)

        /// The rule that ignores the entry at the vault-relative `path` of this folder, if any.
        public func ignoring(_ path: String, isDirectory: Bool) -> IgnoreRule? {
            switch self {
            case .ignored(let rule): rule
            case .rules(let rules):
                rules.rule(for: path, isDirectory: isDirectory).flatMap { $0.ignores ? $0 : nil }
            }
        }
    }

    /// `FolderRules` of `folder`, read down from `root`.
    public static func forEntries(of folder: String, root: String) -> FolderRules {
        var rules = IgnoreRules.none
        var built = ""
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        for component in folder.split(separator: "/").map(String.init) {
            if fd >= 0 { rules = rules.adding(folder: built, fd: fd) }
            built = built.isEmpty ? component : built + "/" + component
            if let rule = rules.rule(for: built, isDirectory: true), rule.ignores { return .ignored(rule) }
            let next = fd >= 0 ? openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1
            if fd >= 0 { close(fd) }
            fd = next
        }
        if fd >= 0 { rules = rules.adding(folder: built, fd: fd) }
        return .rules(rules)
    }

    /// Whether the entry at the vault-relative `path` (its name starting at byte `nameStart`) is
    /// ignored: the last line that matches it, in the innermost file that has one, is not a `!`.
    public func isIgnored(path: UnsafeRawBufferPointer, nameStart: Int, isDirectory: Bool) -> Bool {
        guard let found = match(path: path, nameStart: nameStart, isDirectory: isDirectory) else {
            return false
        }
        return !found.level.shapes[found.index].negated
    }

    /// The rule that decides the vault-relative `path`, when one does: `isIgnored` of the same.
    public func rule(for path: String, isDirectory: Bool) -> IgnoreRule? {
        var path = path
        return path.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            let nameStart = (raw.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
            guard let found = match(path: raw, nameStart: nameStart, isDirectory: isDirectory) else {
                return nil
            }
            let pattern = found.level.patterns[found.index]
            return IgnoreRule(
                file: found.level.sources[pattern.source], line: pattern.line, pattern: pattern.text,
                ignores: !pattern.negated)
        }
    }

    private func match(
        path: UnsafeRawBufferPointer, nameStart: Int, isDirectory: Bool
    ) -> (level: IgnoreLevel, index: Int)? {
        let name = UnsafeRawBufferPointer(rebasing: path[nameStart...])
        var level = innermost
        while let current = level {
            let base = current.base.count
            // Below the file's folder: the path from there (the walk only asks about paths below).
            let from = base == 0 ? 0 : min(path.count, base + 1)
            let relative = UnsafeRawBufferPointer(rebasing: path[from...])
            if let i = current.lastMatch(name: name, relative: relative, isDirectory: isDirectory) {
                return (current, i)
            }
            level = current.parent
        }
        return nil
    }

    /// The whole of the small regular file `name` in the open folder `fd`, not following a
    /// symlink; nil when there is none or it cannot be read.
    private static func contents(of name: String, in fd: Int32) -> [UInt8]? {
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var st = stat()
        guard fstat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size <= 4 << 20 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(file, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }
}

/// The line of an ignore file that decides a path.
public struct IgnoreRule: Equatable, Sendable, CustomStringConvertible {
    /// The ignore file's vault-relative path (`.gitignore`, `build/.ignore`).
    public var file: String
    /// Its 1-based line.
    public var line: Int
    /// The line as written, trailing spaces trimmed.
    public var pattern: String
    /// False for a `!` line, which re-includes what an earlier one ignores.
    public var ignores: Bool

    /// `.gitignore:3 (build/)`.
    public var description: String { "\(file):\(line) (\(pattern))" }
}

/// The rules of one folder's ignore files, and the folder above's.
private final class IgnoreLevel: Sendable {
    /// What matching needs of a pattern, without a reference to count: its bytes are a range of
    /// `bytes`, so that asking about a name retains and releases nothing.
    struct Shape {
        let start: Int
        let count: Int
        let form: IgnorePattern.Form
        let negated: Bool
        let directoryOnly: Bool
        let nameOnly: Bool
        /// How many bytes it starts with that are not special: a subject must start with them.
        let literalPrefix: Int
    }

    /// The folder's vault-relative path, as bytes.
    let base: [UInt8]
    /// The patterns as parsed, for saying which line decided.
    let patterns: [IgnorePattern]
    let shapes: [Shape]
    /// Every pattern's bytes, one after the other.
    let bytes: [UInt8]
    /// The files' vault-relative paths, by `IgnorePattern.source`.
    let sources: [String]
    let parent: IgnoreLevel?
    let needsPaths: Bool

    init(base: [UInt8], patterns: [IgnorePattern], sources: [String], parent: IgnoreLevel?) {
        self.base = base
        self.patterns = patterns
        self.sources = sources
        self.parent = parent
        var bytes: [UInt8] = []
        shapes = patterns.map { pattern in
            defer { bytes += pattern.bytes }
            return Shape(
                start: bytes.count, count: pattern.bytes.count, form: pattern.form, negated: pattern.negated,
                directoryOnly: pattern.directoryOnly, nameOnly: pattern.nameOnly,
                literalPrefix: pattern.bytes.firstIndex(where: IgnorePattern.isSpecial) ?? pattern.bytes.count
            )
        }
        self.bytes = bytes
        needsPaths = patterns.contains { !$0.nameOnly } || parent?.needsPaths == true
    }

    /// The number of the last pattern that matches an entry named `name` whose path from this
    /// folder is `relative`.
    func lastMatch(name: UnsafeRawBufferPointer, relative: UnsafeRawBufferPointer, isDirectory: Bool) -> Int?
    {
        bytes.withUnsafeBytes { all in
            shapes.withUnsafeBufferPointer { shapes in
                var i = shapes.count
                while i > 0 {
                    i -= 1
                    let shape = shapes[i]
                    if shape.directoryOnly && !isDirectory { continue }
                    let pattern = UnsafeRawBufferPointer(
                        rebasing: all[shape.start..<(shape.start + shape.count)])
                    let subject = shape.nameOnly ? name : relative
                    // Most subjects differ in their first bytes: `/private/*.md` needs no glob for them.
                    if shape.form == .wild && shape.literalPrefix > 0 {
                        guard subject.count >= shape.literalPrefix, let text = subject.baseAddress,
                            let start = pattern.baseAddress, memcmp(text, start, shape.literalPrefix) == 0
                        else { continue }
                    }
                    if IgnorePattern.matches(
                        pattern, shape.form, shape.nameOnly ? name : relative, pathname: !shape.nameOnly)
                    {
                        return i
                    }
                }
                return nil
            }
        }
    }
}

/// One line of an ignore file, compiled.
struct IgnorePattern: Sendable {
    /// How the pattern is matched: quick cases first, as git sorts them.
    enum Form: Sendable {
        /// The bytes, exactly.
        case literal
        /// `*` then these bytes: a name ending so.
        case suffix
        /// Anything else, through `Wildmatch`.
        case wild
    }

    /// The pattern without its `!`, leading `/` and trailing `/` (for `suffix`, without its `*`).
    let bytes: [UInt8]
    let form: Form
    /// A `!` line.
    let negated: Bool
    /// It ended in `/`: it matches folders only.
    let directoryOnly: Bool
    /// It has no `/` before its end: it matches a name at any depth, not a path.
    let nameOnly: Bool
    /// The line, trimmed as git trims it, and its number; `source` numbers its file in its level.
    let text: String
    let line: Int
    let source: Int

    /// Whether a byte has a meaning of its own in a pattern.
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[")
            || byte == UInt8(ascii: "\\")
    }

    /// The patterns of an ignore file's bytes: one a line (LF or CRLF; a UTF-8 BOM skipped), none
    /// for a blank line or a comment (`#` first; `\#` is a pattern), trailing spaces dropped unless
    /// escaped with `\`.
    static func parse(_ bytes: [UInt8], source: Int) -> [IgnorePattern] {
        var patterns: [IgnorePattern] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 1
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var line = Array(bytes[start..<end])
            if line.last == 0x0D { line.removeLast() }
            if let nul = line.firstIndex(of: 0) { line.removeSubrange(nul...) }
            if let pattern = IgnorePattern(line: line, number: number, source: source) {
                patterns.append(pattern)
            }
            number += 1
            start = end + 1
        }
        return patterns
    }

    /// A line compiled; nil for one that is blank, a comment, or matches nothing.
    init?(line raw: [UInt8], number: Int, source: Int) {
        guard let first = raw.first, first != UInt8(ascii: "#") else { return nil }
        var line = raw
        // Trailing spaces go, unless the last of them is escaped (`foo\ `).
        var lastSpace: Int?
        var i = 0
        while i < line.count {
            switch line[i] {
            case UInt8(ascii: " "): if lastSpace == nil { lastSpace = i }
            case UInt8(ascii: "\\"):
                i += 1
                lastSpace = nil
            default: lastSpace = nil
            }
            i += 1
        }
        if let lastSpace { line.removeSubrange(lastSpace...) }
        text = String(decoding: line, as: UTF8.self)
        self.line = number
        self.source = source
        negated = line.first == UInt8(ascii: "!")
        if negated { line.removeFirst() }
        directoryOnly = line.last == UInt8(ascii: "/")
        if directoryOnly { line.removeLast() }
        nameOnly = !line.contains(UInt8(ascii: "/"))
        if line.first == UInt8(ascii: "/") { line.removeFirst() }
        guard !line.isEmpty else { return nil }
        if !line.contains(where: IgnorePattern.isSpecial) {
            form = .literal
        } else if nameOnly, line.first == UInt8(ascii: "*"),
            !line.dropFirst().contains(where: IgnorePattern.isSpecial)
        {
            form = .suffix
            line.removeFirst()
        } else {
            form = .wild
        }
        bytes = line
    }

    /// Whether `pattern` (the bytes of one of `form`) matches all of `subject`; `pathname` for a
    /// path, where `*` and `?` stop at a `/` (a name has none, so `*` and `**` are alike there).
    static func matches(
        _ pattern: UnsafeRawBufferPointer, _ form: Form, _ subject: UnsafeRawBufferPointer, pathname: Bool
    ) -> Bool {
        switch form {
        case .literal:
            guard subject.count == pattern.count else { return false }
            guard let text = subject.baseAddress, let bytes = pattern.baseAddress else { return true }
            return memcmp(text, bytes, pattern.count) == 0
        case .suffix:
            guard subject.count >= pattern.count else { return false }
            guard let text = subject.baseAddress, let suffix = pattern.baseAddress else { return true }
            return memcmp(text + subject.count - pattern.count, suffix, pattern.count) == 0
        case .wild:
            return Wildmatch.matches(pattern, subject, pathname: pathname)
        }
    }
}
