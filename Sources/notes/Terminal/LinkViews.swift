import NotesKit

/// Renders `notes tags`: tags and counts in, text out. Human: the tag, then its count
/// dimmer, one per line, cut to the width. Piped: `TAG<TAB>COUNT`. JSON: `[{"tag", "count"}]`.
enum TagsView {
    static func render(_ tags: [TagCount], json: Bool, style: OutputStyle) -> ListView.Text {
        if json {
            return ListView.Text(
                stdout: JSONText.array(
                    tags.map { tag in
                        .object([("tag", .string(tag.tag)), ("count", .number(tag.count))])
                    }
                ).rendered)
        }
        if tags.isEmpty && style.human { return ListView.Text(stdout: "", notice: "No tags yet.") }
        guard style.human else {
            return ListView.Text(
                stdout: tags.map { ANSI.printable($0.tag) + "\t" + String($0.count) + "\n" }.joined())
        }
        let codes = RowCodes(style)
        let counts = tags.map { String($0.count) }
        let countWidth = counts.map(\.count).max() ?? 0
        let names = tags.map { ANSI.printable($0.tag) }
        let nameWidth = min(names.map(DisplayWidth.of).max() ?? 0, max(1, style.width - countWidth - 2))
        var out = ""
        for (name, count) in zip(names, counts) {
            let shown = DisplayWidth.pad(DisplayWidth.truncate(name, to: nameWidth), to: nameWidth)
            let padding = String(repeating: " ", count: countWidth - count.count)
            out += shown + "  " + codes.dim + padding + count + codes.reset + "\n"
        }
        return ListView.Text(stdout: out)
    }
}

/// Renders `notes links ID`: each link with where it goes. Human: `LINE  TEXT → ID` (a file's
/// path for an attachment link; `(broken: …)` with why), the line and arrow dimmer. Piped:
/// `LINE<TAB>ID<TAB>TEXT`, the ID (or file) empty when broken. JSON: line, text, target, heading,
/// id, path, title of the note it goes to (null when none), file (an attachment's path, or null),
/// broken, reason (`no-note`, `missing-heading`, `missing-block`, `no-file`, or null).
enum LinksView {
    static func render(_ links: [ResolvedLink], json: Bool, style: OutputStyle) -> ListView.Text {
        if json {
            return ListView.Text(
                stdout: JSONText.array(
                    links.map { resolved in
                        let link = resolved.link
                        return .object(
                            [
                                ("line", .number(link.line)), ("text", .string(link.text)),
                                ("target", .string(link.target)),
                                ("heading", .optional(link.heading)),
                            ] + JSONText.noteIdentity(resolved.note) + [
                                ("file", .optional(resolved.file)),
                                ("broken", .bool(resolved.isBroken)),
                                ("reason", .optional(resolved.problem?.rawValue)),
                            ])
                    }
                ).rendered)
        }
        if links.isEmpty && style.human { return ListView.Text(stdout: "", notice: "No links in this note.") }
        guard style.human else {
            return ListView.Text(
                stdout: links.map { resolved in
                    let destination = resolved.isBroken ? "" : resolved.note?.id ?? resolved.file ?? ""
                    return String(resolved.link.line) + "\t" + ANSI.printable(destination) + "\t"
                        + ANSI.printable(resolved.link.text) + "\n"
                }.joined())
        }
        let codes = RowCodes(style)
        let lineWidth = links.map { String($0.link.line).count }.max() ?? 0
        return ListView.Text(
            stdout: links.map { resolved in
                let line = String(resolved.link.line)
                let head =
                    codes.dim + String(repeating: " ", count: lineWidth - line.count) + line + codes.reset
                    + "  "
                let id = (resolved.note?.id ?? resolved.file).map { ANSI.printable($0) }
                let problem = resolved.problem.map { " (broken: " + $0.brief + ")" } ?? ""
                let target =
                    (id.map { codes.dim + " → " + codes.reset + $0 } ?? "")
                    + (problem.isEmpty ? "" : codes.dim + problem + codes.reset)
                let targetWidth = (id.map { 3 + DisplayWidth.of($0) } ?? 0) + DisplayWidth.of(problem)
                let room = max(10, style.width - lineWidth - 2 - targetWidth)
                return head + DisplayWidth.truncate(ANSI.printable(resolved.link.text), to: room) + target
                    + "\n"
            }.joined())
    }
}

