import Foundation

/// What a template's placeholders stand for in one new note.
public struct TemplateValues: Equatable, Sendable {
    /// `{{title}}`: the title given, or a daily note's name; empty when there is none.
    public var title: String
    /// The day and time of `{{date}}`, `{{time}}` and their formats.
    public var time: LocalDateTime
    /// `{{content}}`: the text given, if any (nil: none, so the placeholder is filled with nothing).
    public var content: String?
    /// `{{yesterday}}` and `{{tomorrow}}`: the IDs of the daily notes of the days around a daily
    /// note; nil outside daily notes, where the placeholders stay as written.
    public var yesterday: String?
    /// See `yesterday`.
    public var tomorrow: String?
    /// Whether a title the template does not name becomes the note's first heading (`add --title`),
    /// rather than only filling `{{title}}` (a daily note's name).
    public var titleHeading: Bool

    /// The values of one note.
    public init(
        title: String, time: LocalDateTime, content: String? = nil, yesterday: String? = nil,
        tomorrow: String? = nil, titleHeading: Bool = true
    ) {
        self.title = title
        self.time = time
        self.content = content
        self.yesterday = yesterday
        self.tomorrow = tomorrow
        self.titleHeading = titleHeading
    }
}

/// A template: a Markdown file of the template folder whose placeholders — those of Obsidian's
/// Templates plugin — are filled in a new note. Its own front matter is kept, filled too, except
/// its `createdAt` and `updatedAt`, which belong to the note.
public struct Template: Equatable, Sendable {
    /// The template's name: its path in the template folder without `.md`.
    public var name: String
    /// The file's text.
    public var text: String

    /// The file's path, to name in an error; the name when it is not known.
    public var path: String

    /// A template named `name` holding `text`, read from `path`.
    public init(name: String, text: String, path: String? = nil) {
        self.name = name
        self.text = text
        self.path = path ?? name
    }

    /// A template that holds this is filled with the title, and gets no `# title` heading of its own.
    static let titlePlaceholder = "{{title}}"

    /// The template filled with `values`: each known placeholder replaced (`{{title}}`, `{{date}}`,
    /// `{{time}}`, `{{date:FORMAT}}`, `{{time:FORMAT}}`, `{{content}}`, and `{{yesterday}}` and
    /// `{{tomorrow}}` when the values have them), any other `{{…}}` kept as written. A line that a
    /// placeholder left holding only `#` marks (`# {{title}}` without a title) is dropped. A
    /// non-empty title becomes a first `# title` line when the template has no `{{title}}` (unless
    /// `titleHeading` is off), and
    /// content the template has no `{{content}}` for comes after it. Throws for a `FORMAT` with a
    /// letter that is no date token, naming the template's file.
    public func filled(with values: TemplateValues) throws(JournalError) -> FilledTemplate {
        do {
            return try filling(with: values)
        } catch {
            throw .badTemplate(path, reason: error.errorDescription ?? "")
        }
    }

