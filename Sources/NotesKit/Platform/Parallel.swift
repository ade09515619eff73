import Dispatch
import Foundation

/// The one place work is spread over all cores: index `i` of the result is `transform(i)`,
/// computed in chunks, each chunk with a `TextFolder` of its own (a folder's cache is not shared
/// between threads). Folders go back to a pool after a chunk, so the next chunk starts with a
/// warm cache: folding a scalar the first time is costly (Foundation's decomposition), and a
/// cold folder per chunk of 32 notes did it again and again.
enum Parallel {
    static func map<T>(count: Int, chunk: Int = 64, _ transform: @Sendable (Int, inout TextFolder) -> T) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = UnsafeSendable(buffer)
            DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { c in
                var folder = FolderPool.shared.take()
                defer { FolderPool.shared.give(folder) }
                guard let base = out.value.baseAddress else { return }
                for i in (c * chunk)..<min(count, (c + 1) * chunk) { (base + i).initialize(to: transform(i, &folder)) }
            }
            initialized = count
        }
    }
}

/// Text folders waiting for the next chunk of work, each used by one thread at a time.
final class FolderPool: @unchecked Sendable {
    static let shared = FolderPool()
    private let lock = NSLock()
    private var folders: [TextFolder] = []

    func take() -> TextFolder {
        lock.lock()
        defer { lock.unlock() }
        return folders.popLast() ?? TextFolder()
    }

    func give(_ folder: TextFolder) {
        lock.lock()
        defer { lock.unlock() }
        folders.append(folder)
    }
}

/// Lets a buffer pointer cross into `concurrentPerform`, where each index is written by one thread.
struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
