import Foundation
import TestSupport
import Testing

/// N processes adding notes at once make N notes, in N distinct files, and lose nothing.
/// Real `notes add` processes, held at a gate until all have started and then let go together
/// (`Race`), all with the same title, so that all of them want the same file name.
@Suite struct ParallelAddTests {
    @Test(arguments: RaceRuns.seeds("parallel-add", 3))
    func processesAddingAtOnceEachGetTheirOwnFile(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let s = try Sandbox()
        let count = 16
        let race = try Race(s, label: "parallel-add, seed \(seed)")
        var racers: [Racer] = []
        for k in 0..<count {
            // From an argument or from stdin, as a script would.
            if Bool.random(using: &random) {
                racers.append(try race.gated("add\(k)", ["add", "Same title\n\nwriter \(k) line"]))
            } else {
                racers.append(
                    try race.piped(
                        "add\(k)", ["add", "--title", "Same title", "-"], text: "writer \(k) line\n"))
            }
        }
        racers.shuffle(using: &random)
        race.release(racers)
        let results = race.finishAll()
        for (name, result) in results { #expect(result.status == 0, "\(race.label): \(name): \(result)") }
        // Each printed a different ID, and each ID is a file holding that writer's line only.
        let ids = results.values.map { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(Set(ids).count == count, "\(race.label): \(ids.sorted())")
        #expect(Set(ids) == Set(["same-title"] + (2...count).map { "same-title-\($0)" }), "\(race.label)")
        for (name, result) in results {
            let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let text = try s.read(id + ".md")
            let k = name.dropFirst("add".count)
            #expect(text.contains("writer \(k) line\n"), "\(race.label): \(id) for \(name): \(text)")
            #expect(text.components(separatedBy: "writer ").count == 2, "\(race.label): \(id): \(text)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: s.vault).filter { !$0.hasPrefix(".") }
        #expect(files.count == count, "\(race.label): \(files.sorted())")
        // And every command agrees with the files.
        let listed = try race.run(["list"]).stdout.split(separator: "\n")
        #expect(listed.count == count, "\(race.label)")
    }
}
