/// A bounds-checked cursor over the index bytes; every read is nil past the end.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    mutating func byte() -> UInt8? { take(1)?.first }

    mutating func u16() -> UInt16? { take(2).map { UInt16(littleEndian: $0.loadUnaligned(as: UInt16.self)) } }

    mutating func u32() -> UInt32? { take(4).map { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) } }

    mutating func u64() -> UInt64? { take(8).map { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) } }

    /// A length-prefixed string (bytes that are not UTF-8 are repaired).
    mutating func repairedString() -> String? {
        guard let length = u32(), let slice = take(Int(length)) else { return nil }
        return String(decoding: slice, as: UTF8.self)
    }

    /// A length-prefixed string's place in the whole buffer, without making it.
    mutating func range() -> Range<Int>? {
        guard let length = u32(), take(Int(length)) != nil else { return nil }
        return (offset - Int(length))..<offset
    }
}
