import Foundation

/// The MyNotesApp SwiftData store, `default.store` (SQLite, with `-wal` and `-shm` beside it):
/// table `ZNOTE` with `ZCONTENT` and `ZCREATEDAT` (seconds since 2001), read with the `sqlite3`
/// command from a private copy of the three files — SQLite opening the app's own files, even
/// read-only, may checkpoint the WAL into the store and remove it. An entry's id is the store's
/// `Z_UUID` and the row's `Z_PK`, since `Z_PK` alone repeats in every store.
public enum MyNotesAppFormat: ImportFormat {
    public static let name = "mynotesapp"

    /// The query, as JSON (`sqlite3 -json`, 3.33 and later: list mode breaks on `|` and newlines).
    static let query = """
        SELECT (SELECT Z_UUID FROM Z_METADATA LIMIT 1) AS uuid, Z_PK AS pk, ZCONTENT AS content,
          ZCREATEDAT AS created FROM ZNOTE ORDER BY Z_PK;
        """

    public static func read(_ paths: [String]) throws(ImportSourceError) -> [ImportEntry] {
        let environment = ProcessInfo.processInfo.environment
        guard let sqlite = ProcessRunner.find("sqlite3", path: environment["PATH"]) else {
            throw ImportSourceError(
                file: paths.first ?? "", place: "",
                reason: "reading a SwiftData store needs the sqlite3 command; install it "
                    + "(the Debian and Ubuntu package 'sqlite3', or Homebrew's 'sqlite')")
        }
        var entries: [ImportEntry] = []
        for path in paths { entries += try read(store: path, sqlite: sqlite, environment: environment) }
        return entries
    }

    /// The notes of one store, read from a copy of it.
    static func read(store: String, sqlite: String, environment: [String: String]) throws(ImportSourceError)
        -> [ImportEntry]
    {
        let rows = try withPrivateCopy(of: store) { copy throws(ImportSourceError) in
            // Checked here, so that a file that is no store is named as such whatever sqlite3 says.
            guard (try? FileSystem.read(copy).0.starts(with: Array("SQLite format 3\0".utf8))) == true else {
                throw ImportSourceError(
                    file: store, place: "its first 16 bytes",
                    reason: "not a SQLite database (one starts with 'SQLite format 3')")
            }
            let result: ProcessResult
            do {
                result = try ProcessRunner.run(
                    sqlite, ["-json", "-bail", "-batch", copy, query], environment: environment)
            } catch {
                throw ImportSourceError(file: store, place: "", reason: "sqlite3 could not be run: \(error)")
            }
            guard result.status == 0 else {
                let said = result.errorText.trimmingCharacters(in: .whitespacesAndNewlines)
                let reason =
                    said.contains("no such table") || said.contains("no such column")
                    ? "not a MyNotesApp store (sqlite3: \(said))" : "sqlite3 could not read it: \(said)"
                throw ImportSourceError(file: store, place: "", reason: reason)
            }
            return result.stdout
        }
        // No rows: sqlite3 prints nothing at all.
        guard rows.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            return []
        }
        guard let items = try ImportSourceFile.json(rows, file: store, within: "sqlite3's output").arrayValue
        else {
            throw ImportSourceError(file: store, place: "", reason: "sqlite3 printed no JSON array")
        }
        var entries: [ImportEntry] = []
        for item in items {
            let pk = item["pk"]?.intValue
            let place = "ZNOTE row \(pk.map(String.init) ?? "?")"
            guard let pk, let uuid = item["uuid"]?.stringValue, !uuid.isEmpty else {
                throw ImportSourceError(
                    file: store, place: place, reason: "no Z_PK, or no Z_UUID in Z_METADATA")
            }
            let content = try ImportSourceFile.string("content", of: item, file: store, place: place)
            entries.append(
                ImportEntry(
                    sourceID: uuid + "/" + String(pk), title: nil, body: Content.editable(content ?? ""),
                    createdAt: try ImportSourceFile.date(
                        item["created"], since: ImportSourceFile.epoch2001, file: store, place: place)))
        }
        return entries
    }

    /// Runs `body` with the path of a copy of `store` and its `-wal` and `-shm` in a private
    /// temporary folder, removed after; the app's files are only read.
    static func withPrivateCopy<T>(of store: String, _ body: (String) throws(ImportSourceError) -> T)
        throws(ImportSourceError) -> T
    {
        guard FileSystem.status(store) != nil || FileSystem.realPath(store) != nil else {
            throw ImportSourceError(file: store, place: "", reason: "no such file")
        }
        let folder: String
        do {
            folder = try FileSystem.makeTemporaryDirectory(NSTemporaryDirectory() + "/notes-import-XXXXXX")
        } catch {
            throw ImportSourceError(
                file: store, place: "", reason: "no private copy could be made: \(error.brief)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/default.store"
        for suffix in ["", "-wal", "-shm"] {
            let source = store + suffix
            guard suffix.isEmpty || FileSystem.status(source) != nil else { continue }
            let bytes = try ImportSourceFile.bytes(source)
            guard FileManager.default.createFile(atPath: copy + suffix, contents: Data(bytes)) else {
                throw ImportSourceError(
                    file: source, place: "", reason: "no private copy could be made in \(folder)")
            }
        }
        return try body(copy)
    }
}
