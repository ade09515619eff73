import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An element or a run of text of an XML document, as `EnexXML` reads it.
indirect enum EnexNode: Equatable {
    case text(String)
    case element(name: String, attributes: [String: String], children: [EnexNode])
}

/// Where and why an XML text did not parse: its 1-based line and column, and the parser's words.
struct EnexXMLError: Error, Equatable {
    var line: Int
    var column: Int
    var reason: String
}

/// Reads an XML document into `EnexNode`s with the toolchain's `XMLParser`, named references of
/// XHTML decoded first. Any error the parser reports fails the whole text: on some platforms it
/// reports an undeclared entity only to its delegate and still says the parse succeeded.
final class EnexXML: NSObject, XMLParserDelegate {
    private var stack: [(name: String, attributes: [String: String], children: [EnexNode])] = []
    private var root: EnexNode?
    private var error: EnexXMLError?
    private var decoded = EnexDecodedText([])

    /// The root element of `bytes`.
    static func parse(_ bytes: [UInt8]) throws(EnexXMLError) -> EnexNode {
        let reader = EnexXML()
        reader.decoded = EnexDecodedText(bytes)
        let parser = XMLParser(data: Data(reader.decoded.bytes))
        parser.delegate = reader
        let finished = parser.parse()
        if let error = reader.error { throw error }
        guard finished, let root = reader.root else {
            throw EnexXMLError(
                line: parser.lineNumber, column: parser.columnNumber,
                reason: "the text ends before its document does")
        }
        return root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        stack.append((elementName, attributeDict, []))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        guard let last = stack.popLast() else { return }
        let node = EnexNode.element(name: last.name, attributes: last.attributes, children: last.children)
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { appendText(string) }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        appendText(String(decoding: block, as: UTF8.self))
    }

    private func appendText(_ string: String) {
        guard !stack.isEmpty else { return }
        if case .text(let previous)? = stack[stack.count - 1].children.last {
            stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(
                previous + string)
        } else {
            stack[stack.count - 1].children.append(.text(string))
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard error == nil else { return }
        let line = parser.lineNumber
        error = EnexXMLError(
            line: line, column: decoded.originalColumn(line: line, column: parser.columnNumber),
            reason: EnexXML.describe((parseError as NSError).code))
        parser.abortParsing()
    }

    /// The parser's error code (libxml2's numbering) in words.
    static func describe(_ code: Int) -> String {
        switch code {
        case 4: return "the document is empty"
        case 5: return "the text ends inside an element: the file is cut short"
        case 9: return "a character there is not allowed in XML"
        case 23: return "an entity reference there has no ';'"
        case 26, 27: return "an entity there is neither XML's nor HTML's"
        case 38, 39, 41: return "an attribute there is malformed"
        case 73: return "a tag there is not closed with '>'"
        case 76: return "an end tag there does not match the element it closes"
        default: return "the XML is malformed there (parser error \(code))"
        }
    }
}

/// ENML (Evernote's XHTML) as Markdown: headings, paragraphs and `div` lines, line breaks, bold,
/// italic, links, lists (nested), `en-todo` checkboxes, code blocks, tables and rules; an element
/// it does not know keeps its text. `en-media` becomes the link `media` holds for its hash.
struct EnexMarkdown {
    /// The Markdown for each resource, by the MD5 of its bytes in hexadecimal.
    let media: [String: String]
    /// The hashes an `en-media` named, in order, the ones `media` lacks included.
    private(set) var mediaUsed: [String] = []
    /// How many markers (bold, a link …) the inline text being built is inside: a line there does
    /// not start at the text, so nothing in it can start a block.
    private var markerDepth = 0

    init(media: [String: String]) { self.media = media }

    /// How a piece of Markdown joins the next: a line of a `div`, or a block with blank lines around.
    private enum Kind { case line, block }

    private static let blockNames: Set<String> = [
        "div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "pre", "blockquote", "table", "hr",
        "en-note", "center", "section", "article", "header", "footer", "address", "dl", "dt", "dd", "figure",
        "li",
    ]

