/// One change to a file's bytes: the bytes in `range` replaced by `replacement`. A move and the
/// language server's rename describe a rewrite with these, so both make the same change.
public struct ByteEdit: Equatable, Sendable {
    /// The bytes replaced, as offsets in the file (or buffer) the edit was worked out on.
    public var range: Range<Int>
    /// What replaces them.
    public var replacement: String

    public init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }

    /// `bytes` with `edits` (in order, not overlapping) made; nil when an edit reaches past the
    /// end or overlaps the one before, which means the bytes are not those the edits were made on.
    public static func apply(_ edits: [ByteEdit], to bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var at = 0
        for edit in edits {
            guard edit.range.lowerBound >= at, edit.range.upperBound <= bytes.count else { return nil }
            out += bytes[at..<edit.range.lowerBound]
            out += Array(edit.replacement.utf8)
            at = edit.range.upperBound
        }
        out += bytes[at...]
        return out
    }
}
