#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation

/// One entry of a temporary folder tree laid out by `Playground`.
enum PlaygroundItem: Sendable {
    /// A file holding UTF-8 text.
    case file(String, String)
    /// A file holding raw bytes (for files that are not UTF-8).
    case bytes(String, [UInt8])
    /// A folder and what is in it.
    case directory(String, [PlaygroundItem])
    /// A symbolic link to `destination` (relative to the link, or absolute).
    case symlink(String, to: String)
}

/// Errors of the test helper itself, so a broken setup fails loudly instead of testing nothing.
enum PlaygroundError: Error, CustomStringConvertible {
    case setup(String)

    var description: String {
        switch self {
        case .setup(let what): return "playground setup failed: \(what)"
        }
    }
}

/// A real temporary folder tree for one test, removed when the test is done (after
/// swift-foundation's `FileManagerPlayground`). No mocks: the code under test sees real files.
/// The tree lives under the system temporary folder, never under the home directory.
struct Playground {
    /// What to lay out at the root.
    let items: [PlaygroundItem]

    /// A playground holding `items`.
    init(_ items: [PlaygroundItem] = []) {
        self.items = items
    }

    /// Lays out the tree in a fresh folder, runs `body` with that folder's canonical absolute
    /// path, then removes the folder whatever happens.
    @discardableResult
    func test<R>(_ body: (String) throws -> R) throws -> R {
        let root = try Self.makeRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for item in items { try Self.create(item, in: root) }
        return try body(root)
    }

    private static func makeRoot() throws -> String {
        var base = NSTemporaryDirectory()
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/NotesKitTests-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkdtemp($0) } ?? nil
        }
        guard made != nil else { throw PlaygroundError.setup("mkdtemp in \(base)") }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Canonical, so that paths the library computes (realpath) compare equal (/tmp vs /private/tmp).
        guard let resolved = realpath(path, nil) else { throw PlaygroundError.setup("realpath \(path)") }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func create(_ item: PlaygroundItem, in folder: String) throws {
        let manager = FileManager.default
        switch item {
        case .file(let name, let text):
            try write(Array(text.utf8), to: folder + "/" + name)
        case .bytes(let name, let bytes):
            try write(bytes, to: folder + "/" + name)
        case .directory(let name, let children):
            let path = folder + "/" + name
            try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            for child in children { try create(child, in: path) }
        case .symlink(let name, let destination):
            try manager.createSymbolicLink(atPath: folder + "/" + name, withDestinationPath: destination)
        }
    }

    private static func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw PlaygroundError.setup("could not write \(path)")
        }
    }
}

/// Small file helpers for assertions.
enum Disk {
    /// The bytes of a file, or nil when it cannot be read.
    static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// The text of a file, or nil when it cannot be read or is not UTF-8.
    static func text(_ path: String) -> String? {
        bytes(path).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// Whether something (a file, folder or link, even a dangling one) is at `path`.
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// The names in a folder, sorted; empty when it cannot be read.
    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