    /// The Markdown of an ENML document's root (`en-note`).
    mutating func markdown(of root: EnexNode) -> String {
        guard case .element(_, _, let children) = root else { return "" }
        return join(blocks(children, inline: .line))
    }

    // MARK: Blocks

    private mutating func blocks(_ nodes: [EnexNode], inline kind: Kind) -> [(String, Kind)] {
        var chunks: [(String, Kind)] = []
        var pending = ""
        for node in nodes {
            if case .element(let name, let attributes, let children) = node, Self.blockNames.contains(name) {
                flush(&pending, as: kind, into: &chunks)
                chunks += block(name, attributes, children)
            } else {
                inline(node, into: &pending)
            }
        }
        flush(&pending, as: kind, into: &chunks)
        return chunks
    }

    /// Inline text gathered so far as one chunk: each line trimmed, a closing `br` dropped (it
    /// ends the block, as a browser shows it) unless it is all there is, which is an empty line.
    private func flush(_ pending: inout String, as kind: Kind, into chunks: inout [(String, Kind)]) {
        defer { pending = "" }
        var lines = pending.split(separator: "\n", omittingEmptySubsequences: false).map { trimSpaces($0) }
        guard lines.count > 1 || !lines[0].isEmpty else { return }
        if lines.count > 1, lines[lines.count - 1].isEmpty { lines.removeLast() }
        var separated: [String] = []
        for line in lines {
            if let last = separated.last, Self.endsList(last), Self.continuesList(line) {
                separated.append("")
            }
            separated.append(line)
        }
        chunks.append((separated.joined(separator: "\n"), kind))
    }

    /// Whether a line is a checkbox item: only an `en-todo` starts one, as text is escaped.
    private static func endsList(_ line: String) -> Bool {
        line.hasPrefix("- [ ] ") || line.hasPrefix("- [x] ") || line == "- [ ]" || line == "- [x]"
    }

    /// Whether a line after a checkbox item would run into it, as Markdown reads a paragraph line
    /// right after a list item as more of the item.
    private static func continuesList(_ line: String) -> Bool {
        !line.isEmpty && !endsList(line)
    }

