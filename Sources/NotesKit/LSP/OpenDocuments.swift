/// The documents an editor has open: their text as typed, which every feature reads instead of
/// the file, and their version.
public struct OpenDocuments: Sendable {
    /// An open document.
    public struct Document: Sendable {
        /// The text as the editor has it.
        public var text: String
        /// The editor's version number.
        public var version: Int
    }

    private var documents: [String: Document] = [:]

    public init() {}

    /// The open document at `uri`.
    public subscript(uri: String) -> Document? { documents[uri] }

    /// The URIs of the open documents, sorted.
    public var uris: [String] { documents.keys.sorted() }

    /// Opens `uri` with `text`.
    public mutating func open(_ uri: String, text: String, version: Int) {
        documents[uri] = Document(text: text, version: version)
    }

    /// Closes `uri`.
    public mutating func close(_ uri: String) { documents[uri] = nil }

    /// A change: the whole text, or the text between two positions replaced.
    public struct Change: Sendable {
        /// The replaced range's start and end (line, column); nil for the whole text.
        public var range: (start: (line: Int, column: Int), end: (line: Int, column: Int))?
        /// The new text.
        public var text: String

        public init(range: (start: (line: Int, column: Int), end: (line: Int, column: Int))?, text: String) {
            self.range = range
            self.text = text
        }
    }

    /// Applies `changes` in order to an open document; false when it is not open.
    public mutating func change(
        _ uri: String, version: Int, changes: [Change], encoding: PositionEncoding
    ) -> Bool {
        guard var document = documents[uri] else { return false }
        for change in changes {
            guard let range = change.range else {
                document.text = change.text
                continue
            }
            let positions = TextPositions(document.text)
            let start = positions.offset(
                line: range.start.line, column: range.start.column, encoding: encoding)
            let end = max(
                start, positions.offset(line: range.end.line, column: range.end.column, encoding: encoding))
            var bytes = positions.bytes
            bytes.replaceSubrange(start..<end, with: Array(change.text.utf8))
            document.text = String(decoding: bytes, as: UTF8.self)
        }
        document.version = version
        documents[uri] = document
        return true
    }
}
