import Foundation

/// The merge driver for notes (`.gitattributes` `*.md merge=notes`): both sides of a merge set
/// `updatedAt` whenever they edit a note (and `createdAt` when they make one, or edit one that has
/// none), so git's line merge alone would make every pair of edits conflict. The driver gives the
/// versions the later of the two `updatedAt` lines and the earlier of two new `createdAt` lines,
/// then lets `git merge-file` merge the rest, so only edits of the same lines conflict.
public enum MergeDriver {
    /// The `.gitattributes` lines that send notes through the driver.
    public static let attributeLines = ["*.md merge=notes", "*.markdown merge=notes"]

    /// Where the lines go: `.gitattributes` at the vault's top.
    public static let attributesPath = ".gitattributes"

    /// The name of the driver in git's configuration (`merge.notes.driver`).
    static let configKey = "merge.notes.driver"

    /// The three versions with the dates the tool writes itself made the same on both sides, so
    /// that they never conflict: every `updatedAt` line holds the later date of `ours` and
    /// `theirs`, and, when the base has no `createdAt` (both sides made the note, as `today` or
    /// `add` on two machines do, or both gave a note without one its first `createdAt` through an
    /// edit, each from its own file's modification time), both sides' `createdAt` lines hold the
    /// earlier of their two dates. A `createdAt` that the base has too is the user's: a change to
    /// it is left to the line merge. The winner's line is written as it is, in each file's own line
    /// ending. Versions that are not UTF-8, and a key where either side has no date that parses,
    /// are left as they are: the line merge decides.
    static func aligningDates(
        base: [UInt8], ours: [UInt8], theirs: [UInt8]
    ) -> (base: [UInt8], ours: [UInt8], theirs: [UInt8]) {
        guard let baseText = String(validating: base, as: UTF8.self),
            let oursText = String(validating: ours, as: UTF8.self),
            let theirsText = String(validating: theirs, as: UTF8.self)
        else { return (base, ours, theirs) }
        let documents = [baseText, oursText, theirsText].map(NoteDocument.init(parsing:))
        func dateLine(_ key: String, _ document: NoteDocument) -> (line: Substring, seconds: Double)? {
            guard let fm = document.frontMatter, let entry = fm.entry(key),
                let seconds = fm.scalar(key).flatMap({ NoteDate.parse($0) })
            else { return nil }
            return (FrontMatter.stripTerminator(fm.lines[entry.lineIndex]), seconds)
        }
        var winners: [(key: String, line: Substring)] = []
        if let mine = dateLine("updatedAt", documents[1]), let other = dateLine("updatedAt", documents[2]) {
            winners.append(("updatedAt", other.seconds > mine.seconds ? other.line : mine.line))
        }
        if documents[0].frontMatter?.entry("createdAt") == nil,
            let mine = dateLine("createdAt", documents[1]), let other = dateLine("createdAt", documents[2])
        {
            winners.append(("createdAt", other.seconds < mine.seconds ? other.line : mine.line))
        }
        guard !winners.isEmpty else { return (base, ours, theirs) }
        let aligned = documents.map { document -> [UInt8] in
            guard var fm = document.frontMatter else { return Array(document.text.utf8) }
            for (key, line) in winners {
                guard let entry = fm.entry(key) else { continue }
                let old = fm.lines[entry.lineIndex]
                let ending = old.utf8.dropFirst(FrontMatter.stripTerminator(old).utf8.count)
                fm.lines[entry.lineIndex] = String(line) + String(decoding: ending, as: UTF8.self)
            }
            var document = document
            document.frontMatter = fm
            return Array(document.text.utf8)
        }
        return (aligned[0], aligned[1], aligned[2])
    }

