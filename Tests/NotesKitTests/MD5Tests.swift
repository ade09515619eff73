import NotesKit
import Testing

@Suite struct MD5Tests {
    /// The test suite of RFC 1321 (appendix A.5), and two longer inputs known from elsewhere.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        (
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            "d174ab98d277d9f5a5611c2c9f419d9f"
        ),
        (
            "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            "57edf4a22be3c955ac49da2e2107b67a"
        ),
        ("The quick brown fox jumps over the lazy dog", "9e107d9d372bb6826bd81d3542a419d6"),
        ("The quick brown fox jumps over the lazy dog.", "e4d909c290d0fb1ca068ffaddf22cbd0"),
    ])
    func knownDigests(input: String, expected: String) {
        #expect(MD5.hex(input) == expected)
    }

    @Test func aMillionAs() {
        #expect(
            MD5.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "7707d6ae4e027c70eea2a935c2296f21")
    }

    /// Every length around the block edges, where the padding takes one block or two: checked
    /// against digests `md5sum` printed for runs of the byte 0x61 this long.
    @Test(arguments: [
        (55, "ef1772b6dff9a122358552954ad0df65"),
        (56, "3b0c8ac703f828b04c6c197006d17218"),
        (57, "652b906d60af96844ebd21b674f35e93"),
        (63, "b06521f39153d618550606be297466d5"),
        (64, "014842d480b571495a4a0363793f7367"),
        (65, "c743a45e0d2e6a95cb859adae0248435"),
        (128, "e510683b3f5ffe4093d021808bc6ff70"),
    ])
    func blockEdges(count: Int, expected: String) {
        #expect(MD5.hex([UInt8](repeating: 0x61, count: count)) == expected)
    }

    /// Sixteen blocks of every byte value, against Python's `hashlib.md5`.
    @Test func multiBlockBinary() {
        let bytes = (0..<1000).map { UInt8(($0 * 7) % 256) }
        #expect(MD5.hex(bytes) == "de809ff794e91b68f9e91a2b7030bcb0")
    }

    @Test func digestBytes() {
        #expect(MD5.digest(Array("abc".utf8)).count == 16)
        #expect(MD5.digest(Array("abc".utf8)).first == 0x90)
    }
}
