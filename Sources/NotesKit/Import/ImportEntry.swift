import Foundation

/// One entry read from another app's export, before it becomes a note.
public struct ImportEntry: Sendable, Equatable {
    /// The entry's id in the source: the note's `importedFrom` is `<format>:<sourceID>`.
    public var sourceID: String
    /// The title, put first as `# title` when there is one.
    public var title: String?
    /// The body in Markdown, with LF line endings.
    public var body: String
    public var createdAt: Date?
    public var updatedAt: Date?
    public var tags: [String]
    /// Files written with the note, linked from the body by these same paths.
    public var attachments: [ImportAttachment]
    /// What was wrong with the entry but did not stop it, in sentences for the user (a file it
    /// names that is missing): the note is imported without what is missing.
    public var warnings: [String]

    public init(
        sourceID: String, title: String?, body: String, createdAt: Date?, updatedAt: Date? = nil,
        tags: [String] = [], attachments: [ImportAttachment] = [], warnings: [String] = []
    ) {
        self.sourceID = sourceID
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.tags = tags
        self.attachments = attachments
        self.warnings = warnings
    }
}

/// A file that comes with an imported note, its path relative to the folder the notes go to.
public struct ImportAttachment: Sendable, Equatable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// Where a source stopped parsing: the file, the place in it (`entry 3`, `line 12, column 5`), and why.
public struct ImportSourceError: Error, Equatable, Sendable {
    public var file: String
    public var place: String
    public var reason: String

    public init(file: String, place: String, reason: String) {
        self.file = file
        self.place = place
        self.reason = reason
    }
}

/// One app's export format: reads its sources whole, or fails before anything is written.
public protocol ImportFormat {
    /// The FORMAT word of `notes import`.
    static var name: String { get }
    /// Every entry of the given paths that is not trashed, in source order; empty ones included
    /// (the importer skips and counts them).
    static func read(_ paths: [String]) throws(ImportSourceError) -> [ImportEntry]
}