    /// Runs the driver as git calls it: `base`, `ours` and `theirs` are the files git passes as
    /// `%O`, `%A` and `%B`; the result goes to `ours` (atomically), with the usual markers where
    /// both sides changed the same lines. Returns false when such lines are left for the user.
    /// Throws `notInstalled` without git and `failed` when a file cannot be read or written or
    /// `git merge-file` fails.
    public static func merge(
        base: String, ours: String, theirs: String, path: String, markerSize: Int,
        environment: [String: String]
    ) throws(GitError) -> Bool {
        guard let git = ProcessRunner.find("git", path: environment["PATH"]) else { throw .notInstalled }
        let versions: (base: [UInt8], ours: [UInt8], theirs: [UInt8])
        do {
            versions = aligningDates(
                base: try FileSystem.read(base, followSymlinks: true).0,
                ours: try FileSystem.read(ours, followSymlinks: true).0,
                theirs: try FileSystem.read(theirs, followSymlinks: true).0)
            // git's own temporary copies, rewritten so that `git merge-file` reads the aligned versions.
            try FileSystem.writeAtomically(versions.base, to: base)
            try FileSystem.writeAtomically(versions.ours, to: ours)
            try FileSystem.writeAtomically(versions.theirs, to: theirs)
        } catch {
            throw .failed(command: "notes merge driver", message: error.localizedDescription)
        }
        let result: ProcessResult
        do {
            result = try ProcessRunner.run(
                git,
                [
                    "merge-file", "--stdout", "--marker-size=\(max(markerSize, 1))",
                    "-L", path + " (ours)", "-L", path + " (base)", "-L", path + " (theirs)",
                    ours, base, theirs,
                ],
                environment: environment)
        } catch {
            throw .notInstalled
        }
        // The status is the number of conflicts (at most 127); anything above means it failed.
        guard result.status >= 0, result.status < 128 else {
            throw .failed(command: "git merge-file", message: result.errorText)
        }
        do {
            try FileSystem.writeAtomically(result.stdout, to: ours)
        } catch {
            throw .failed(command: "notes merge driver", message: error.localizedDescription)
        }
        return result.status == 0
    }
}

extension MergeDriver {
    /// Adds the missing `attributeLines` to `<folder>/.gitattributes` (creating it), keeping what
    /// it held; returns whether it wrote the file.
    @discardableResult
    public static func writeAttributes(in folder: String) throws(FileSystemError) -> Bool {
        try add(attributeLines, toAttributesFile: folder + "/" + attributesPath)
    }

    /// The lines of the repository's own attributes file (`info/attributes` in its git folder)
    /// that send the notes of a vault at `prefix` in the work tree (`""` or ending in `/`)
    /// through the driver: the `attributeLines` for a vault at the top; for one in a folder,
    /// patterns for that folder only (that file's patterns are read from the top), its glob
    /// characters escaped, and quoted in C style when it holds a space or a quote.
    static func localAttributeLines(prefix: String) -> [String] {
        guard !prefix.isEmpty else { return attributeLines }
        var folder = ""
        for character in prefix {
            if "*?[\\".contains(character) { folder.append("\\") }
            folder.append(character)
        }
        // A line that starts with `#` is a comment, and one with `!` a negative pattern, which
        // attributes refuse: both are taken as written when escaped.
        if folder.hasPrefix("#") || folder.hasPrefix("!") { folder = "\\" + folder }
        return ["*.md", "*.markdown"].map { name in
            let pattern = folder + "**/" + name
            guard pattern.contains(where: { $0.isWhitespace || $0 == "\"" }) else {
                return pattern + " merge=notes"
            }
            // By scalar: `\r\n` is one `Character`.
            var quoted = ""
            for scalar in pattern.unicodeScalars {
                switch scalar {
                case "\\": quoted += "\\\\"
                case "\"": quoted += "\\\""
                case "\n": quoted += "\\n"
                case "\r": quoted += "\\r"
                case "\t": quoted += "\\t"
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return "\"" + quoted + "\" merge=notes"
        }
    }

    /// Adds the `lines` that the attributes file at `path` lacks (creating it), keeping what it
    /// held; returns whether it wrote the file.
    @discardableResult
    static func add(_ lines: [String], toAttributesFile path: String) throws(FileSystemError) -> Bool {
        var text = ""
        if FileSystem.status(path) != nil {
            text = String(decoding: try FileSystem.read(path).0, as: UTF8.self)
        }
        let present = Set(
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = lines.filter { !present.contains($0) }
        guard !missing.isEmpty else { return false }
        let eol = NoteDocument.firstLineEnding(of: text) ?? "\n"
        let separator = text.isEmpty || text.hasSuffix("\n") ? "" : eol
        try FileSystem.writeAtomically(
            Array((text + separator + missing.map { $0 + eol }.joined()).utf8), to: path)
        return true
    }
}
