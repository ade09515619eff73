import Dispatch
import Foundation

/// The one place work is spread over all cores: index `i` of the result is `transform(i)`,
/// computed in chunks.
enum Parallel {
    /// `transform` of every index, in order.
    static func map<T>(count: Int, chunk: Int = 64, _ transform: @Sendable (Int) -> T) -> [T] {
        map(count: count, chunk: chunk, states: noState) { i, _ in transform(i) }
    }

    /// `transform` of each run of `size` indices of `0..<count` (the last one shorter), in order:
    /// a large count shared out in runs, each run one piece of work.
    static func map<T>(count: Int, runsOf size: Int, _ transform: @Sendable (Range<Int>) -> T) -> [T] {
        map(count: count, runsOf: size, states: noState) { run, _ in transform(run) }
    }

    /// `map(count:runsOf:)`, each run with a state taken from `states`, as `map(count:chunk:states:)`.
    static func map<T, State>(
        count: Int, runsOf size: Int, states: WorkerStates<State>,
        _ transform: @Sendable (Range<Int>, inout State) -> T
    ) -> [T] {
        map(count: (count + size - 1) / size, chunk: 1, states: states) { r, state in
            transform((r * size)..<min(count, (r + 1) * size), &state)
        }
    }

    /// For work without a state of its own.
    private static let noState = WorkerStates<Void> {}

    /// `map`, each chunk with a state of its own taken from `states` (a state that is not
    /// shared between threads, such as a cache) and given back after it, so the next chunk
    /// starts with what this one built up.
    static func map<T, State>(
        count: Int, chunk: Int = 64, states: WorkerStates<State>,
        _ transform: @Sendable (Int, inout State) -> T
    ) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = UnsafeSendable(buffer)
            DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { c in
                var state = states.take()
                defer { states.give(state) }
                guard let base = out.value.baseAddress else { return }
                for i in (c * chunk)..<min(count, (c + 1) * chunk) {
                    (base + i).initialize(to: transform(i, &state))
                }
            }
            initialized = count
        }
    }
}

/// States of the workers of `Parallel.map` waiting for the next chunk of work, each used by one
/// thread at a time; `make` makes one when none is waiting.
final class WorkerStates<State>: @unchecked Sendable {
    private let make: @Sendable () -> State
    private let lock = NSLock()
    private var waiting: [State] = []

    init(_ make: @escaping @Sendable () -> State) { self.make = make }

    /// A waiting state, or a new one.
    func take() -> State {
        lock.lock()
        let state = waiting.popLast()
        lock.unlock()
        return state ?? make()
    }

    /// Puts `state` back for the next taker.
    func give(_ state: State) {
        lock.lock()
        defer { lock.unlock() }
        waiting.append(state)
    }

    /// Lets go of the waiting states (a taker then gets a new one).
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        waiting.removeAll()
    }
}

/// Lets a buffer pointer cross into `concurrentPerform`, where each index is written by one thread.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
