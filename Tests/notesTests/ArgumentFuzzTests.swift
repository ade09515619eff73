import Foundation
import Testing

@testable import notes

/// The argument parser on seeded command lines, valid and broken, with NUL bytes,
/// control characters and words that look like options (`Fuzz/ArgumentFuzz.swift`). The same
/// environment as `FuzzTests` runs it longer: `NOTES_FUZZ_SECONDS`, `NOTES_FUZZ_CASES`,
/// `NOTES_FUZZ_SEED`, `NOTES_FUZZ_CASE` (see `Tests/Fuzz/README.md`).
@Suite struct ArgumentFuzzTests {
    @Test func commandLinesParseToWhatTheirWordsSayOrAreRefusedCleanly() {
        let env = ProcessInfo.processInfo.environment
        func number(_ text: String?) -> UInt64? {
            guard let text else { return nil }
            return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        }
        let seed =
            env["NOTES_FUZZ_SEED"] == "random"
            ? UInt64.random(in: 0...UInt64.max) : number(env["NOTES_FUZZ_SEED"]) ?? 13
        let only = number(env["NOTES_FUZZ_CASE"])
        let deadline = env["NOTES_FUZZ_SECONDS"].flatMap(Double.init).map { Date().addingTimeInterval($0) }
        let limit = env["NOTES_FUZZ_CASES"].flatMap { Int($0) } ?? (deadline == nil ? 2500 : Int.max)
        var failures = 0
        var number = 0
        while number < limit && failures < 5 {
            if let deadline, number % 64 == 0, Date() > deadline { break }
            let caseSeed = only ?? (seed ^ UInt64(number) &* 0xD1B5_4A32_D192_ED03) &+ 0x2545_F491_4F6C_DD1D
            let (argv, expected) = ArgumentFuzz.line(seed: caseSeed)
            let problems = ArgumentFuzz.check(argv, expected: expected)
            if !problems.isEmpty {
                failures += 1
                Issue.record(
                    Comment(
                        rawValue: """
                            arguments: case \(number) of seed \(seed) failed; replay it with \
                            NOTES_FUZZ_CASE=0x\(String(caseSeed, radix: 16)) swift test --filter ArgumentFuzzTests
                            \(problems.prefix(5).joined(separator: "\n"))
                            """))
            }
            number += 1
            if only != nil { break }
        }
        if deadline != nil || env["NOTES_FUZZ_CASES"] != nil {
            print("fuzz arguments: \(number) cases, seed \(seed), \(failures) failed")
        }
    }
}

/// Command lines the argument fuzz target found parsed wrong.
@Suite struct ArgumentRegressionTests {
    /// `--=vault` was read as `--vault=vault` after the command (the option's name was taken from
    /// the text after the `=` when nothing stood before it): it is an unknown option, wherever it is.
    @Test(arguments: [
        ["list", "--=vault"], ["--=vault", "list"], ["config", "list", "--=quiet"], ["list", "--="],
    ])
    func anOptionWithoutANameIsUnknown(_ argv: [String]) {
        #expect(throws: UsageError.self) {
            var parsed = try ArgumentParser.resolve(argv, commands: CLI.commands)
            try parsed.arguments.bind(to: parsed.command?.spec)
        }
        do {
            _ = try ArgumentParser.resolve(argv, commands: CLI.commands)
        } catch {
            #expect(error.message.hasPrefix("Unknown option '--'."), "\(error.message)")
        }
    }
}
