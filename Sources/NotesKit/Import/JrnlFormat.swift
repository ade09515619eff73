import Foundation

/// jrnl's `jrnl --export json`: `{"tags": {…}, "entries": [{"date", "time", "title", "body",
/// "tags", "starred", "uuid"?}]}`, the date and time in the time zone the journal was written in.
public enum JrnlFormat: ImportFormat {
    public static let name = "jrnl"

    public static func read(_ paths: [String]) throws(ImportSourceError) -> [ImportEntry] {
        try read(paths, timeZone: .current)
    }

    /// The entries, their dates and times read in `timeZone` (jrnl writes local time).
    static func read(_ paths: [String], timeZone: TimeZone) throws(ImportSourceError) -> [ImportEntry] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var entries: [ImportEntry] = []
        for path in paths {
            let document = try ImportSourceFile.json(ImportSourceFile.bytes(path), file: path)
            guard let items = document["entries"]?.arrayValue else {
                throw ImportSourceError(
                    file: path, place: "the top level",
                    reason: "it has no 'entries' list: is it the output of 'jrnl --export json'?")
            }
            for (index, item) in items.enumerated() {
                entries.append(try entry(item, calendar: calendar, file: path, place: "entry \(index + 1)"))
            }
        }
        return entries
    }

    private static func entry(_ item: JSONValue, calendar: Calendar, file: String, place: String)
        throws(ImportSourceError) -> ImportEntry
    {
        guard item.isObject else {
            throw ImportSourceError(file: file, place: place, reason: "it is not an object")
        }
        func string(_ key: String) throws(ImportSourceError) -> String {
            guard let value = item[key]?.stringValue else {
                throw ImportSourceError(file: file, place: place, reason: "it has no '\(key)' string")
            }
            return value
        }
        let day = try string("date")
        let time = try string("time")
        let title = try string("title").replacingOccurrences(of: "\r\n", with: "\n")
        let body = try string("body").replacingOccurrences(of: "\r\n", with: "\n")
        guard let created = date(day, time, calendar: calendar) else {
            throw ImportSourceError(
                file: file, place: place,
                reason: "its date and time '\(day) \(time)' are not of the form 2025-03-10 and 10:15")
        }
        var tags: [String] = []
        for tag in item["tags"]?.arrayValue ?? [] {
            guard let text = tag.stringValue else { continue }
            let name = text.first == "@" || text.first == "#" ? String(text.dropFirst()) : text
            if !name.isEmpty, !tags.contains(name) { tags.append(name) }
        }
        if item["starred"]?.boolValue == true, !tags.contains("starred") { tags.append("starred") }
        let trimmedTitle = title.trimmingCharacters(in: .whitespacesAndNewlines)
        return ImportEntry(
            sourceID: item["uuid"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                ?? sourceID(date: day, time: time, title: title, body: body),
            title: trimmedTitle.isEmpty ? nil : trimmedTitle, body: body, createdAt: created, tags: tags)
    }

    /// The id of an entry without a `uuid` (every journal but Day One's): its date, `T`, its time,
    /// `-`, and the first 12 hexadecimal digits of the MD5 of the UTF-8 of its title, a line feed
    /// and its body, as exported: `2025-03-10T10:15-0123456789ab`.
    static func sourceID(date: String, time: String, title: String, body: String) -> String {
        date + "T" + time + "-" + MD5.hex(title + "\n" + body).prefix(12)
    }

    /// `2025-03-10` and `10:15` as an instant of `calendar`'s time zone; a time that zone skips
    /// (a spring-forward gap) is the one the calendar moves it to, an hour later.
    static func date(_ day: String, _ time: String, calendar: Calendar) -> Date? {
        let dayParts = day.split(separator: "-", omittingEmptySubsequences: false)
        let timeParts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard dayParts.count == 3, timeParts.count == 2 || timeParts.count == 3,
            dayParts[0].count == 4, dayParts[1].count == 2, dayParts[2].count == 2,
            timeParts.allSatisfy({ $0.count == 2 }),
            let year = Int(dayParts[0]), let month = Int(dayParts[1]), let dayOfMonth = Int(dayParts[2]),
            let hour = Int(timeParts[0]), let minute = Int(timeParts[1]),
            (1...12).contains(month), (1...31).contains(dayOfMonth), (0..<24).contains(hour),
            (0..<60).contains(minute)
        else { return nil }
        let second = timeParts.count == 3 ? Int(timeParts[2]) : 0
        guard let second, (0..<60).contains(second) else { return nil }
        let components = DateComponents(
            year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == dayOfMonth
        else { return nil }
        return date
    }
}
