import Foundation

extension TextFolding {
    /// The first occurrence, 32 starts at a time: a start is a candidate only where the needle's
    /// two rarest bytes (`Probes`) both match, so common letters alone rarely stop the scan, and
    /// only candidates are compared in full. The loop reads through raw pointers with wrapping
    /// arithmetic, its bounds worked out once, and leaves the candidates to a function of their
    /// own: the scan of every note's text for a search runs here.
    public static func firstIndex(of needle: [UInt8], in h: UnsafeRawBufferPointer) -> Int? {
        let n = needle.count
        if n == 0 { return 0 }
        guard n <= h.count, let hBase = h.baseAddress else { return nil }
        return needle.withUnsafeBytes { needleBytes -> Int? in
            guard let nBase = needleBytes.baseAddress else { return nil }
            if n == 1 {
                return memchr(hBase, Int32(needleBytes[0]), h.count).map {
                    hBase.distance(to: UnsafeRawPointer($0))
                }
            }
            return Probes(nBase, count: n).firstIndex(in: h, from: 0)
        }
    }

    /// How common each byte is in folded text, from 9 (a space, a line feed) down through the
    /// letters in the order of their frequency in English to 0 (rare letters, and the bytes of
    /// other scripts): for choosing the two bytes of a needle that stop a scan least often.
    static let commonness: [UInt8] = {
        var ranks = [UInt8](repeating: 0, count: 256)
        let tiers = [" \n", "e", "tao", "ins", "rh", "ldc", "umfp", "gwyb", "vk.,-0123456789\t"]
        for (tier, bytes) in tiers.enumerated() {
            for byte in bytes.utf8 { ranks[Int(byte)] = UInt8(9 - tier) }
        }
        return ranks
    }()

    /// The two bytes of a needle (of two bytes or more) a scan looks for, at two offsets: its
    /// rarest two. It points into the needle's bytes, so it lives only while they are at hand.
    struct Probes {
        let needle: UnsafeRawPointer
        let count: Int
        let firstOffset: Int, secondOffset: Int
        let first: SIMD16<UInt8>, second: SIMD16<UInt8>

        init(_ needle: UnsafeRawPointer, count: Int) {
            let ranks = TextFolding.commonness
            func rank(_ k: Int) -> UInt8 { ranks[Int(needle.load(fromByteOffset: k, as: UInt8.self))] }
            var rarest = 0
            for k in 1..<count where rank(k) < rank(rarest) { rarest = k }
            var next = rarest == 0 ? 1 : 0
            for k in 0..<count where k != rarest && rank(k) < rank(next) { next = k }
            self.needle = needle
            self.count = count
            firstOffset = min(rarest, next)
            secondOffset = max(rarest, next)
            first = SIMD16(repeating: needle.load(fromByteOffset: firstOffset, as: UInt8.self))
            second = SIMD16(repeating: needle.load(fromByteOffset: secondOffset, as: UInt8.self))
        }

        /// The first start at or after `start` in `h` where the needle (of two bytes or more) is.
        func firstIndex(in h: UnsafeRawBufferPointer, from start: Int) -> Int? {
            guard let hBase = h.baseAddress, count <= h.count - start else { return nil }
            // The last start of 16 starts whose loads stay inside the haystack.
            let lastBlock = h.count - count - 15
            guard lastBlock >= start else {
                for i in start...(h.count - count) where memcmp(hBase + i, needle, count) == 0 { return i }
                return nil
            }
            var i = start
            while i &+ 16 <= lastBlock {
                if let found = first32(in: hBase, at: i) { return found }
                i &+= 32
            }
            // At most two blocks of 16 more, the last ending with the last start (the starts it
            // shares with the one before hold no match).
            while true {
                let start = min(i, lastBlock)
                let x = candidates(in: hBase, at: start)
                let words = unsafeBitCast(x, to: SIMD2<UInt64>.self)
                if words[0] | words[1] != 0, let found = first(in: hBase, at: start, x) { return found }
                if start == lastBlock { return nil }
                i &+= 16
            }
        }

        /// The first of the 32 starts from `i` in `h` where the needle is (all of them starting no
        /// later than `h.count - count - 31`, so that every load stays inside).
        @inline(__always) func first32(in h: UnsafeRawPointer, at i: Int) -> Int? {
            let x = candidates(in: h, at: i)
            let y = candidates(in: h, at: i &+ 16)
            let either = unsafeBitCast(x .| y, to: SIMD2<UInt64>.self)
            guard either[0] | either[1] != 0 else { return nil }
            return first(in: h, at: i, x) ?? first(in: h, at: i &+ 16, y)
        }

        /// Which of the 16 starts from `i` in `h` have both bytes in place.
        @inline(__always) func candidates(in h: UnsafeRawPointer, at i: Int) -> SIMDMask<SIMD16<Int8>> {
            (h.loadUnaligned(fromByteOffset: i &+ firstOffset, as: SIMD16<UInt8>.self) .== first)
                .& (h.loadUnaligned(fromByteOffset: i &+ secondOffset, as: SIMD16<UInt8>.self) .== second)
        }

        /// The first start in the block of 16 from `i` in `h` where the needle is, of those
        /// `candidates` marks.
        @inline(never) func first(in h: UnsafeRawPointer, at i: Int, _ candidates: SIMDMask<SIMD16<Int8>>)
            -> Int?
        {
            // A candidate's lane is a byte of all ones, 8 lanes a word, the first in the low bits
            // (every platform Swift runs on is little-endian).
            let words = unsafeBitCast(candidates, to: SIMD2<UInt64>.self)
            for half in 0..<2 {
                var lanes = words[half]
                while lanes != 0 {
                    let bit = lanes.trailingZeroBitCount
                    let start = i &+ half &* 8 &+ bit &>> 3
                    if memcmp(h + start, needle, count) == 0 { return start }
                    lanes &= ~(0xFF &<< UInt64(bit))
                }
            }
            return nil
        }
    }
}
