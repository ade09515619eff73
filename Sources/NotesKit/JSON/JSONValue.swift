import Foundation

/// A JSON value, read from text and written back: what the language server receives and sends,
/// and the settings keys the tool does not know, kept byte-for-byte in meaning. Objects keep
/// their keys in order, so what is written is in the order it was built.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Why a text is not JSON, with the byte offset where reading stopped.
    public struct ParseError: Error, Equatable, Sendable {
        /// What was wrong, in words.
        public var reason: String
        /// The 0-based byte offset of the problem.
        public var offset: Int
    }

    /// How deep arrays and objects may nest: deeper input is refused rather than recursed into.
    public static let maximumDepth = 256

    /// An integer as a number.
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// A string, or null when nil.
    public static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode(JSONObject.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n):
            if n.rounded() == n, abs(n) < 1e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    // MARK: Reading values

    /// The value of `key` in an object (the last one when a key is repeated); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as an integer, if it is a whole number that fits.
    public var intValue: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) < 9.007_199_254_740_992e15 else {
            return nil
        }
        return Int(n)
    }

    /// The boolean, if this is one.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The items, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    // MARK: Writing

    /// The text on one line, without blanks: what a protocol message carries.
    public var compact: String {
        var out = ""
        write(to: &out)
        return out
    }

    /// The value as the user would type it in JSON: a string as itself, else keys sorted.
    public var display: String {
        switch self {
        case .string(let s): return s
        default:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += JSONValue.format(n)
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (key, value)) in pairs.pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.quote(key, into: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A whole number without a fraction (`3`, not `3.0`); JSON has no NaN or infinity, so those
    /// are written as null.
    static func format(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n.rounded() == n && abs(n) < 1e15 { return String(Int(n)) }
        return String(n)
    }

    /// Appends `s` as a JSON string: quotes, backslashes and control characters escaped, every
    /// other character as itself.
    public static func quote(_ s: String, into out: inout String) {
        out += "\""
        // Most strings (paths, URIs, words) need no escape: copied whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    // MARK: Parsing

    /// Reads `bytes` as one JSON value (blanks around it allowed, nothing else).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.document()
    }

    /// Reads `text` as one JSON value.
    public static func parse(_ text: String) throws(ParseError) -> JSONValue { try parse(Array(text.utf8)) }
}

/// A JSON object: its members in the order read or built. Two objects are equal when they have
/// the same keys with equal values, in any order (as JSON means it).
public struct JSONObject: Codable, Equatable, Sendable, ExpressibleByDictionaryLiteral {
    /// The members in order; a key may repeat in text read, and then the last one counts.
    public var pairs: [(String, JSONValue)]

    public init(_ pairs: [(String, JSONValue)]) { self.pairs = pairs }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { pairs = elements }

    /// The value of `key` (the last one when it repeats); setting appends or replaces it.
    public subscript(key: String) -> JSONValue? {
        get { pairs.last(where: { $0.0 == key })?.1 }
        set {
            pairs.removeAll { $0.0 == key }
            if let newValue { pairs.append((key, newValue)) }
        }
    }

    /// The members as a dictionary (the last value of a repeated key).
    public var dictionary: [String: JSONValue] {
        Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool { a.dictionary == b.dictionary }

    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MemberKey.self)
        pairs = try c.allKeys.map { ($0.stringValue, try c.decode(JSONValue.self, forKey: $0)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: MemberKey.self)
        for (i, (key, value)) in pairs.enumerated() where !pairs[(i + 1)...].contains(where: { $0.0 == key })
        {
            try c.encode(value, forKey: MemberKey(stringValue: key))
        }
    }
}
