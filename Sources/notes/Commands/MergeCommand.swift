import NotesKit

/// `notes __merge -- BASE OURS THEIRS MARKER-SIZE PATH`: the merge driver git runs for notes
/// (`merge.notes.driver`, which `init` and `sync` set up): the later `updatedAt`, the earlier of
/// two new `createdAt` lines, then git's line merge. Exits 1 when the same lines changed on both sides, with the markers left in OURS.
struct MergeCommand: NotesCommand {
    static let baseArgument = Positional<String>(
        "base", help: "The common ancestor (%O).", missing: "Missing %O.")
    static let oursArgument = Positional<String>(
        "ours", help: "Our version, replaced by the result (%A).", missing: "Missing %A.")
    static let theirsArgument = Positional<String>(
        "theirs", help: "Their version (%B).", missing: "Missing %B.")
    static let markerSizeArgument = Positional<PositiveCount>(
        "marker-size", help: "The length of the conflict markers (%L).", missing: "Missing %L.")
    static let pathArgument = Positional<String>(
        "path", help: "The note's path in the work tree (%P).", missing: "Missing %P.")

    static let spec = CommandSpec(
        name: "__merge", overview: "Merge three versions of a note (git's merge driver).",
        arguments: [
            baseArgument.spec, oursArgument.spec, theirsArgument.spec, markerSizeArgument.spec,
            pathArgument.spec,
        ],
        hidden: true)

    /// The `merge.notes.driver` command that runs this binary's driver.
    static func driverCommand(binary: String) -> String {
        Shell.quote(binary) + " " + spec.name + " -- %O %A %B %L %P"
    }

    let base: String
    let ours: String
    let theirs: String
    let markerSize: Int
    let path: String

    init(_ arguments: ParsedArguments) throws(UsageError) {
        base = try arguments.argument(Self.baseArgument)
        ours = try arguments.argument(Self.oursArgument)
        theirs = try arguments.argument(Self.theirsArgument)
        markerSize = try arguments.argument(Self.markerSizeArgument).value
        path = try arguments.argument(Self.pathArgument)
    }

    func run(_ context: Context) throws {
        // git runs the driver at the top of the work tree, with its temporary files there.
        func absolute(_ file: String) -> String { file.hasPrefix("/") ? file : context.cwd + "/" + file }
        let clean = try MergeDriver.merge(
            base: absolute(base), ours: absolute(ours), theirs: absolute(theirs), path: path,
            markerSize: markerSize, environment: context.environment)
        if !clean {
            throw CommandError(
                "both sides changed the same lines of '\(path)'; they are left between conflict markers")
        }
    }
}
