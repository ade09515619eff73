import Foundation

/// What the formats share in reading a source: its bytes, JSON with the line and column where it
/// breaks, and the dates the apps write.
enum ImportSourceFile {
    /// The whole file at `path` (symlinks followed: a source is the user's file, anywhere).
    static func bytes(_ path: String) throws(ImportSourceError) -> [UInt8] {
        do {
            return try FileSystem.read(path, followSymlinks: true).0
        } catch {
            throw ImportSourceError(file: path, place: "", reason: error.brief)
        }
    }

    /// `bytes` as JSON; a parse error names its line and column (after `within`, when the JSON
    /// is inside something else: `key 'notes'`).
    static func json(_ bytes: [UInt8], file: String, within: String = "") throws(ImportSourceError)
        -> JSONValue
    {
        do {
            return try JSONValue.parse(bytes)
        } catch {
            let (line, column) = position(of: error.offset, in: bytes)
            let place = (within.isEmpty ? "" : within + ", ") + "line \(line), column \(column)"
            let reason = error.reason.hasSuffix(".") ? String(error.reason.dropLast()) : error.reason
            throw ImportSourceError(
                file: file, place: place, reason: reason.prefix(1).lowercased() + reason.dropFirst())
        }
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        let end = min(max(offset, 0), bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        // Continuation bytes of UTF-8 are no column of their own.
        let column = bytes[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count + 1
        return (line, column)
    }

    /// A date as the apps write one: a number of seconds since `epoch` (1970, or 2001 as
    /// `JSONEncoder` writes a `Date`), or an ISO 8601 string; nil for null or absent. Anything
    /// else is an error at `place`.
    static func date(
        _ value: JSONValue?, since epoch: Double, file: String, place: String
    ) throws(ImportSourceError) -> Date? {
        switch value {
        case nil, .null?: return nil
        case .number(let seconds)?:
            guard seconds.isFinite else { break }
            return Date(timeIntervalSince1970: epoch + seconds)
        case .string(let text)?:
            guard let seconds = NoteDate.parse(text, timeZone: TimeZone(identifier: "UTC") ?? .current)
            else { break }
            return Date(timeIntervalSince1970: seconds)
        default: break
        }
        throw ImportSourceError(
            file: file, place: place, reason: "a date that is neither a number nor ISO 8601")
    }

    /// Seconds from 1970 to 2001-01-01, the epoch of `Date`'s reference date.
    static let epoch2001 = Date.timeIntervalBetween1970AndReferenceDate

    /// The string at `key` of `object`; nil when absent or null; an error when another type.
    static func string(
        _ key: String, of object: JSONValue, file: String, place: String
    ) throws(ImportSourceError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw ImportSourceError(file: file, place: place, reason: "'\(key)' is not a string")
        }
    }
}
