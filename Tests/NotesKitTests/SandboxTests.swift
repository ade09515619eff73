import Foundation
import TestSupport
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The tests' sandbox leaves nothing behind in the temporary folder.
@Suite struct SandboxTests {
    /// Folders nested past PATH_MAX (as `BadInputTests.foldersFiveHundredDeep` makes), which
    /// FileManager cannot remove, go too.
    @Test func aSandboxRemovesFoldersNestedPastPathMax() throws {
        var root = ""
        do {
            let s = try Sandbox()
            root = s.root.path
            let deep = RawFiles.nest(s.vault, "folder-abc", depth: 500)
            #expect(deep >= 0 && RawFiles.create(deep, "deeper.md", Array("# Deeper\n".utf8)))
            close(deep)
        }
        #expect(!root.isEmpty && access(root, F_OK) != 0)
    }
}
