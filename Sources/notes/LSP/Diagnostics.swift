import Foundation
import NotesKit

/// The problems of the documents an editor has open, published as `textDocument/publishDiagnostics`
/// (source `notes`): broken links — to no note, a missing heading or block, no file — as
/// `notes links --broken` finds them, conflict markers, and front-matter problems. Each document's
/// list is made again a moment after it changes (`delay`, so a burst of changes is checked once),
/// after any open document changes (its headings may mend another's link) and after the vault's
/// catalog changes, and is sent only when it differs from the one last sent.
final class DiagnosticsPublisher {
    /// Seconds after a change before the diagnostics are made: short enough for the change to
    /// feel checked at once, long enough to take a burst of changes as one.
    static let delay = 0.02

    /// When each document's diagnostics are due (seconds of uptime).
    private var due: [String: Double] = [:]
    /// The diagnostics last sent for each open document.
    private var published: [String: JSONValue] = [:]
    /// The checker of the catalog last used, and its generation.
    private var health: (generation: Int, check: BufferLinkHealth)?

    static var now: Double { ProcessInfo.processInfo.systemUptime }

    /// The soonest time diagnostics are due, if any are.
    var nextDeadline: Double? { due.values.min() }

    /// Makes `uri`'s diagnostics due after `delay` (0: at once).
    func schedule(_ uri: String, after delay: Double = DiagnosticsPublisher.delay) {
        let at = Self.now + delay
        due[uri] = min(due[uri] ?? at, at)
    }

    /// Makes every open document's diagnostics due.
    func scheduleAll(_ features: LanguageFeatures, after delay: Double = DiagnosticsPublisher.delay) {
        for uri in features.documents.uris { schedule(uri, after: delay) }
    }

    /// A closed document: its diagnostics are cleared (the message that clears them).
    func closed(_ uri: String) -> JSONValue {
        due[uri] = nil
        published[uri] = nil
        return Self.message(uri, .array([]))
    }

    /// The messages for the documents whose diagnostics are due (all of them with `force`), each
    /// sent only when it differs from the last one (or with `force`).
    func take(_ features: LanguageFeatures, force: Bool = false) -> [JSONValue] {
        let now = Self.now
        let ready = force ? features.documents.uris : due.filter { $0.value <= now }.map(\.key).sorted()
        guard !ready.isEmpty else { return [] }
        for uri in ready { due[uri] = nil }
        var messages: [JSONValue] = []
        for uri in ready where features.documents[uri] != nil {
            let list = JSONValue.array(diagnostics(uri, features))
            guard force || published[uri] != list else { continue }
            published[uri] = list
            messages.append(Self.message(uri, list))
        }
        return messages
    }

    private static func message(_ uri: String, _ list: JSONValue) -> JSONValue {
        .object([
            "jsonrpc": .string("2.0"), "method": .string("textDocument/publishDiagnostics"),
            "params": .object(["uri": .string(uri), "diagnostics": list]),
        ])
    }

    /// The diagnostics of the open document at `uri`, in the order of their lines.
    func diagnostics(_ uri: String, _ features: LanguageFeatures) -> [JSONValue] {
        guard let text = features.documents[uri]?.text else { return [] }
        let document = NoteDocument(parsing: text)
        let positions = TextPositions(text)
        var found: [(start: Int, value: JSONValue)] = []
        func add(_ bytes: Range<Int>, _ severity: Int, _ code: String, _ message: String) {
            found.append(
                (
                    bytes.lowerBound,
                    .object([
                        "range": Self.range(bytes, positions, features.encoding), "severity": .int(severity),
                        "code": .string(code), "source": .string("notes"), "message": .string(message),
                    ])
                ))
        }
        for warning in document.warnings + document.dateWarnings() {
            add(positions.lineRange(warning.line - 1), 2, "front-matter", warning.message)
        }
        if let line = Self.conflictLine(positions) {
            add(positions.lineRange(line), 1, "conflict-markers", "Conflict markers: merge the two versions.")
        }
        for (link, bytes, problem) in brokenLinks(uri, document: document, text: text, features) {
            let code = problem == .noNote || problem == .noFile ? "broken-link" : problem.rawValue
            add(bytes, 2, code, Self.explanation(link, problem))
        }
        return found.enumerated().sorted {
            $0.element.start == $1.element.start ? $0.offset < $1.offset : $0.element.start < $1.element.start
        }.map(\.element.value)
    }

    /// The broken links of an open document in the vault, with their byte ranges in its text.
    private func brokenLinks(
        _ uri: String, document: NoteDocument, text: String, _ features: LanguageFeatures
    ) -> [(NoteLink, Range<Int>, LinkProblem)] {
        guard let source = features.vaultPath(of: uri), let snapshot = features.snapshot() else { return [] }
        let check: BufferLinkHealth
        if let health, health.generation == snapshot.generation {
            check = health.check
        } else {
            check = BufferLinkHealth(catalog: snapshot.catalog)
            health = (snapshot.generation, check)
        }
        // The headings of the other open documents count as typed.
        var open: [String: NoteAnchors] = [:]
        for other in features.documents.uris where other != uri {
            guard let path = features.vaultPath(of: other), let text = features.documents[other]?.text else {
                continue
            }
            open[path] = NoteAnchors.of(NoteDocument(parsing: text))
        }
        let own = NoteAnchors.of(document)
        let bodyStart = text.utf8.count - document.body.utf8.count
        var broken: [(NoteLink, Range<Int>, LinkProblem)] = []
        for link in NoteLinks.all(document) {
            guard let problem = check.problem(of: link, from: source, own: own, openAnchors: { open[$0] })
            else {
                continue
            }
            broken.append(
                (link, (link.range.lowerBound + bodyStart)..<(link.range.upperBound + bodyStart), problem))
        }
        return broken
    }

    private static func explanation(_ link: NoteLink, _ problem: LinkProblem) -> String {
        switch problem {
        case .noNote: return "No note named '\(link.decodedTarget)'."
        case .noFile: return "No file named '\(link.decodedTarget)'."
        case .missingHeading: return "'\(link.decodedTarget)' has no heading '\(link.heading ?? "")'."
        case .missingBlock: return "'\(link.decodedTarget)' has no block '\(link.heading ?? "")'."
        }
    }

    /// The 0-based line of the first `<<<<<<<` line that a `>>>>>>>` line follows, if any.
    static func conflictLine(_ positions: TextPositions) -> Int? {
        var opened: Int?
        for line in 0..<positions.lineCount {
            let range = positions.lineRange(line)
            guard range.count >= 7 else { continue }
            let start = positions.bytes[range.lowerBound..<(range.lowerBound + 7)]
            if opened == nil, start.allSatisfy({ $0 == UInt8(ascii: "<") }) {
                opened = line
            } else if opened != nil, start.allSatisfy({ $0 == UInt8(ascii: ">") }) {
                return opened
            }
        }
        return nil
    }

    static func range(_ bytes: Range<Int>, _ positions: TextPositions, _ encoding: PositionEncoding)
        -> JSONValue
    {
        let start = positions.position(of: bytes.lowerBound, encoding: encoding)
        let end = positions.position(of: bytes.upperBound, encoding: encoding)
        return .object([
            "start": .object(["line": .int(start.line), "character": .int(start.column)]),
            "end": .object(["line": .int(end.line), "character": .int(end.column)]),
        ])
    }
}

extension LanguageFeatures {
    /// Makes and sends the diagnostics of every open document again, now, with the vault read
    /// afresh first: for a feature that changed the vault itself (a note created for a broken
    /// link).
    func republishDiagnostics() { republish() }
}
