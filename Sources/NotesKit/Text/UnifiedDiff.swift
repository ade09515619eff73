/// A unified diff of two texts (`diff -u`), for when neither `git diff --no-index` nor `diff` is
/// there to ask (`notes conflicts --diff`).
public enum UnifiedDiff {
    /// The diff from `old` to `new` with `context` lines around each change, headed
    /// `--- oldLabel` / `+++ newLabel`; "" when the texts are equal.
    public static func make(
        _ old: String, _ new: String, oldLabel: String, newLabel: String, context: Int = 3
    ) -> String {
        let a = lines(old)
        let b = lines(new)
        guard a != b else { return "" }
        let script = edits(a, b)
        var out = "--- \(oldLabel)\n+++ \(newLabel)\n"
        // Group the changes that are within 2×context lines of each other into hunks.
        var i = 0
        while i < script.count {
            guard script[i].kind != .same else {
                i += 1
                continue
            }
            var start = i
            var end = i
            start = max(0, i - context)
            while end < script.count {
                if script[end].kind != .same {
                    end += 1
                    continue
                }
                var run = end
                while run < script.count && script[run].kind == .same { run += 1 }
                if run == script.count || run - end > 2 * context { break }
                end = run
            }
            let stop = min(script.count, end + context)
            let hunk = script[start..<stop]
            let oldStart = hunk.first?.oldLine ?? 0
            let newStart = hunk.first?.newLine ?? 0
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: out += " " + edit.line.text + "\n"
                case .delete: out += "-" + edit.line.text + "\n"
                case .insert: out += "+" + edit.line.text + "\n"
                }
                // As diff -u marks it: a last line without its line feed.
                if !edit.line.ended { out += "\\ No newline at end of file\n" }
            }
            i = stop
        }
        return out
    }

    /// `start,count` as diff writes a hunk's range (1-based; `start-1,0` for an empty one).
    private static func range(_ start: Int, _ count: Int) -> String {
        count == 0 ? "\(start),0" : count == 1 ? "\(start + 1)" : "\(start + 1),\(count)"
    }

    /// A line and whether a line feed ends it (all but perhaps the last do): a text that differs
    /// only by its last line feed differs.
    private struct Line: Equatable {
        var text: String
        var ended = true
    }

    private static func lines(_ text: String) -> [Line] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            Line(text: String($0))
        }
        if parts.last?.text == "" {
            parts.removeLast()
        } else if !parts.isEmpty {
            parts[parts.count - 1].ended = false
        }
        return parts
    }

    private enum Kind { case same, delete, insert }

    private struct Edit {
        var kind: Kind
        var line: Line
        /// The 0-based line before which this edit stands in each text.
        var oldLine: Int
        var newLine: Int
    }

    /// The shortest edit script from `a` to `b` by a longest common subsequence. Texts too long
    /// for the table (notes are short) become one change: still a correct diff, only a coarse one.
    private static func edits(_ a: [Line], _ b: [Line]) -> [Edit] {
        var out: [Edit] = []
        // Common lines at both ends never need the table.
        var head = 0
        while head < a.count && head < b.count && a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head && tail < b.count - head && a[a.count - 1 - tail] == b[b.count - 1 - tail]
        { tail += 1 }
        for k in 0..<head { out.append(Edit(kind: .same, line: a[k], oldLine: k, newLine: k)) }
        let x = Array(a[head..<(a.count - tail)])
        let y = Array(b[head..<(b.count - tail)])
        var i = 0
        var j = 0
        if x.count * y.count <= 4_000_000 {
            // lengths[i][j]: the LCS of x[i...] and y[j...].
            var lengths = [[Int32]](repeating: [Int32](repeating: 0, count: y.count + 1), count: x.count + 1)
            for p in stride(from: x.count - 1, through: 0, by: -1) {
                for q in stride(from: y.count - 1, through: 0, by: -1) {
                    lengths[p][q] =
                        x[p] == y[q] ? lengths[p + 1][q + 1] + 1 : max(lengths[p + 1][q], lengths[p][q + 1])
                }
            }
            while i < x.count && j < y.count {
                if x[i] == y[j] {
                    out.append(Edit(kind: .same, line: x[i], oldLine: head + i, newLine: head + j))
                    i += 1
                    j += 1
                } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                    out.append(Edit(kind: .delete, line: x[i], oldLine: head + i, newLine: head + j))
                    i += 1
                } else {
                    out.append(Edit(kind: .insert, line: y[j], oldLine: head + i, newLine: head + j))
                    j += 1
                }
            }
        }
        for p in i..<x.count {
            out.append(Edit(kind: .delete, line: x[p], oldLine: head + p, newLine: head + j))
        }
        for q in j..<y.count {
            out.append(Edit(kind: .insert, line: y[q], oldLine: head + x.count, newLine: head + q))
        }
        for k in 0..<tail {
            out.append(
                Edit(
                    kind: .same, line: a[a.count - tail + k], oldLine: a.count - tail + k,
                    newLine: b.count - tail + k))
        }
        return out
    }
}
