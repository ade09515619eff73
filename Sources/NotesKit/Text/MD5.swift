import Foundation

/// MD5 (RFC 1321), written out here because the toolchain's Foundation has no digest on Linux:
/// Evernote names each resource of a note by the MD5 of its bytes, and imported entries without
/// ids of their own are named by a short MD5 of their text. Not for anything that needs security.
public enum MD5 {
    /// The 16-byte digest of `bytes`.
    public static func digest<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        let bytes = Array(bytes)
        let whole = bytes.count / 64 * 64
        for start in stride(from: 0, to: whole, by: 64) { compress(bytes, at: start, into: &state) }
        // The padding: a one bit, zeros up to 56 bytes of the last block, the length in bits.
        var tail = Array(bytes[whole...])
        tail.append(0x80)
        tail += [UInt8](repeating: 0, count: (tail.count <= 56 ? 56 : 120) - tail.count)
        let bitLength = UInt64(bytes.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        for start in stride(from: 0, to: tail.count, by: 64) { compress(tail, at: start, into: &state) }
        var out = [UInt8]()
        out.reserveCapacity(16)
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) {
                out.append(UInt8(truncatingIfNeeded: word >> shift))
            }
        }
        return out
    }

    /// The digest of `bytes` as 32 lower-case hexadecimal digits, as Evernote writes it.
    public static func hex<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(32)
        for byte in digest(bytes) {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of a text's UTF-8 bytes, in hexadecimal.
    public static func hex(_ text: String) -> String { hex(Array(text.utf8)) }

    /// The per-round shift amounts.
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// The constants: the integer part of 2^32 × |sin(i + 1)|.
    private static let constants: [UInt32] = (0..<64).map {
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296))
    }

    /// The 64-byte block of `bytes` at `start` folded into the state.
    private static func compress(
        _ bytes: [UInt8], at start: Int, into state: inout (UInt32, UInt32, UInt32, UInt32)
    ) {
        var words = [UInt32](repeating: 0, count: 16)
        for i in 0..<16 {
            words[i] =
                UInt32(bytes[start + 4 * i]) | UInt32(bytes[start + 4 * i + 1]) << 8
                | UInt32(bytes[start + 4 * i + 2]) << 16 | UInt32(bytes[start + 4 * i + 3]) << 24
        }
        var (a, b, c, d) = state
        for i in 0..<64 {
            var f: UInt32
            let g: Int
            switch i {
            case 0..<16:
                f = (b & c) | (~b & d)
                g = i
            case 16..<32:
                f = (d & b) | (~d & c)
                g = (5 * i + 1) % 16
            case 32..<48:
                f = b ^ c ^ d
                g = (3 * i + 5) % 16
            default:
                f = c ^ (b | ~d)
                g = (7 * i) % 16
            }
            f = f &+ a &+ constants[i] &+ words[g]
            a = d
            d = c
            c = b
            b = b &+ (f << shifts[i] | f >> (32 - shifts[i]))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
