/// `file://` URIs, as editors name documents, and the paths they stand for.
public enum FileURI {
    /// The absolute path of a `file:` URI (percent-escapes decoded); nil for any other URI.
    public static func path(_ uri: String) -> String? {
        guard uri.hasPrefix("file://") else { return nil }
        var rest = Substring(uri.dropFirst("file://".count))
        // `file://host/path`: only an empty host or localhost is this machine.
        if !rest.hasPrefix("/") {
            guard rest.hasPrefix("localhost/") else { return nil }
            rest = rest.dropFirst("localhost".count)
        }
        let path = NoteLinks.percentDecoded(String(rest))
        return path.isEmpty ? nil : path
    }

    /// The `file:` URI of an absolute path, escaping all but unreserved characters and `/`.
    public static func uri(_ path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }
}
