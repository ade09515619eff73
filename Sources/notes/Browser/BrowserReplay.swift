import Foundation
import NotesKit

/// `notes browse --replay KEYS`: the browser driven by a list of keys instead of a terminal, to
/// see what it would show (the last screen, as text) or, with `--timing`, to measure how long
/// each key takes to re-filter and draw (at most 50 ms at 100,000 notes). A replay changes
/// nothing: keys that would open the editor, delete or save a setting only say so.
///
/// Keys are written as text, with names in angle brackets for the others: `<Enter>`, `<Tab>`,
/// `<BS>`, `<Del>`, `<Esc>`, `<Up>`, `<Down>`, `<Left>`, `<Right>`, `<PgUp>`, `<PgDn>`, `<Home>`,
/// `<End>`, `<C-x>` for Ctrl-X, and `<lt>` for a `<` that would otherwise start a name.
enum BrowserReplay {
    /// The named keys, as the timing log writes them.
    static let canonicalNames: [(String, Key)] = [
        ("Enter", .enter), ("Tab", .tab), ("BS", .backspace), ("Del", .delete), ("Esc", .escape), ("Up", .up),
        ("Down", .down), ("Left", .left), ("Right", .right), ("PgUp", .pageUp), ("PgDn", .pageDown),
        ("Home", .home), ("End", .end), ("lt", .text("<")),
    ]

    /// The named keys, and other spellings of some (compared without case).
    static let names: [String: Key] = Dictionary(
        uniqueKeysWithValues: canonicalNames.map { ($0.0.lowercased(), $0.1) }
            + [
                ("cr", .enter), ("return", .enter), ("backspace", .backspace), ("delete", .delete),
                ("pageup", .pageUp), ("pagedown", .pageDown),
            ])

    /// The keys `notation` writes, each character of text one key; nil and the unknown name when a
    /// `<name>` is not a key.
    static func keys(_ notation: String) -> Result<[Key], UnknownKey> {
        var keys: [Key] = []
        var rest = Substring(notation)
        while let first = rest.first {
            if first == "<", let close = rest.firstIndex(of: ">") {
                let name = rest[rest.index(after: rest.startIndex)..<close]
                if let key = key(named: name) {
                    keys.append(key)
                    rest = rest[rest.index(after: close)...]
                    continue
                }
                // `<` then a word then `>` is meant as a name: a typo is an error, not text.
                if name.first?.isLetter == true && name.count <= 10
                    && name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
                {
                    return .failure(UnknownKey(name: "<" + name + ">"))
                }
            }
            keys.append(.text(String(first)))
            rest = rest.dropFirst()
        }
        return .success(keys)
    }

    /// A name that is not a key.
    struct UnknownKey: Error {
        var name: String
    }

    private static func key(named name: Substring) -> Key? {
        let lower = name.lowercased()
        if lower.hasPrefix("c-"), lower.count == 3, let letter = lower.last, ("a"..."z").contains(letter) {
            // Ctrl-M, Ctrl-I and Ctrl-H are the bytes of Enter, Tab and Backspace.
            return ["m": .enter, "i": .tab, "h": .backspace][letter] ?? .control(letter)
        }
        return names[lower]
    }

    /// How a key is written in the notation.
    static func name(_ key: Key) -> String {
        switch key {
        case .text(let text): return text == "<" ? "<lt>" : text
        case .control(let letter): return "<C-\(letter)>"
        case .unknown: return "<?>"
        default: return "<" + (canonicalNames.first { $0.1 == key }?.0 ?? "?") + ">"
        }
    }

    /// Replays `keys` on a browser of `size` over `store`; prints the last screen, or with
    /// `timing` a line per key: the milliseconds it took to re-filter and draw (what the user
    /// waits for), the hits, how many notes' texts were read for that frame, and how long finding
    /// all the hits took in all (the rest is done between keys, as the browser does it while the
    /// user is not typing); then the median and the maximum of the first figure.
    static func run(
        _ keys: [Key], timing: Bool, store: NoteStore, size: ScreenSize, filter: NoteFilter, context: Context
    ) {
        let clock = ContinuousClock()
        var opened: BrowserSession?
        let start = clock.measure {
            opened = BrowserSession(
                context: context, store: store, size: size, filter: filter, replaying: true)
        }
        guard let session = opened else { return }
        var shown: Frame? = session.frame()
        var times: [Double] = []
        var log =
            timing
            ? "start (index check, then the order): " + format(milliseconds(start)) + " ms\n"
                + "key        ms      hits   checked    all ms\n" : ""
        for key in keys {
            var quit = false
            let before = session.state.query
            let took = clock.measure {
                if let command = session.state.handle(key) { quit = !session.perform(command) { try $0() } }
                let frame = session.frame()
                _ = frame.update(from: shown)
                shown = frame
            }
            let checked = session.state.query == before ? "—" : String(session.state.hits.checked)
            // What the browser does between keys: the rest of the hits, and the frame with their count.
            let rest = clock.measure {
                session.state.continueSearch()
                shown = session.frame()
            }
            let ms = milliseconds(took)
            times.append(ms)
            log +=
                pad(name(key), 6) + pad(format(ms), 8, left: true)
                + pad(String(session.state.hits.count), 10, left: true) + pad(checked, 10, left: true)
                + pad(format(ms + milliseconds(rest)), 10, left: true) + "\n"
            if quit { break }
        }
        guard timing else {
            let lines = (shown ?? session.frame()).lines.map { line in
                String(line.reversed().drop { $0 == " " }.reversed())
            }
            context.output.out(lines.joined(separator: "\n") + "\n")
            return
        }
        let sorted = times.sorted()
        let median =
            sorted.isEmpty
            ? 0
            : sorted.count % 2 == 1
                ? sorted[sorted.count / 2]
                : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        log +=
            "\(times.count) keys, \(session.state.hits.catalog.count) notes: median \(format(median)) ms, "
            + "max \(format(sorted.last ?? 0)) ms\n"
        context.output.out(log)
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// Two decimals.
    static func format(_ ms: Double) -> String {
        let hundredths = Int((ms * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let room = String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
        return left ? room + text : text + room
    }
}
