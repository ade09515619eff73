import NotesKit
import Testing

@testable import notes

/// The typed declarations say what each argument holds, so completions can offer the right words.
@Suite struct ArgumentDeclarationTests {
    /// Every positional argument's kind, by command.
    @Test func positionalsDeclareTheirKind() {
        func kinds(_ type: any NotesCommand.Type) -> [ArgumentKind] { type.spec.arguments.map(\.kind) }
        #expect(kinds(ShowCommand.self) == [.noteID])
        #expect(kinds(EditCommand.self) == [.noteID, .text])
        #expect(kinds(DeleteCommand.self) == [.noteID])
        #expect(kinds(PathCommand.self) == [.noteID])
        #expect(kinds(RestoreCommand.self) == [.trashedNoteID])
        #expect(kinds(InitCommand.self) == [.directory])
        #expect(kinds(ConfigSetCommand.self) == [.settingsKey, .settingsValue])
        #expect(kinds(ConfigGetCommand.self) == [.settingsKey])
    }

    /// Choices come from the enums' cases, in one place.
    @Test func choicesComeFromAllCases() {
        #expect(ListOptions.sortOption.spec.kind == .choice(SortOrder.allCases.map(\.rawValue)))
        #expect(GlobalOptions.color.spec.kind == .choice(["auto", "always", "never"]))
        #expect(AddCommand.folderOption.spec.kind == .folder)
    }

    /// Binding reports the first problem in command-line order and converts typed values.
    @Test func bindingChecksValuesThenArguments() throws {
        var parsed = try ArgumentParser.parse(
            ["--sort", "title", "-rn", "3"], options: ListOptions.specs,
            command: ListCommand.spec)
        try parsed.bind(to: ListCommand.spec)
        let options = try ListOptions(parsed)
        #expect(options.sort == .title && options.reverse && options.limit == 3 && !options.json)

        var bad = try ArgumentParser.parse(
            ["--limit", "0", "extra"], options: ListOptions.specs,
            command: ListCommand.spec)
        #expect(throws: UsageError.self) { try bad.bind(to: ListCommand.spec) }
        do {
            try bad.bind(to: ListCommand.spec)
        } catch {
            #expect(error.message == "'0' is not a valid limit; give a whole number above 0.")
        }
    }

    /// `notes config` without a subcommand runs `list`; with one, runs it; help shows the group.
    @Test func configResolvesItsSubcommands() throws {
        let plain = try ArgumentParser.resolve(["config"], commands: CLI.commands)
        #expect(plain.command?.spec.fullName == "config list")
        #expect(plain.group?.name == "config")
        let set = try ArgumentParser.resolve(
            ["--quiet", "settings", "set", "sort", "title"], commands: CLI.commands)
        #expect(set.command?.spec.fullName == "config set")
        #expect(set.group == nil)
    }
}
