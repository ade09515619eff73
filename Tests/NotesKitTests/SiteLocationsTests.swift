import Foundation
import TestSupport
import Testing

@testable import NotesKit

/// `SiteLocations`, which finds link sites on their lines without a `TextPositions` of the whole
/// file, against the way it replaced: every line indexed, the n-th occurrence found on it.
@Suite struct SiteLocationsTests {
    /// The slow way: the whole text's `TextPositions`, the n-th occurrence of the text on its line.
    static func slow(_ sites: [(line: Int, text: String)], in text: String, encoding: PositionEncoding)
        -> [String]
    {
        let positions = TextPositions(text)
        var seen: [String: Int] = [:]
        return sites.map { site in
            let key = "\(site.line)\n\(site.text)"
            let nth = seen[key, default: 0]
            seen[key] = nth + 1
            guard site.line >= 0, site.line < positions.lineCount else { return "none" }
            let line = positions.lineRange(site.line)
            let needle = Array(site.text.utf8)
            var count = 0
            var i = line.lowerBound
            while !needle.isEmpty && i + needle.count <= line.upperBound {
                if positions.bytes[i..<(i + needle.count)].elementsEqual(needle) {
                    if count == nth {
                        let start = positions.position(of: i, encoding: encoding)
                        let end = positions.position(of: i + needle.count, encoding: encoding)
                        return "\(start.line):\(start.column)-\(end.line):\(end.column)"
                    }
                    count += 1
                    i += needle.count
                } else {
                    i += 1
                }
            }
            return "none"
        }
    }

    static func fast(_ sites: [(line: Int, text: String)], in text: String, encoding: PositionEncoding)
        -> [String]
    {
        SiteLocations.locate(sites, in: Array(text.utf8), encoding: encoding).map { found in
            found.map { "\($0.start.line):\($0.start.column)-\($0.end.line):\($0.end.column)" } ?? "none"
        }
    }

    static let text =
        "# T\r\na😀中e\u{301} [[x]] and [[x]] [[x]]\r\n\n[[y]][[y]] 🇫🇷 [[x]]\n[[last]]"
    static let sites: [(line: Int, text: String)] = [
        (1, "[[x]]"), (1, "[[x]]"), (1, "[[x]]"), (1, "[[x]]"),  // the fourth is not there
        (3, "[[y]]"), (3, "[[y]]"), (3, "[[x]]"), (4, "[[last]]"),
        (0, "# T\r"),  // a line's final CR is not part of it
        (2, "[[x]]"), (5, "[[x]]"), (-1, "[[x]]"), (1, ""),
        (1, "[[x]]"),  // back up a line after the last one: counted on with the others
    ]

    @Test(arguments: [PositionEncoding.utf16, .utf8])
    func locationsEqualTheWholeTextsPositions(encoding: PositionEncoding) {
        let fast = Self.fast(Self.sites, in: Self.text, encoding: encoding)
        #expect(fast == Self.slow(Self.sites, in: Self.text, encoding: encoding))
        #expect(fast.filter { $0 != "none" }.count == 7)
        if encoding == .utf16 {
            #expect(fast[0] == "1:7-1:12")
            #expect(fast[6] == "3:16-3:21")
        }
    }

    /// Sites read from the files of a vault: each file once, on all cores, its sites in their
    /// order; a file that is not UTF-8 and a missing file locate nothing.
    @Test func sitesOfManyFilesEqualTheSlowWay() throws {
        var tree: [Sandbox.Item] = (0..<40).map { i in
            .file("n\(i).md", String(repeating: "line 😀\n", count: i) + "x [[hub]] y [[hub]]\n")
        }
        tree.append(.file("hub.md", "# Hub\n"))
        tree.append(.bytes("bad.md", Array("[[hub]] \u{FF}".utf8) + [0xFF, 0x0A]))
        try Sandbox(tree: tree).test { root in
            let catalog = store(try Vault(root: root)).refresh()
            let hub = try #require(catalog.notes.first { $0.id == "hub" })
            var sites = catalog.backlinks(to: hub)
            #expect(sites.count == 80)
            // The same site, said to be in a file that is not UTF-8 and in one that is gone.
            var bad = try #require(sites.first)
            bad.source.path = "bad.md"
            var missing = bad
            missing.source.path = "gone.md"
            sites += [bad, missing]
            var expected = [String](repeating: "none", count: sites.count)
            for path in Set(sites.map(\.source.path)) {
                let members = sites.indices.filter { sites[$0].source.path == path }
                guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else {
                    continue
                }
                let slow = Self.slow(
                    members.map { (sites[$0].line - 1, sites[$0].text) }, in: text, encoding: .utf16)
                for (k, i) in members.enumerated() { expected[i] = slow[k] }
            }
            let fast = SiteLocations.locate(sites, root: root, encoding: .utf16).map { found in
                found.map { "\($0.start.line):\($0.start.column)-\($0.end.line):\($0.end.column)" } ?? "none"
            }
            #expect(fast == expected)
            #expect(expected.filter { $0 != "none" }.count == 80)
            let first = try #require(sites.firstIndex { $0.source.id == "n0" })
            #expect(fast[first] == "0:2-0:9")
            // Read again after its pages went back to the kernel, the index answers the same.
            catalog.index?.releaseResidentPages()
            #expect(catalog.backlinks(to: hub) == Array(sites.dropLast(2)))
        }
    }
}
