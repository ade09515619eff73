/// A cursor over UTF-8 bytes that reads JSON (RFC 8259) strictly: no comments, no trailing
/// commas, no leading zeros, strings valid UTF-8 with lone surrogate escapes refused.
struct JSONParser {
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    typealias ParseError = JSONValue.ParseError

    func fail(_ reason: String) -> ParseError { ParseError(reason: reason, offset: i) }

    mutating func document() throws(ParseError) -> JSONValue {
        skipBlanks()
        let value = try value(depth: 0)
        skipBlanks()
        guard i == bytes.count else { throw fail("Unexpected text after the value.") }
        return value
    }

    private mutating func skipBlanks() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
            i += 1
        }
    }

    private mutating func value(depth: Int) throws(ParseError) -> JSONValue {
        guard i < bytes.count else { throw fail("Unexpected end of input.") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("Unexpected character.")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(ParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard i + count <= bytes.count,
            word.withUTF8Buffer({ $0.elementsEqual(bytes[i..<(i + count)]) })
        else { throw fail("Unexpected character.") }
        i += count
        return value
    }

    private mutating func object(depth: Int) throws(ParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw fail("Nested too deeply.") }
        i += 1
        var pairs: [(String, JSONValue)] = []
        skipBlanks()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(JSONObject(pairs))
        }
        while true {
            skipBlanks()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("Expected a key.") }
            let key = try string()
            skipBlanks()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("Expected ':'.") }
            i += 1
            skipBlanks()
            pairs.append((key, try value(depth: depth)))
            skipBlanks()
            guard i < bytes.count else { throw fail("Unexpected end of input.") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
            } else if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(JSONObject(pairs))
            } else {
                throw fail("Expected ',' or '}'.")
            }
        }
    }

    private mutating func array(depth: Int) throws(ParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw fail("Nested too deeply.") }
        i += 1
        var items: [JSONValue] = []
        skipBlanks()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            skipBlanks()
            items.append(try value(depth: depth))
            skipBlanks()
            guard i < bytes.count else { throw fail("Unexpected end of input.") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
            } else if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(items)
            } else {
                throw fail("Expected ',' or ']'.")
            }
        }
    }

    private mutating func number() throws(ParseError) -> JSONValue {
        let start = i
        func digits(_ i: inout Int, _ bytes: [UInt8]) -> Int {
            let from = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - from
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("Expected a digit.") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            _ = digits(&i, bytes)
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&i, bytes) > 0 else { throw fail("Expected a digit.") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&i, bytes) > 0 else { throw fail("Expected a digit.") }
        }
        guard let n = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else {
            throw fail("Invalid number.")
        }
        return .number(n)
    }

    private mutating func string() throws(ParseError) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("Unterminated string.") }
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                i += 1
                break
            }
            if byte < 0x20 { throw fail("Control character in a string.") }
            if byte == UInt8(ascii: "\\") {
                try escape(into: &out)
                continue
            }
            out.append(byte)
            i += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("Invalid UTF-8 in a string.") }
        return s
    }

    private mutating func escape(into out: inout [UInt8]) throws(ParseError) {
        i += 1
        guard i < bytes.count else { throw fail("Unterminated string.") }
        let c = bytes[i]
        i += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(c)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var unit = try hex4()
            if (0xD800..<0xDC00).contains(unit) {
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                else {
                    throw fail("A lone surrogate in a string.")
                }
                i += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("A lone surrogate in a string.") }
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(unit) {
                throw fail("A lone surrogate in a string.")
            }
            guard let scalar = Unicode.Scalar(unit) else { throw fail("Invalid escape.") }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw fail("Invalid escape.")
        }
    }

    private mutating func hex4() throws(ParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("Invalid escape.") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - 0x41 + 10)
            default: throw fail("Invalid escape.")
            }
            value = value * 16 + digit
            i += 1
        }
        return value
    }
}
