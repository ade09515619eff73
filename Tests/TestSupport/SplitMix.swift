/// SplitMix64, the tests' one seeded generator, picking with its own arithmetic so that a seed
/// gives the same inputs (fuzz cases, command lines, races) on every machine and with every
/// toolchain: a failure is replayed from the seed its message prints. `Tests/Fuzz/fuzz.sh`
/// compiles this file on its own as the module `TestSupport`, so it needs nothing else here.
public struct SplitMix: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (0 when `n` is 0).
    public mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }

    /// A number in `range`.
    public mutating func within(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One of `items`, which must not be empty.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// The seed of case `number` of a run seeded with `seed`: each case can be replayed alone.
    public static func caseSeed(_ seed: UInt64, _ number: Int) -> UInt64 {
        var r = SplitMix(seed: seed ^ (UInt64(number) &* 0xD1B5_4A32_D192_ED03))
        return r.next()
    }
}
