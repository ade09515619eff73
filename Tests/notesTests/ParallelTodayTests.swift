import Foundation
import TestSupport
import Testing

/// Ten `notes today TEXT` processes at once, on a daily note that none of them finds: one makes
/// it, and every entry lands in it, each whole, none lost. Real processes, held at a gate until all
/// have started and then let go together (`Race`).
@Suite struct ParallelTodayTests {
    @Test(arguments: RaceRuns.seeds("parallel-today", 2))
    func entriesAddedAtOnceAllLandWhole(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        // A template, so that making the note is more than a heading.
        try s.write(".templates/daily.md", "# {{title}}\n\n[[{{yesterday}}]] · [[{{tomorrow}}]]\n\n## Log\n")
        let count = 10
        let race = try Race(s, label: "parallel-today, seed \(seed)")
        let env = ["NOTES_TEST_NOW": "2026-12-02T09:30:00+01:00"]
        var racers: [Racer] = []
        for k in 0..<count {
            // One line or several, from an argument or from stdin.
            if Bool.random(using: &random) {
                racers.append(try race.gated("today\(k)", ["today", "writer \(k) entry"], env: env))
            } else {
                racers.append(
                    try race.piped(
                        "today\(k)", ["daily", "-"], text: "writer \(k) entry\nits second line\n", env: env))
            }
        }
        racers.shuffle(using: &random)
        race.release(racers)
        let results = race.finishAll()
        for (name, result) in results {
            #expect(result.status == 0, "\(race.label): \(name): \(result)")
            #expect(result.stdout == "journal/2026-12-02\n", "\(race.label): \(name): \(result)")
        }
        let text = try s.read("journal/2026-12-02.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for k in 0..<count {
            #expect(lines.filter { $0 == "- 08:30 writer \(k) entry" }.count == 1, "\(race.label): \(text)")
        }
        // Each multi-line entry keeps its second line right below it.
        for (index, line) in lines.enumerated() where line == "  its second line" {
            #expect(index > 0 && lines[index - 1].hasPrefix("- 08:30 writer "), "\(race.label): \(text)")
        }
        // The note was made once, from the template, and holds nothing but the entries after it.
        #expect(text.components(separatedBy: "## Log").count == 2, "\(race.label): \(text)")
        #expect(text.contains("# 2026-12-02\n\n[[journal/2026-12-01]] · [[journal/2026-12-03]]\n\n## Log\n"))
        let entries = lines.drop { !$0.hasPrefix("- 08:30") }.filter { !$0.isEmpty }
        #expect(
            entries.allSatisfy { $0.hasPrefix("- 08:30 writer ") || $0 == "  its second line" }, "\(text)")
        #expect(lines.filter { $0.hasPrefix("- 08:30 ") }.count == count, "\(race.label): \(text)")
        // No conflict copy, no second note.
        #expect(Disk.names(s.vault + "/journal") == ["2026-12-02.md"], "\(race.label)")
    }
}