    private mutating func block(_ name: String, _ attributes: [String: String], _ children: [EnexNode])
        -> [(String, Kind)]
    {
        let style = attributes["style"] ?? ""
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            let text = inlineLine(children)
            guard !text.isEmpty else { return [] }
            return [(String(repeating: "#", count: Int(String(name.dropFirst())) ?? 1) + " " + text, .block)]
        case "p":
            return blocks(children, inline: .block)
        case "ul", "ol":
            let text = list(name, attributes, children)
            return text.isEmpty ? [] : [(text, .block)]
        case "pre":
            return fence(children)
        case "div" where style.contains("-en-codeblock:true"):
            return fence(children)
        case "blockquote":
            let text = join(blocks(children, inline: .line))
            guard !text.isEmpty else { return [] }
            let quoted = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? ">" : "> " + $0
            }
            return [(quoted.joined(separator: "\n"), .block)]
        case "table":
            let text = table(children)
            return text.isEmpty ? [] : [(text, .block)]
        case "hr":
            return [("---", .block)]
        default:
            return blocks(children, inline: .line)
        }
    }

    /// Chunks joined: lines by a newline, blocks by a blank line; runs of empty lines made one,
    /// and none kept at either end or beside a block.
    private func join(_ chunks: [(String, Kind)]) -> String {
        var kept: [(String, Kind)] = []
        for chunk in chunks {
            if chunk.0.isEmpty, let last = kept.last, last.0.isEmpty || last.1 == .block { continue }
            if chunk.0.isEmpty, kept.isEmpty { continue }
            if chunk.1 == .block, let last = kept.last, last.0.isEmpty { kept.removeLast() }
            kept.append(chunk)
        }
        while let last = kept.last, last.0.isEmpty { kept.removeLast() }
        var out = ""
        for (i, chunk) in kept.enumerated() {
            if i > 0 {
                let previous = kept[i - 1]
                let runsOn =
                    previous.1 == .line && chunk.1 == .line
                    && !(Self.endsList(String(previous.0.split(separator: "\n").last ?? ""))
                        && Self.continuesList(String(chunk.0.split(separator: "\n").first ?? "")))
                out += runsOn ? "\n" : "\n\n"
            }
            out += chunk.0
        }
        return out
    }

    /// A list's items, each under its bullet or number, what an item holds beyond its first
    /// line indented under it. Evernote's own checklists are lists styled `--en-todo:true`.
    private mutating func list(_ name: String, _ attributes: [String: String], _ children: [EnexNode])
        -> String
    {
        let isTodo = (attributes["style"] ?? "").contains("--en-todo:true")
        var number = Int(attributes["start"] ?? "") ?? 1
        var items: [String] = []
        for child in children {
            guard case .element(let childName, let childAttributes, let grandchildren) = child else {
                continue
            }
            if childName == "ul" || childName == "ol" {
                // A list straight inside a list belongs to the item before it.
                let nested = list(childName, childAttributes, grandchildren)
                guard !nested.isEmpty else { continue }
                let indented = indent(nested, by: 2)
                if items.isEmpty { items.append(indented) } else { items[items.count - 1] += "\n" + indented }
                continue
            }
            let content = blocks(grandchildren, inline: .line).map(\.0).filter { !$0.isEmpty }
                .joined(separator: "\n")
            var bullet: String
            if isTodo {
                bullet = (childAttributes["style"] ?? "").contains("--en-checked:true") ? "- [x] " : "- [ ] "
            } else if name == "ol" {
                bullet = "\(number). "
                number += 1
            } else {
                bullet = "- "
            }
            // An item that starts with an `en-todo` is already a checkbox item.
            if bullet == "- ", content.hasPrefix("- [ ] ") || content.hasPrefix("- [x] ") { bullet = "" }
            let width = bullet.isEmpty ? 2 : min(bullet.count, isTodo ? 2 : bullet.count)
            let lines = content.split(separator: "\n", omittingEmptySubsequences: false)
            var item = bullet + (lines.first.map(String.init) ?? "")
            for line in lines.dropFirst() {
                item += "\n" + (line.isEmpty ? "" : String(repeating: " ", count: width) + line)
            }
            items.append(item)
        }
        return items.joined(separator: "\n")
    }

    private func indent(_ text: String, by width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "" : String(repeating: " ", count: width) + $0
        }.joined(separator: "\n")
    }

    /// A code block: the text as it is, a `div` or `br` a line, in a fence longer than any run of
    /// backticks inside.
    private func fence(_ children: [EnexNode]) -> [(String, Kind)] {
        var text = ""
        for child in children { raw(child, into: &text) }
        while text.hasSuffix("\n") { text.removeLast() }
        while text.hasPrefix("\n") { text.removeFirst() }
        guard !text.isEmpty else { return [] }
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let marker = String(repeating: "`", count: max(3, longest + 1))
        return [(marker + "\n" + text + "\n" + marker, .block)]
    }

    private func raw(_ node: EnexNode, into text: inout String) {
        switch node {
        case .text(let string):
            text += string.replacingOccurrences(of: "\r\n", with: "\n")
        case .element(let name, _, let children):
            if name == "br" {
                text += "\n"
                return
            }
            let isLine = Self.blockNames.contains(name)
            if isLine, !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
            for child in children { raw(child, into: &text) }
            if isLine, !text.hasSuffix("\n") { text += "\n" }
        }
    }

    /// A table as a pipe table, its first row the header; cells on one line, `|` escaped.
    private mutating func table(_ children: [EnexNode]) -> String {
        var rows: [[String]] = []
        func collect(_ nodes: [EnexNode]) {
            for node in nodes {
                guard case .element(let name, _, let grandchildren) = node else { continue }
                if name == "tr" {
                    var cells: [String] = []
                    for cell in grandchildren {
                        guard case .element(let cellName, _, let content) = cell,
                            cellName == "td" || cellName == "th"
                        else { continue }
                        cells.append(inlineLine(content).replacingOccurrences(of: "|", with: "\\|"))
                    }
                    rows.append(cells)
                } else if name != "table" {
                    collect(grandchildren)
                }
            }
        }
        collect(children)
        let width = rows.map(\.count).max() ?? 0
        guard width > 0 else { return "" }
        var lines: [String] = []
        for (i, row) in rows.enumerated() {
            let cells = row + Array(repeating: "", count: width - row.count)
            lines.append("| " + cells.joined(separator: " | ") + " |")
            if i == 0 { lines.append("|" + String(repeating: " --- |", count: width)) }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Inline

    /// Inline content on one line: what a heading or a table cell holds.
    private mutating func inlineLine(_ nodes: [EnexNode]) -> String {
        var text = ""
        for node in nodes { inline(node, into: &text) }
        return text.split(separator: "\n").map { trimSpaces($0) }.filter { !$0.isEmpty }.joined(
            separator: " ")
    }

    private mutating func inline(_ node: EnexNode, into out: inout String) {
        switch node {
        case .text(let string):
            let text = collapse(string)
            let blank = out.hasSuffix(" ") && text.hasPrefix(" ")
            let lineSoFar = out.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
            out += Self.escaped(
                blank ? String(text.dropFirst()) : text,
                atLineStart: markerDepth == 0 && lineSoFar.allSatisfy { $0 == " " })
        case .element(let name, let attributes, let children):
            switch name {
            case "br":
                out += "\n"
            case "b", "strong":
                appendBlank(wrap(children, "**"), to: &out)
            case "i", "em":
                appendBlank(wrap(children, "*"), to: &out)
            case "s", "strike", "del":
                appendBlank(wrap(children, "~~"), to: &out)
            case "code", "tt", "kbd":
                var text = ""
                for child in children { raw(child, into: &text) }
                out += Self.codeSpan(text.replacingOccurrences(of: "\n", with: " "))
            case "a":
                out += link(attributes["href"] ?? "", children)
            case "en-todo":
                let box = attributes["checked"] == "true" ? "[x] " : "[ ] "
                let lineSoFar = out.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
                out += lineSoFar.allSatisfy { $0 == " " } ? "- " + box : box
            case "en-media":
                let hash = (attributes["hash"] ?? "").lowercased()
                mediaUsed.append(hash)
                out += media[hash] ?? ""
            case "img":
                let source = attributes["src"] ?? ""
                let alt = attributes["alt"] ?? ""
                out +=
                    source.isEmpty || source.hasPrefix("data:")
                    ? Self.escaped(alt, atLineStart: false)
                    : "![\(Self.escaped(alt, atLineStart: false))](\(Self.destination(source)))"
            default:
                let isBlock = Self.blockNames.contains(name)
                if isBlock { out += "\n" }
                for child in children { inline(child, into: &out) }
                if isBlock { out += "\n" }
            }
        }
    }

    /// Appends inline text, one blank where a blank ends what is there and starts what comes.
    private func appendBlank(_ text: String, to out: inout String) {
        out += out.hasSuffix(" ") && text.hasPrefix(" ") ? String(text.dropFirst()) : text
    }

    /// Inline content between markers, the blanks at either end left outside them (`** a **` is
    /// not bold in Markdown), each line marked on its own.
    private mutating func wrap(_ children: [EnexNode], _ marker: String) -> String {
        var inner = ""
        markerDepth += 1
        for child in children { inline(child, into: &inner) }
        markerDepth -= 1
        return inner.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let core = trimSpaces(line)
            guard !core.isEmpty else { return String(line) }
            let leading = line.prefix { $0 == " " }
            let trailing = line.reversed().prefix { $0 == " " }
            return leading + marker + core + marker + String(trailing)
        }.joined(separator: "\n")
    }

    private mutating func link(_ href: String, _ children: [EnexNode]) -> String {
        var inner = ""
        markerDepth += 1
        for child in children { inline(child, into: &inner) }
        markerDepth -= 1
        let text = inner.split(separator: "\n").map { trimSpaces($0) }.filter { !$0.isEmpty }.joined(
            separator: " ")
        let target = href.trimmingCharacters(in: .whitespaces)
        if target.isEmpty { return text }
        if text.isEmpty || text == Self.escaped(target, atLineStart: false) { return "<\(target)>" }
        return "[\(text)](\(Self.destination(target)))"
    }

    /// A link destination as Markdown reads it: in angle brackets when it has blanks or brackets.
    static func destination(_ target: String) -> String {
        target.contains(where: { $0 == " " || $0 == "(" || $0 == ")" || $0 == "<" || $0 == ">" })
            ? "<"
                + target.replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
                + ">"
            : target
    }

    /// Text as Markdown shows it as it is: a backslash before each character that would be markup
    /// (emphasis, a link or wiki link, HTML, a character reference, code, strikethrough), an `_` inside a word left alone
    /// as Markdown never reads it as emphasis; at the start of a line also before what would start
    /// a heading, a list item, a quote or a setext underline (`1\.`, `\-`, `\#`).
    static func escaped(_ text: String, atLineStart: Bool) -> String {
        let characters = Array(text)
        var marked = Set<Int>()
        if atLineStart, let first = characters.firstIndex(where: { $0 != " " }) {
            var end = first
            switch characters[first] {
            case "-", "+":
                marked.insert(first)
            case "#":
                while end < characters.count, characters[end] == "#" { end += 1 }
                if end - first <= 6, end == characters.count || characters[end] == " " {
                    marked.insert(first)
                }
            case "=":
                if characters[first...].allSatisfy({ $0 == "=" || $0 == " " }) { marked.insert(first) }
            case "0"..."9":
                while end < characters.count, end - first < 9, characters[end].isASCII,
                    characters[end].isNumber
                {
                    end += 1
                }
                if end < characters.count, characters[end] == "." || characters[end] == ")" {
                    marked.insert(end)
                }
            default:
                break
            }
        }
        var out = ""
        for (i, character) in characters.enumerated() {
            switch character {
            case "\\", "*", "[", "]", "<", ">", "`", "~":
                out += "\\"
            case "&":
                // Only where it would start a character reference, which Markdown decodes.
                let rest = characters[(i + 1)...].prefix {
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#")
                }
                if !rest.isEmpty, i + 1 + rest.count < characters.count, characters[i + 1 + rest.count] == ";"
                {
                    out += "\\"
                }
            case "_":
                let inWord =
                    i > 0 && i + 1 < characters.count
                    && (characters[i - 1].isLetter || characters[i - 1].isNumber)
                    && (characters[i + 1].isLetter || characters[i + 1].isNumber)
                if !inWord { out += "\\" }
            default:
                if marked.contains(i) { out += "\\" }
            }
            out.append(character)
        }
        return out
    }

    /// Inline code: in a run of backticks longer than any inside it, blanks inside when it starts
    /// or ends with a backtick (which would otherwise join the run).
    static func codeSpan(_ code: String) -> String {
        guard !code.isEmpty else { return "" }
        var longest = 0
        var run = 0
        for character in code {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let marker = String(repeating: "`", count: longest + 1)
        let pad = code.hasPrefix("`") || code.hasSuffix("`") ? " " : ""
        return marker + pad + code + pad + marker
    }

    /// HTML's white space made one blank, and no-break spaces plain ones: the file is for reading.
    private func collapse(_ text: String) -> String {
        var out = ""
        var inBlank = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case " ", "\t", "\n", "\r":
                if !inBlank { out += " " }
                inBlank = true
            case "\u{00A0}":
                out += " "
                inBlank = false
            default:
                out.unicodeScalars.append(scalar)
                inBlank = false
            }
        }
        return out
    }

    private func trimSpaces(_ text: Substring) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
