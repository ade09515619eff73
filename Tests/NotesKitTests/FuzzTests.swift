import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// How long the fuzz targets run, from the environment: a fixed number of seeded cases by default
/// (a few seconds in all), more to hunt for bugs (`Tests/Fuzz/README.md`):
///
///     NOTES_FUZZ_SECONDS=600 swift test --filter FuzzTests   # each target for ten minutes
///     NOTES_FUZZ_CASES=200000 swift test --filter FuzzTests  # that many cases per target
///     NOTES_FUZZ_SEED=random …                               # another seed (printed), or a number
///     NOTES_FUZZ_CASE=0x1234… swift test --filter FuzzTests  # replay one failed case
struct FuzzBudget: Sendable {
    var seed: UInt64 = 13
    var cases: Int?
    var seconds: Double?
    var only: UInt64?

    static let current: FuzzBudget = {
        let env = ProcessInfo.processInfo.environment
        func number(_ text: String?) -> UInt64? {
            guard let text else { return nil }
            return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        }
        var budget = FuzzBudget()
        if env["NOTES_FUZZ_SEED"] == "random" {
            budget.seed = UInt64.random(in: 0...UInt64.max)
        } else if let seed = number(env["NOTES_FUZZ_SEED"]) {
            budget.seed = seed
        }
        budget.cases = env["NOTES_FUZZ_CASES"].flatMap { Int($0) }
        budget.seconds = env["NOTES_FUZZ_SECONDS"].flatMap { Double($0) }
        budget.only = number(env["NOTES_FUZZ_CASE"])
        return budget
    }()

    /// Runs `body` on seeded cases until the budget is spent (`cases` by default), recording each
    /// failure with the seed that replays it; stops after five failures.
    func run(_ target: String, cases: Int, _ body: (inout SplitMix, inout TextFolder) -> [String]) {
        var folder = TextFolder()
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        let limit = self.cases ?? (deadline == nil ? cases : Int.max)
        var failures = 0
        var number = 0
        while number < limit && failures < 5 {
            if let deadline, number % 64 == 0, Date() > deadline { break }
            let caseSeed = only ?? SplitMix.caseSeed(seed, number)
            var r = SplitMix(seed: caseSeed)
            let problems = body(&r, &folder)
            if !problems.isEmpty {
                failures += 1
                Issue.record(
                    Comment(
                        rawValue: """
                            \(target): case \(number) of seed \(seed) failed; replay it with \
                            NOTES_FUZZ_CASE=0x\(String(caseSeed, radix: 16)) swift test --filter FuzzTests
                            \(problems.prefix(5).joined(separator: "\n"))
                            """))
            }
            number += 1
            if only != nil { break }
        }
        if seconds != nil || self.cases != nil {
            print("fuzz \(target): \(number) cases, seed \(seed), \(failures) failed")
        }
    }
}

/// Seeded random inputs for the parsers and the index decoder: front matters and whole
/// note files, dates, queries, folding, index files whole and damaged. Inputs are valid seeds
/// mutated (`FuzzText`, `FuzzBytes`); the invariants are in `Fuzz/FuzzChecks.swift` and
/// `Fuzz/FuzzIndex.swift`, shared with the libFuzzer entry `Tests/Fuzz/fuzz.sh`.
@Suite struct FuzzTests {
    static var budget: FuzzBudget { FuzzBudget.current }

    @Test func frontMatterRoundTripsAndRewritesTouchOnlyTheBodyAndUpdatedAt() {
        Self.budget.run("front matter", cases: 1200) { r, _ in
            DocumentFuzz.check(
                FuzzText.note(&r), content: FuzzText.content(&r), updated: FuzzText.seconds(&r),
                fallback: FuzzText.seconds(&r))
        }
    }

    @Test func noteFilesOfAnyBytesAreReadOrRefused() {
        Self.budget.run("note files", cases: 1200) { r, _ in
            var bytes = Array(FuzzText.note(&r).utf8)
            if r.chance(40) { bytes = FuzzBytes.mutate(bytes, &r) }
            return DocumentFuzz.checkFile(bytes, path: IndexFuzz.path(&r), mtime: FuzzText.seconds(&r))
        }
    }

    @Test func datesParseExactlyTheFormsOfTheSpec() {
        Self.budget.run("dates", cases: 4000) { r, _ in
            DateFuzz.check(FuzzText.date(&r), zone: r.pick(DateFuzz.zones))
                + DateFuzz.checkFormat(FuzzText.seconds(&r))
        }
    }

    @Test func foldingIsExactIdempotentAndTakesAnyBytes() {
        Self.budget.run("folding", cases: 2500) { r, folder in
            var text = (0..<r.within(0...10)).map { _ in FuzzText.piece(&r) }.joined()
            if r.chance(10) { text = FuzzText.note(&r) }
            var bytes = Array(text.utf8)
            if r.chance(20) { bytes = FuzzBytes.mutate(bytes, &r) }
            return FoldFuzz.check(bytes, folder: &folder)
        }
    }

    @Test func queriesParseAndMatchTheirOwnTerms() {
        Self.budget.run("queries", cases: 1500) { r, folder in
            let text = r.chance(50) ? FuzzText.note(&r) : FuzzText.query(&r)
            return QueryFuzz.check(FuzzText.query(&r), text: text, folder: &folder)
        }
    }

    @Test func anEncodedIndexReadsBackAsEncoded() {
        Self.budget.run("index round trip", cases: 300) { r, folder in
            IndexFuzz.checkRoundTrip(&r, folder: &folder)
        }
    }

    @Test func aDamagedIndexIsRefusedOrReadWithoutHarm() {
        Self.budget.run("damaged index", cases: 600) { r, folder in IndexFuzz.checkDamage(&r, folder: &folder)
        }
    }

    @Test func aDeltaJoinsItsBaseAndDamageToItDoesNoHarm() {
        Self.budget.run("index delta", cases: 300) { r, folder in IndexFuzz.checkDelta(&r, folder: &folder) }
    }
}
