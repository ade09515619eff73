import Foundation
import NotesKit

/// What the language server's reader hands its worker, in the order it arrived.
enum Incoming {
    /// A message, parsed.
    case message(JSONValue)
    /// A body that is not JSON.
    case notJSON(JSONValue.ParseError)
    /// Bytes that were no message, and why.
    case badFrame(String)
    /// The vault's catalog changed (told by the catalog session).
    case catalogChanged
    /// The input ended.
    case end
}

/// The messages read and not yet handled, and the requests among them that the client cancelled:
/// the reader adds, the worker takes, each on its own thread.
final class ServerQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Incoming] = []
    private var head = 0
    /// The requests read and not yet answered (by their ids' JSON), and which of them are cancelled.
    private var pending: [String: Bool] = [:]
    private var catalogChangeQueued = false

    /// Adds what one read brought: cancellations first, so that a request and its cancellation
    /// that arrive together are never answered in full.
    func add(_ batch: [Incoming]) {
        condition.lock()
        defer { condition.unlock() }
        for item in batch {
            guard case .message(let message) = item else { continue }
            if let method = message["method"]?.stringValue, let id = message["id"],
                method != "$/cancelRequest"
            {
                pending[id.compact] = false
            }
        }
        for item in batch {
            guard case .message(let message) = item, message["method"]?.stringValue == "$/cancelRequest",
                let id = message["params"]?["id"]
            else { continue }
            if pending[id.compact] != nil { pending[id.compact] = true }
        }
        items.append(contentsOf: batch)
        condition.broadcast()
    }

    /// Says that the catalog changed, once until the worker takes it.
    func catalogChanged() {
        condition.lock()
        defer { condition.unlock() }
        guard !catalogChangeQueued else { return }
        catalogChangeQueued = true
        items.append(.catalogChanged)
        condition.broadcast()
    }

    /// The next item, waiting until `deadline` (seconds of uptime) at most; nil then.
    func take(until deadline: Double?) -> Incoming? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count {
            if let deadline {
                let left = deadline - ProcessInfo.processInfo.systemUptime
                guard left > 0 else { return nil }
                _ = condition.wait(until: Date(timeIntervalSinceNow: left))
            } else {
                condition.wait()
            }
        }
        let item = items[head]
        head += 1
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        if case .catalogChanged = item { catalogChangeQueued = false }
        return item
    }

    /// Whether the request with `id` was cancelled.
    func isCancelled(_ id: JSONValue) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return pending[id.compact] ?? false
    }

    /// The request with `id` was answered.
    func answered(_ id: JSONValue) {
        condition.lock()
        defer { condition.unlock() }
        pending[id.compact] = nil
    }
}
