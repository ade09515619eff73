/// A small, stable hash for names derived from text (cache folders, editor markers): the same
/// bytes give the same value in every process and on every run, unlike `Hasher`.
public enum Hashing {
    /// The 64-bit FNV-1a hash of `bytes`, as lower-case hexadecimal.
    public static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        String(fnv1a64(bytes), radix: 16)
    }

    /// The 64-bit FNV-1a hash of `bytes`.
    public static func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