/// Renders links found in notes — `notes backlinks ID` and `notes links --broken`: the linking
/// note and the link's line and text, and for a broken link why. Human: `ID:LINE  TEXT`, the place
/// dimmer, then `(no such note)` or the like, dimmer. Piped: `ID<TAB>LINE<TAB>TEXT`. JSON: id,
/// path, title of the linking note, line, text, and for a broken link reason.
enum LinkSitesView {
    static func render(_ sites: [LinkSite], json: Bool, style: OutputStyle, none: String) -> ListView.Text {
        if json {
            return ListView.Text(
                stdout: JSONText.array(
                    sites.map { site in
                        .object(
                            JSONText.noteIdentity(site.source) + [
                                ("line", .number(site.line)), ("text", .string(site.text)),
                            ] + (site.problem.map { [("reason", .string($0.rawValue))] } ?? []))
                    }
                ).rendered)
        }
        if sites.isEmpty && style.human { return ListView.Text(stdout: "", notice: none) }
        guard style.human else {
            return ListView.Text(
                stdout: sites.map { site in
                    ANSI.printable(site.source.id) + "\t" + String(site.line) + "\t"
                        + ANSI.printable(site.text) + "\n"
                }.joined())
        }
        let codes = RowCodes(style)
        let places = sites.map { ANSI.printable($0.source.id) + ":" + String($0.line) }
        let width = min(places.map(DisplayWidth.of).max() ?? 0, max(10, style.width / 2))
        return ListView.Text(
            stdout: zip(sites, places).map { site, place in
                let shown = DisplayWidth.pad(DisplayWidth.truncate(place, to: width), to: width)
                let problem = site.problem.map { "  (" + $0.brief + ")" } ?? ""
                let room = max(1, style.width - width - 2 - DisplayWidth.of(problem))
                return codes.dim + shown + codes.reset + "  "
                    + DisplayWidth.truncate(ANSI.printable(site.text), to: room)
                    + (problem.isEmpty ? "" : codes.dim + problem + codes.reset) + "\n"
            }.joined())
    }
}

extension LinkProblem {
    /// Why a link is broken, in a few words.
    var brief: String {
        switch self {
        case .noNote: "no such note"
        case .missingHeading: "no such heading"
        case .missingBlock: "no such block"
        case .noFile: "no such file"
        }
    }
}

/// Renders what `notes move` did or, with `--dry-run`, would do: a sentence with the counts, then
/// each rewritten link as `ID:LINE  OLD → NEW`.
enum MoveView {
    static func plan(_ plan: MovePlan) -> String {
        "Would move '\(ANSI.printable(plan.note.id))' to '\(ANSI.printable(plan.toID))'"
            + (plan.notes.isEmpty
                ? "; no link to rewrite.\n"
                : " and rewrite \(counts(plan.linkCount, plan.notes.count)):\n")
            + lines(plan.notes)
    }

    static func report(_ report: MoveReport) -> String {
        "Moved '\(ANSI.printable(report.plan.note.id))' to '\(ANSI.printable(report.plan.toID))'"
            + (report.rewritten.isEmpty
                ? "; no link rewritten.\n"
                : "; rewrote \(counts(report.linkCount, report.rewritten.count)):\n")
            + lines(report.rewritten)
    }

    /// `3 links in 2 notes`.
    private static func counts(_ links: Int, _ notes: Int) -> String {
        "\(links) link\(links == 1 ? "" : "s") in \(notes) note\(notes == 1 ? "" : "s")"
    }

    private static func lines(_ notes: [NoteRewrites]) -> String {
        notes.flatMap { note in
            note.rewrites.map { rewrite in
                "  " + ANSI.printable(note.id) + ":" + String(rewrite.line) + "  "
                    + ANSI.printable(rewrite.old) + " → "
                    + ANSI.printable(rewrite.new) + "\n"
            }
        }.joined()
    }
}
