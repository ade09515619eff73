/// A commit of note files: exactly these vault-relative paths, with this message.
public struct CommitPlan: Equatable, Sendable {
    /// `notes: add shopping-list`, `notes: delete a, b`, …; a list of the changes follows the
    /// subject when there are several.
    public var message: String
    /// The vault-relative paths the changes touched, each once, in order.
    public var paths: [String]

    /// The commit for the change records of one command (or the pending changes `sync` finds);
    /// nil when there are none.
    public init?(_ changes: [Change]) {
        guard !changes.isEmpty else { return nil }
        var paths: [String] = []
        for path in changes.flatMap(\.paths) where !paths.contains(path) { paths.append(path) }
        self.paths = paths
        // The vault's own files (a `.gitignore` brought up to date) go along with the notes
        // without a word; only a commit of nothing else names them.
        let notes = changes.filter { if case .vaultFile = $0 { false } else { true } }
        guard !notes.isEmpty else {
            let settings = paths.contains(Vault.settingsPath)
            message = "notes: update " + (settings ? "the vault's settings" : paths.joined(separator: ", "))
            return
        }
        let changes = Self.merged(notes)
        let verbs = changes.map(CommitPlan.verb)
        let subjects = changes.map(CommitPlan.subject)
        let rewrites = changes.compactMap { change -> Int? in
            if case .rewroteLinks(_, let count) = change { return count }
            return nil
        }
        if case .moved = changes[0], changes.count > 1, rewrites.count == changes.count - 1 {
            // One move and the links it rewrote: what `notes move` printed.
            let links = rewrites.reduce(0, +)
            message =
                "notes: move \(subjects[0]) (rewrote \(links) link\(links == 1 ? "" : "s") in "
                + "\(rewrites.count) note\(rewrites.count == 1 ? "" : "s"))"
        } else if changes.count == 1 {
            message = "notes: " + verbs[0] + " " + subjects[0]
        } else if Set(verbs).count == 1 {
            // `sync` commits the attachments notes link to with them: files, not notes.
            let noun = paths.allSatisfy(Vault.isNoteName) ? "notes" : "files"
            let list = subjects.count <= 3 ? subjects.joined(separator: ", ") : "\(subjects.count) \(noun)"
            message = "notes: " + verbs[0] + " " + list
            if subjects.count > 3 { message += "\n\n" + subjects.map { "- " + $0 }.joined(separator: "\n") }
        } else {
            message =
                "notes: \(changes.count) changes\n\n"
                + zip(verbs, subjects).map { "- " + $0 + " " + $1 }.joined(separator: "\n")
        }
    }

    /// `changes` with each rewrite of a file that an earlier change made, put back or rewrote left
    /// out: a note made and then edited by one command (`notes today` making the day's note, then
    /// the editor) was added, and says so once.
    static func merged(_ changes: [Change]) -> [Change] {
        var written: Set<String> = []
        var kept: [Change] = []
        for change in changes {
            switch change {
            case .modified(let path):
                guard written.insert(path).inserted else { continue }
            case .added(let path), .imported(let path), .restored(let path):
                written.insert(path)
            default:
                break
            }
            kept.append(change)
        }
        return kept
    }

    /// What a change did, as a verb of the command line.
    static func verb(_ change: Change) -> String {
        switch change {
        case .added: "add"
        case .imported: "import"
        case .modified: "edit"
        case .removed: "delete"
        case .restored: "restore"
        case .moved: "move"
        case .rewroteLinks: "rewrite links in"
        case .vaultFile: "update"
        }
    }

    /// The notes a change is about, by ID.
    static func subject(_ change: Change) -> String {
        switch change {
        case .added(let path), .imported(let path), .modified(let path), .removed(let path),
            .restored(let path),
            .rewroteLinks(let path, _):
            Note.id(forPath: path)
        case .moved(let from, let to):
            Note.id(forPath: from) + " to " + Note.id(forPath: to)
        case .vaultFile(let path): path
        }
    }
}