    /// `filled(with:)`, throwing what is wrong with a format. With no title, a front-matter entry
    /// whose whole value was `{{title}}` is dropped rather than left empty; with no content, a line
    /// that held only `{{content}}` is dropped rather than left blank; and the body is trimmed of
    /// of blank lines at its start, as every note's content is.
    private func filling(with values: TemplateValues) throws(MomentFormatError) -> FilledTemplate {
        let document = NoteDocument(parsing: Content.editable(text))
        let namesTitle = text.contains(Self.titlePlaceholder)
        var usedContent = false
        var frontMatter: [String]?
        let title = values.title.trimmingCharacters(in: .whitespacesAndNewlines)
        let noTitle = title.isEmpty
        let noContent = (values.content?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "").isEmpty
        if let fm = document.frontMatter {
            // The note's own dates are written when it is made.
            var dropped = Set<Int>()
            for entry in fm.entries where entry.key == "createdAt" || entry.key == "updatedAt" {
                dropped.formUnion(entry.lineIndex...fm.lastLine(ofEntryAt: entry.lineIndex))
            }
            var lines: [String] = []
            for (index, line) in fm.lines.enumerated() where !dropped.contains(index) {
                if noTitle, Self.valueIsOnlyTitle(line) { continue }
                let (filled, content) = try Self.fillFrontMatter(line, values)
                usedContent = usedContent || content
                lines.append(filled.hasSuffix("\n") ? filled : filled + "\n")
            }
            frontMatter = lines
        }
        var body: [Substring] = []
        for line in document.body.split(separator: "\n", omittingEmptySubsequences: false) {
            let (filled, content) = try Self.fill(String(line), values)
            usedContent = usedContent || content
            if filled != line, !filled.isEmpty,
                filled.trimmingCharacters(in: .whitespaces).allSatisfy({ $0 == "#" })
            {
                continue
            }
            if noContent, line.trimmingCharacters(in: .whitespaces) == "{{content}}" { continue }
            body.append(Substring(filled))
        }
        while body.count > 1, let first = body.first, first.allSatisfy(\.isWhitespace) { body.removeFirst() }
        var text = body.joined(separator: "\n")
        if values.titleHeading, !namesTitle, !title.isEmpty {
            text = "# " + title + "\n\n" + text.drop { $0 == "\n" }
        }
        if !usedContent, let content = values.content?.trimmingCharacters(in: .whitespacesAndNewlines),
            !content.isEmpty
        {
            var kept = Substring(text)
            while let last = kept.last, last.isWhitespace { kept.removeLast() }
            text = kept.isEmpty ? content : kept + "\n\n" + content
        }
        return FilledTemplate(frontMatter: frontMatter, body: text)
    }

    /// Whether the front-matter `line` is a `key: {{title}}` entry (the placeholder quoted or not).
    static func valueIsOnlyTitle(_ line: String) -> Bool {
        guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("\t") else {
            return false
        }
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        return [titlePlaceholder, "\"\(titlePlaceholder)\"", "'\(titlePlaceholder)'"].contains(value)
    }

    /// The front-matter `line` with its placeholders filled so that each value reads back as
    /// given (a title `Re: budget #2 "final"` stays that title, not `Re: budget`): escaped in a
    /// quoted scalar, and a plain scalar that would read otherwise written quoted; in a
    /// `key: value` line, an inline list's item, or a `- item` line. Any other line (a block
    /// scalar's, a nested key's) is filled as it is. Also whether it held `{{content}}`.
    static func fillFrontMatter(_ line: String, _ values: TemplateValues) throws(MomentFormatError) -> (
        String, Bool
    ) {
        guard line.contains("{{") else { return (line, false) }
        var text = Substring(line)
        while let last = text.last, last == "\n" || last == "\r" { text.removeLast() }
        let head: Substring
        if let dash = text.firstIndex(where: { $0 != " " && $0 != "\t" }), text[dash...].hasPrefix("- ") {
            head = text[..<text.index(dash, offsetBy: 2)]
        } else if let first = text.first, first != " ", first != "\t", let colon = text.range(of: ": ") {
            head = text[..<colon.upperBound]
        } else {
            return try fill(line, values)
        }
        var value = text[head.endIndex...]
        let blanks = value.prefix { $0 == " " }
        value = value.dropFirst(blanks.count)
        // A comment is kept as written, after the value.
        let cut = Self.commentStart(value) ?? value.endIndex
        let comment = value[cut...]
        value = value[..<cut]
        let trailing = value.reversed().prefix { $0 == " " || $0 == "\t" }.count
        value = value.dropLast(trailing)
        var usedContent = false
        func scalar(_ item: Substring, inList: Bool) throws(MomentFormatError) -> String {
            let written = item.trimmingCharacters(in: .whitespaces)
            for quote: Character in ["\"", "'"]
            where written.count >= 2 && written.first == quote && written.last == quote {
                let (filled, content) = try fill(String(written.dropFirst().dropLast()), values) {
                    quote == "'"
                        ? $0.replacingOccurrences(of: "'", with: "''")
                        : FrontMatter.escapedForDoubleQuotes($0)
                }
                usedContent = usedContent || content
                return String(quote) + filled + String(quote)
            }
            // A plain value's blanks at its ends are not part of it.
            let (spaced, content) = try fill(written, values)
            let filled = spaced.trimmingCharacters(in: .whitespaces)
            usedContent = usedContent || content
            return filled == written || FrontMatter.readsBackPlain(filled, inList: inList)
                ? filled : FrontMatter.written(filled)
        }
        let filled: String
        if value.first == "[", value.last == "]" {
            var written: [String] = []
            for item in Self.listItems(value) where !item.allSatisfy(\.isWhitespace) {
                written.append(try scalar(item, inList: true))
            }
            filled = "[" + written.joined(separator: ", ") + "]"
        } else {
            filled = try scalar(value, inList: false)
        }
        return (head + blanks + filled + (comment.isEmpty ? "" : " " + comment) + "\n", usedContent)
    }

