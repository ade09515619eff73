import Foundation

/// Git's `wildmatch`, on bytes: the glob matching of gitignore patterns. `*` matches any run of
/// bytes and `?` one byte, neither a `/` when matching a path; `**` between slashes (or at either
/// end) matches any number of folders; `[...]` matches one byte of a set (`!` or `^` first
/// negates it; ranges `a-z`, classes `[:alpha:]`, `\` escapes), never a `/` in a path; `\`
/// escapes the next byte. Ported from git's `wildmatch.c`, so that a pattern means here what it
/// means to git, down to its edge cases.
enum Wildmatch {
    /// Whether `pattern` matches the whole of `text`; `pathname` keeps `*`, `?` and `[...]` from
    /// matching a `/`.
    static func matches(_ pattern: UnsafeRawBufferPointer, _ text: UnsafeRawBufferPointer, pathname: Bool)
        -> Bool
    {
        match(Cursor(pattern: pattern, text: text, pathname: pathname), 0, 0) == .match
    }

    private enum Outcome { case match, noMatch, abortAll, abortToStarStar }

    private struct Cursor {
        let pattern: UnsafeRawBufferPointer
        let text: UnsafeRawBufferPointer
        let pathname: Bool
        /// The byte at `i`, or 0 past the end (C strings end so).
        func p(_ i: Int) -> UInt8 { i < pattern.count ? pattern[i] : 0 }
        func t(_ i: Int) -> UInt8 { i < text.count ? text[i] : 0 }
    }

    private static let slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*")
    private static let backslash = UInt8(ascii: "\\")

    private static func isGlobSpecial(_ byte: UInt8) -> Bool {
        byte == star || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "[") || byte == backslash
    }

    private static func match(_ c: Cursor, _ patternStart: Int, _ textStart: Int) -> Outcome {
        var p = patternStart
        var t = textStart
        while c.p(p) != 0 {
            var pch = c.p(p)
            var tch = c.t(t)
            if tch == 0 && pch != star { return .abortAll }
            switch pch {
            case UInt8(ascii: "?"):
                if c.pathname && tch == slash { return .noMatch }
            case star:
                var matchSlash: Bool
                p += 1
                if c.p(p) == star {
                    let previous = p - 2
                    p += 1
                    while c.p(p) == star { p += 1 }
                    if !c.pathname {
                        matchSlash = true
                    } else if (previous < patternStart || c.p(previous) == slash)
                        && (c.p(p) == 0 || c.p(p) == slash || (c.p(p) == backslash && c.p(p + 1) == slash))
                    {
                        // `**/` may match no folder at all: try the rest right here first.
                        if c.p(p) == slash && match(c, p + 1, t) == .match { return .match }
                        matchSlash = true
                    } else {
                        matchSlash = false
                    }
                } else {
                    matchSlash = !c.pathname
                }
                if c.p(p) == 0 {
                    // A trailing `**` matches everything, a trailing `*` only what has no `/`.
                    if !matchSlash && c.text[t...].contains(slash) { return .noMatch }
                    return .match
                } else if !matchSlash && c.p(p) == slash {
                    // `*/`: the rest of this folder name, then the slash.
                    guard let next = c.text[t...].firstIndex(of: slash) else { return .noMatch }
                    t = next
                    break
                }
                while true {
                    if tch == 0 { break }
                    // A literal after the star: skip to where it next appears.
                    if !isGlobSpecial(c.p(p)) {
                        pch = c.p(p)
                        while true {
                            tch = c.t(t)
                            if tch == 0 || (!matchSlash && tch == slash) || tch == pch { break }
                            t += 1
                        }
                        if tch != pch { return matchSlash ? .abortAll : .abortToStarStar }
                    }
                    let matched = match(c, p, t)
                    if matched != .noMatch {
                        if !matchSlash || matched != .abortToStarStar { return matched }
                    } else if !matchSlash && tch == slash {
                        return .abortToStarStar
                    }
                    t += 1
                    tch = c.t(t)
                }
                return .abortAll
            case UInt8(ascii: "["):
                p += 1
                pch = c.p(p)
                if pch == UInt8(ascii: "^") { pch = UInt8(ascii: "!") }
                let negated = pch == UInt8(ascii: "!")
                if negated {
                    p += 1
                    pch = c.p(p)
                }
                var previous: UInt8 = 0
                var matched = false
                repeat {
                    if pch == 0 { return .abortAll }
                    if pch == backslash {
                        p += 1
                        pch = c.p(p)
                        if pch == 0 { return .abortAll }
                        if tch == pch { matched = true }
                    } else if pch == UInt8(ascii: "-") && previous != 0 && c.p(p + 1) != 0
                        && c.p(p + 1) != UInt8(ascii: "]")
                    {
                        p += 1
                        pch = c.p(p)
                        if pch == backslash {
                            p += 1
                            pch = c.p(p)
                            if pch == 0 { return .abortAll }
                        }
                        if tch <= pch && tch >= previous { matched = true }
                        pch = 0
                    } else if pch == UInt8(ascii: "[") && c.p(p + 1) == UInt8(ascii: ":") {
                        let start = p + 2
                        p = start
                        while c.p(p) != 0 && c.p(p) != UInt8(ascii: "]") { p += 1 }
                        if c.p(p) == 0 { return .abortAll }
                        if p - start - 1 < 0 || c.p(p - 1) != UInt8(ascii: ":") {
                            // No `:]`: an ordinary `[` in the set.
                            p = start - 2
                            pch = UInt8(ascii: "[")
                            if tch == pch { matched = true }
                        } else {
                            let name = c.pattern[start..<(p - 1)]
                            guard let test = classes[String(decoding: name, as: UTF8.self)] else {
                                return .abortAll
                            }
                            if test(tch) { matched = true }
                            pch = 0
                        }
                    } else if tch == pch {
                        matched = true
                    }
                    previous = pch
                    p += 1
                    pch = c.p(p)
                } while pch != UInt8(ascii: "]")
                if matched == negated || (c.pathname && tch == slash) { return .noMatch }
            case backslash:
                // A literal byte; a pattern ending in `\` matches nothing.
                p += 1
                pch = c.p(p)
                if tch != pch { return .noMatch }
            default:
                if tch != pch { return .noMatch }
            }
            p += 1
            t += 1
        }
        return t < c.text.count ? .noMatch : .match
    }

    /// The POSIX classes of `[[:name:]]`, on ASCII bytes as git's are.
    private static let classes: [String: @Sendable (UInt8) -> Bool] = [
        "alnum": { isalnum(Int32($0)) != 0 && $0 < 128 },
        "alpha": { isalpha(Int32($0)) != 0 && $0 < 128 },
        "blank": { $0 == 0x20 || $0 == 0x09 },
        "cntrl": { $0 < 0x20 || $0 == 0x7F },
        "digit": { (0x30...0x39).contains($0) },
        "graph": { (0x21...0x7E).contains($0) },
        "lower": { (0x61...0x7A).contains($0) },
        "print": { (0x20...0x7E).contains($0) },
        "punct": { (0x21...0x7E).contains($0) && isalnum(Int32($0)) == 0 },
        "space": { $0 == 0x20 || (0x09...0x0D).contains($0) },
        "upper": { (0x41...0x5A).contains($0) },
        "xdigit": { isxdigit(Int32($0)) != 0 && $0 < 128 },
    ]
}
