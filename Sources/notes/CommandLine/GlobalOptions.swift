/// The global options, accepted before or after any subcommand.
enum GlobalOptions {
    static let vault = Option<String>(
        "vault", value: "dir", kind: .directory,
        help: "The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).")
    static let config = Option<String>(
        "config", value: "file", kind: .file,
        help: "The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).")
    static let color = Option<ColorMode>(
        "color", value: "when", help: "Colour output: \(ColorMode.choiceList) (default: auto).")
    static let quiet = Flag(
        "quiet", short: "q", help: "Print no warnings about the vault's files or the settings.",
        inUsage: false)
    static let help = Flag("help", short: "h", help: "Show help information.", inUsage: false)
    static let version = Flag("version", help: "Show the version.", inUsage: false)
    static let noPager = Flag(
        "no-pager", help: "Do not send long output through the pager (also: NOTES_PAGER=).", inUsage: false)

    /// All of them, in help order.
    static let all = [vault.spec, config.spec, color.spec, quiet.spec, noPager.spec, help.spec, version.spec]
}

/// The global options' values for one run.
struct GlobalValues: Sendable {
    var vault: String?
    var config: String?
    var color: ColorMode = .auto
    var quiet = false
    var noPager = false

    init(
        vault: String? = nil, config: String? = nil, color: ColorMode = .auto, quiet: Bool = false,
        noPager: Bool = false
    ) {
        self.vault = vault
        self.config = config
        self.color = color
        self.quiet = quiet
        self.noPager = noPager
    }

    /// The values given on a checked command line. An empty `--vault` or `--config` (an unset
    /// variable in a script) is an error, never a silent fall-back to another vault or file.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        for option in [GlobalOptions.vault, GlobalOptions.config] where arguments.value(option) == "" {
            throw UsageError(message: "'--\(option.spec.long)' needs a value; it was empty.", command: nil)
        }
        self.init(
            vault: arguments.value(GlobalOptions.vault), config: arguments.value(GlobalOptions.config),
            color: try arguments.value(GlobalOptions.color) ?? .auto,
            quiet: arguments.flag(GlobalOptions.quiet),
            noPager: arguments.flag(GlobalOptions.noPager))
    }
}
