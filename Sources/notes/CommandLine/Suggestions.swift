/// "Did you mean" for typed words: commands, options and choices.
enum Suggestions {
    /// Words people try that mean one of our commands.
    static let synonyms = [
        "remove": "delete", "del": "delete", "create": "add", "view": "show", "open": "show",
        "grep": "search", "modify": "edit", "change": "edit", "undelete": "restore", "undo": "restore",
    ]

    /// ` Did you mean 'x'?`, or nothing without a suggestion.
    static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { " Did you mean '\($0)'?" } ?? ""
    }

    /// The candidate closest to `word` when it is close enough to be a typo: one edit for short
    /// words, two for longer ones; else a candidate that `word` starts (`--rev` → `--reverse`).
    static func closest(to word: String, among candidates: [String]) -> String? {
        if let synonym = synonyms[word.lowercased()], candidates.contains(synonym) { return synonym }
        let bare = word.drop { $0 == "-" }
        guard bare.count >= 2 else { return nil }
        let allowed = bare.count <= 4 ? 1 : 2
        var best: (String, Int)?
        for candidate in candidates {
            let d = editDistance(word.lowercased(), candidate.lowercased())
            if d <= allowed, best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
        }
        if best == nil {
            best = candidates.first { $0.hasPrefix(word) && bare.count >= 3 }.map { ($0, 0) }
        }
        return best?.0
    }

    /// Optimal string alignment distance: a swap of two neighbours counts as one edit (`lsit` → `list`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
