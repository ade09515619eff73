// swift-tools-version:6.0
import PackageDescription

// A release build on Linux links the Swift runtime and Foundation in (`-static-stdlib`, at compile
// time too, where it picks the modules whose link entries name the static libraries): a command
// then starts in about 4 ms rather than 9 (no dynamic symbol binding of a dozen libraries), which
// every command pays. Debug builds (the tests) stay dynamic, quicker to link.
let staticInRelease: [SwiftSetting] = [
    .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
]
// Linked with lld: gold warns of the `mktemp` inside static Foundation's atomic `Data.write`, which
// this tool does not use (its temporary files come from `mkstemp`, its folders from `mkdtemp`).
let linkStaticInRelease: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld"], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
    name: "MyNotes",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "notes", targets: ["notes"]),
        .library(name: "NotesKit", targets: ["NotesKit"]),
    ],
    targets: [
        .target(name: "NotesKit", swiftSettings: staticInRelease),
        // notes.1 is the generated manual page kept beside the code it comes from (README: install).
        .executableTarget(
            name: "notes", dependencies: ["NotesKit"], exclude: ["notes.1"], swiftSettings: staticInRelease,
            linkerSettings: linkStaticInRelease),
        .executableTarget(
            name: "fold-bench", dependencies: ["NotesKit"], path: "Benchmarks/FoldBench",
            swiftSettings: staticInRelease, linkerSettings: linkStaticInRelease),
        // What both test targets share: the sandbox, the tree snapshot, the seeded generator, the
        // spawn helper and the pseudo-terminal (Tests/README.md).
        .target(name: "TestSupport", dependencies: ["NotesKit"], path: "Tests/TestSupport"),
        .testTarget(name: "NotesKitTests", dependencies: ["NotesKit", "TestSupport"]),
        // `notes` is a dependency so that `swift test` builds the binary the end-to-end tests run.
        .testTarget(name: "notesTests", dependencies: ["notes", "NotesKit", "TestSupport"]),
    ]
)
