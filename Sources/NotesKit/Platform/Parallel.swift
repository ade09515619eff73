import Dispatch

/// The one place work is spread over all cores: index `i` of the result is `transform(i)`,
/// computed in chunks, each chunk with its own `TextFolder` (a folder's cache is not shared).
enum Parallel {
    static func map<T>(count: Int, chunk: Int = 64, _ transform: @Sendable (Int, inout TextFolder) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = UnsafeSendable(buffer)
            DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { c in
                var folder = TextFolder()
                guard let base = out.value.baseAddress else { return }
                for i in (c * chunk)..<min(count, (c + 1) * chunk) { (base + i).initialize(to: transform(i, &folder)) }
            }
            initialized = count
        }
    }
}

/// Lets a buffer pointer cross into `concurrentPerform`, where each index is written by one thread.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