    /// Where the comment of a front-matter value starts: a `#` after a blank, outside quotes.
    static func commentStart(_ value: Substring) -> Substring.Index? {
        var quote: Character?
        var previous: Character = " "
        for i in value.indices {
            let c = value[i]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#", previous == " " || previous == "\t" {
                return i
            }
            previous = c
        }
        return nil
    }

    /// The items of an inline list `[a, "b, c"]`, split at the commas outside quotes.
    static func listItems(_ list: Substring) -> [Substring] {
        var items: [Substring] = []
        var start = list.index(after: list.startIndex)
        var quote: Character?
        for i in list.indices.dropFirst() {
            let c = list[i]
            if let open = quote {
                if c == open { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "," || i == list.index(before: list.endIndex) {
                items.append(list[start..<i])
                start = list.index(after: i)
            }
        }
        return items
    }

    /// `line` with its placeholders filled (each value as `escape` writes it), and whether it held
    /// `{{content}}`.
    static func fill(
        _ line: String, _ values: TemplateValues, escape: (String) -> String = { $0 }
    ) throws(MomentFormatError) -> (String, Bool) {
        guard line.contains("{{") else { return (line, false) }
        var out = ""
        var usedContent = false
        var rest = Substring(line)
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            let inner = rest[open.upperBound...]
            guard let close = inner.range(of: "}}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let name = inner[..<close.lowerBound]
            if let value = try value(of: name, values) {
                out += escape(value)
                usedContent = usedContent || name == "content"
            } else {
                out += rest[open.lowerBound..<close.upperBound]
            }
            rest = inner[close.upperBound...]
        }
        return (out + rest, usedContent)
    }

    /// What the placeholder `{{name}}` is replaced with; nil for one that stays as written.
    static func value(of name: Substring, _ values: TemplateValues) throws(MomentFormatError) -> String? {
        switch name {
        case "title": return values.title
        case "date": return try MomentFormat("YYYY-MM-DD").string(for: values.time)
        case "time": return try MomentFormat("HH:mm").string(for: values.time)
        case "content": return values.content?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        case "yesterday": return values.yesterday
        case "tomorrow": return values.tomorrow
        default:
            for prefix in ["date:", "time:"] where name.hasPrefix(prefix) {
                let format = name.dropFirst(prefix.count)
                guard !format.isEmpty else { return try value(of: prefix.dropLast(), values) }
                return try MomentFormat(String(format)).string(for: values.time)
            }
            return nil
        }
    }
}

/// A template filled for one note: what goes in its front matter and its body.
public struct FilledTemplate: Equatable, Sendable {
    /// The template's front-matter lines, filled, each with its line ending; nil when it has none.
    public var frontMatter: [String]?
    /// The body: the template's, filled, with the title heading and the content where they go.
    public var body: String

    /// The whole text of the new note with `body` (what the editor left, or `self.body`): the
    /// template's front matter after a `createdAt` line for `created`, then the body.
    public func noteText(body: String? = nil, created: Double) -> String {
        let body = body ?? self.body
        guard let frontMatter else { return body }
        return "---\ncreatedAt: \(NoteDate.format(created))\n" + frontMatter.joined() + "---\n" + body
    }
}
