import Foundation
import TestSupport

@testable import NotesKit
@testable import notes

// The libFuzzer entry of the fuzz targets (`Tests/Fuzz/fuzz.sh` builds it; `swift build` never
// sees it). The invariants are those `swift test` checks on seeded inputs, in
// `Tests/NotesKitTests/Fuzz/` and `Tests/notesTests/Fuzz/`; here libFuzzer's coverage-guided
// mutations drive them, from a corpus seeded with the same generators. A broken invariant is a
// crash, which libFuzzer reports with the input that caused it.

/// The target this process fuzzes (`NOTES_FUZZ_TARGET`).
enum FuzzTarget: String, CaseIterable {
    case frontmatter, dates, fold, query, index, args

    nonisolated(unsafe) static var current = FuzzTarget.frontmatter
    nonisolated(unsafe) static var folder = TextFolder()

    /// An input the generators make, for the first corpus.
    func seedInput(_ r: inout SplitMix) -> [UInt8] {
        switch self {
        case .frontmatter: return Array(FuzzText.note(&r).utf8)
        case .dates: return Array(FuzzText.date(&r).utf8)
        case .fold: return Array((0..<r.within(1...8)).map { _ in FuzzText.piece(&r) }.joined().utf8)
        case .query: return Array(FuzzText.query(&r).utf8) + [0] + Array(FuzzText.note(&r).utf8)
        case .index: return (0..<8).map { _ in UInt8(truncatingIfNeeded: r.next()) } + [r.pick([0, 1, 2, 3])]
        case .args:
            return ArgumentFuzz.line(seed: r.next()).argv.map { Array($0.utf8) }.joined(separator: [0]).map {
                $0
            }
        }
    }

    /// The invariants `bytes` breaks.
    func check(_ bytes: [UInt8]) -> [String] {
        // Values besides the text (content, times, zone) from a hash of the input.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        var r = SplitMix(seed: hash)
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .frontmatter:
            return DocumentFuzz.check(
                text, content: FuzzText.content(&r), updated: FuzzText.seconds(&r),
                fallback: FuzzText.seconds(&r))
                + DocumentFuzz.checkFile(bytes, path: "fuzz.md", mtime: FuzzText.seconds(&r))
        case .dates:
            let bits =
                bytes.count >= 8
                ? bytes.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) } : 0
            let seconds = Double(bitPattern: bits)
            return DateFuzz.check(text, zone: r.pick(DateFuzz.zones)) + DateFuzz.checkFormat(seconds)
        case .fold:
            return FoldFuzz.check(bytes, folder: &Self.folder)
        case .query:
            let cut = bytes.firstIndex(of: 0) ?? bytes.count
            return QueryFuzz.check(
                String(decoding: bytes[..<cut], as: UTF8.self),
                text: String(decoding: bytes[min(cut + 1, bytes.count)...], as: UTF8.self),
                folder: &Self.folder)
        case .index:
            // Index files made from a seed, checked whole or damaged as the rest of the input says;
            // or the input itself as an index file.
            guard bytes.count >= 9 else { return IndexFuzz.checkRaw(bytes) }
            let seed = bytes.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
            var seeded = SplitMix(seed: seed)
            switch bytes[8] % 4 {
            case 0: return IndexFuzz.checkRoundTrip(&seeded, folder: &Self.folder)
            case 1: return IndexFuzz.checkDamage(seed: seed, edits: bytes[9...], folder: &Self.folder)
            case 2: return IndexFuzz.checkDelta(&seeded, folder: &Self.folder)
            default: return IndexFuzz.checkRaw(Array(bytes[9...]))
            }
        case .args:
            return ArgumentFuzz.check(
                bytes.split(separator: 0, omittingEmptySubsequences: false).map {
                    String(decoding: $0, as: UTF8.self)
                })
        }
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["NOTES_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("NOTES_FUZZ_TARGET must be one of: \(names)\n".utf8))
        exit(2)
    }
    FuzzTarget.current = target
    // The first corpus folder named on the command line gets 200 generated inputs when empty.
    let arguments = (0..<Int(argc.pointee)).compactMap { argv.pointee[$0].map { String(cString: $0) } }
    if let corpus = arguments.dropFirst().first(where: { !$0.hasPrefix("-") }),
        (try? FileManager.default.contentsOfDirectory(atPath: corpus).isEmpty) ?? true
    {
        try? FileManager.default.createDirectory(atPath: corpus, withIntermediateDirectories: true)
        var r = SplitMix(seed: 13)
        for n in 0..<200 {
            let input = target.seedInput(&r)
            _ = FileManager.default.createFile(atPath: corpus + "/seed-\(n)", contents: Data(input))
        }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let problems = FuzzTarget.current.check(bytes)
    if !problems.isEmpty {
        FileHandle.standardError.write(
            Data(("\nfuzz \(FuzzTarget.current.rawValue): " + problems.joined(separator: "\n") + "\n").utf8))
        abort()
    }
    return 0
}
