import Foundation
import TestSupport
import Testing

/// The full help text of every command, and whole usage errors (stdout, stderr and exit code
/// together), so any change to how help and usage lines are generated shows here.
@Suite struct HelpTextTests {
    @Test(arguments: HelpTextTests.helpCases)
    func helpIsExactly(command: [String], expected: String) throws {
        let s = try Sandbox()
        let r = try s.run(command + ["--help"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr == "")
        #expect(r.stdout == expected)
    }

    @Test(arguments: HelpTextTests.errorCases)
    func usageErrorIsExactly(arguments: [String], expected: String) throws {
        let s = try Sandbox()
        let r = try s.run(arguments)
        #expect(r.status == 64, "\(r)")
        #expect(r.stdout == "")
        #expect(r.stderr == expected)
    }

    static let helpCases: [([String], String)] = [
        (
            [],
            """
            OVERVIEW: Keep notes as Markdown files in a folder, from the terminal.

            USAGE: notes [--vault <dir>] [--config <file>] [--color <when>] <subcommand>

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            SUBCOMMANDS:
              init              Make a folder a vault (creates its .notes/ state folder).
              add, new          Add a note and print its ID.
              list, ls          List notes, newest first.
              search, find      Find notes containing every term of a query.
              show, cat         Print a note.
              edit, update      Replace a note's text, or edit it in the editor.
              move, mv, rename  Rename or move a note, and rewrite every link to it.
              delete, rm        Move notes to the trash.
              trash             List the notes in the trash, or empty it.
              restore           Put a trashed note back (under a free name if its old one is taken).
              tags              List every tag with the number of notes that have it.
              links             List a note's links, or every broken link.
              backlinks         List the notes that link to a note.
              config, settings  Read and write the settings.
              path              Print the vault's path, or a note's file path.
              index             Bring the index cache up to date.
              browse            Browse, search and edit notes in a full-screen list.
              import            Bring notes in from another app.
              history, log      Show a note's git history.
              sync              Commit the notes changed here, then pull and push with git.
              conflicts         List conflict copies of notes, each with its original.
              lsp               Run the language server for editors (on stdin and stdout).
              today, daily      Open today's daily note, or add an entry to it.
              templates         List the templates of the template folder.
              completions       Print a shell completion script (bash, zsh or fish).
              help              Show help for a subcommand.

              Without a subcommand, notes opens the browser on a terminal, else lists the notes.
              See 'notes help <subcommand>' for detailed help.

            """
        ),
        (
            ["init"],
            """
            OVERVIEW: Make a folder a vault (creates its .notes/ state folder).

            USAGE: notes init [<dir>]

            ARGUMENTS:
              <dir>  The folder (default: --vault, else the current directory). Created if missing.

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["add"],
            """
            OVERVIEW: Add a note and print its ID.

            USAGE: notes add [--title <title>] [--folder <folder>] [--template <name>] [<text> ...]

            ALIASES: new

            ARGUMENTS:
              <text>  The note's text; '-' (or a pipe) reads stdin; none opens the editor.

            OPTIONS:
              -t, --title <title>    Start the note with the heading '# <title>'.
              -f, --folder <folder>  Put the note in this folder of the vault (created if missing).
              -T, --template <name>  Start from this template of the template folder (see 'notes templates').
              --vault <dir>          The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>        The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>         Colour output: auto, always or never (default: auto).
              -q, --quiet            Print no warnings about the vault's files or the settings.
              --no-pager             Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help             Show help information.
              --version              Show the version.

            Empty notes are never saved. The file is named after the title: 'Crème Brûlée' → creme-brulee.md.
            Run from a folder inside the vault, the note goes into that folder; --folder is relative to
            it there, and to the vault elsewhere.
            With --template, the template's placeholders are filled: {{title}} with --title, {{content}}
            with the text (without one, the text goes after the template), {{date}}, {{time}} and
            {{date:FORMAT}} with now. Left untouched in the editor, the template saves nothing.

            """
        ),
        (
            ["list"],
            """
            OVERVIEW: List notes, newest first.

            USAGE: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]

            ALIASES: ls

            OPTIONS:
              -s, --sort <order>  Order: updated, created or title (default: the 'sort' setting).
              -r, --reverse       Reverse the order.
              -n, --limit <n>     Show at most n notes.
              -t, --tag <tag>     Only notes with this tag, or one nested below it; repeat for all of several.
              --since <date>      Only notes dated on or after this date (see DATES).
              --until <date>      Only notes dated on or before this date (see DATES).
              --folder <folder>   Only notes in this folder or below it.
              --orphan            Only notes no other note links to.
              --links-to <id>     Only notes with a link to this note.
              --linked-from <id>  Only the notes this note links to.
              --json              Print a JSON array.
              --git               Mark notes with changes git has not committed ('*', "dirty" in JSON).
              --marks             Piped, add a fourth column with the marks ('!', '=', '*'); implied by --git.
              --vault <dir>       The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>     The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>      Colour output: auto, always or never (default: auto).
              -q, --quiet         Print no warnings about the vault's files or the settings.
              --no-pager          Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help          Show help information.
              --version           Show the version.

            On a terminal each note is a row: title, date and ID. Piped, each line is
            ID<TAB>DATE<TAB>TITLE with the date in ISO 8601 UTC, and with --marks a fourth column
            with the marks. Marks before a title: '!' the note holds conflict markers, '=' it has
            conflict copies (see 'notes conflicts'), '*' git has changes to it not committed yet
            (with --git).

            DATES: YYYY-MM-DD (a whole day, local time), YYYY-MM-DDTHH:MM[:SS] with an optional Z or
            offset, today, yesterday, 'N days ago' (also weeks, months, years), 'last week', a
            weekday name (the most recent one before today), Nd or Nw (7d: 7 days ago). A day counts
            whole: --since from its first second, --until to its last. The date is the one the order
            uses (updated: updatedAt, else createdAt).

            """
        ),
        (
            ["search"],
            """
            OVERVIEW: Find notes containing every term of a query.

            USAGE: notes search [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks] [<query> ...]

            ALIASES: find

            ARGUMENTS:
              <query>  Terms to find; "a quoted phrase" is one term, -term excludes one. None lists every note.

            OPTIONS:
              -s, --sort <order>  Order: updated, created, title or relevance (default: the 'sort' setting).
              -r, --reverse       Reverse the order.
              -n, --limit <n>     Show at most n notes.
              -t, --tag <tag>     Only notes with this tag, or one nested below it; repeat for all of several.
              --since <date>      Only notes dated on or after this date (see DATES).
              --until <date>      Only notes dated on or before this date (see DATES).
              --folder <folder>   Only notes in this folder or below it.
              --orphan            Only notes no other note links to.
              --links-to <id>     Only notes with a link to this note.
              --linked-from <id>  Only the notes this note links to.
              --json              Print a JSON array.
              --git               Mark notes with changes git has not committed ('*', "dirty" in JSON).
              --marks             Piped, add a fourth column with the marks ('!', '=', '*'); implied by --git.
              --vault <dir>       The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>     The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>      Colour output: auto, always or never (default: auto).
              -q, --quiet         Print no warnings about the vault's files or the settings.
              --no-pager          Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help          Show help information.
              --version           Show the version.

            Matching ignores case, accents and width: 'creme' finds 'Crème', 'strasse' finds
            'Straße'. A note matches when its title or body holds every term; a term #tag asks
            for the tag instead (or one nested below it), as --tag does.

            A term -word (or -"a phrase") keeps only the notes without it. The word OR between
            two terms takes either, and binds tighter than the spaces between terms: 'apple pie
            OR tart' is apple and (pie or tart). A word with one dash is an option only when each
            of its letters is one of the short options above (-r, -n5), so 'creme -brulee' needs
            no quotes; after '--' every word is a term.

            With --sort relevance, the notes whose title holds every term come first (a title
            that starts with the query first of all), then the rest, each group in the order
            of the 'sort' setting.

            DATES: YYYY-MM-DD (a whole day, local time), YYYY-MM-DDTHH:MM[:SS] with an optional Z or
            offset, today, yesterday, 'N days ago' (also weeks, months, years), 'last week', a
            weekday name (the most recent one before today), Nd or Nw (7d: 7 days ago). A day counts
            whole: --since from its first second, --until to its last. The date is the one the order
            uses (updated: updatedAt, else createdAt).

            """
        ),
        (
            ["show"],
            """
            OVERVIEW: Print a note.

            USAGE: notes show [--raw] [--json] <id>

            ALIASES: cat

            ARGUMENTS:
              <id>  A note: ID, path, unique ID prefix or title.

            OPTIONS:
              --raw            Print the whole file, front matter included.
              --json           Print a JSON object with the note's fields and body.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["edit"],
            """
            OVERVIEW: Replace a note's text, or edit it in the editor.

            USAGE: notes edit [--append] <id> [<text> ...]

            ALIASES: update

            ARGUMENTS:
              <id>    A note: ID, path, unique ID prefix or title.
              <text>  The new text; '-' reads stdin; none opens the editor (even from a script).

            OPTIONS:
              --append         Add the text as a new last line instead of replacing the body.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Only the body and the updatedAt line change; every other front-matter line stays as written.
            With --append, the text (or stdin, with '-') becomes a new last line of the body.
            A note whose front matter holds conflict markers (from 'notes sync') is edited whole,
            markers included.
            If the file changes on disk while the editor is open (or while '-' reads stdin), your text is
            saved beside it as <id>.conflict-YYYYMMDD-HHMMSS.md and nothing is overwritten.

            """
        ),
        (
            ["delete"],
            """
            OVERVIEW: Move notes to the trash.

            USAGE: notes delete [--yes] <id> ...

            ALIASES: rm

            ARGUMENTS:
              <id>  Notes: ID, path, unique ID prefix or title.

            OPTIONS:
              -y, --yes        Do not ask for confirmation.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            On a terminal each note is confirmed; without one, --yes is required. See 'notes restore'.

            """
        ),
        (
            ["trash"],
            """
            OVERVIEW: List the notes in the trash, or empty it.

            USAGE: notes trash [--json] [--empty] [--yes]

            OPTIONS:
              --json           Print a JSON array (with deletedAt).
              --empty          Remove every trashed note for good.
              -y, --yes        With --empty: do not ask for confirmation.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["restore"],
            """
            OVERVIEW: Put a trashed note back (under a free name if its old one is taken).

            USAGE: notes restore <id>

            ARGUMENTS:
              <id>  The trashed note's ID, unique ID prefix or title (see 'notes trash').

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["move"],
            """
            OVERVIEW: Rename or move a note, and rewrite every link to it.

            USAGE: notes move [--dry-run] <id> <new>

            ALIASES: mv, rename

            ARGUMENTS:
              <id>   A note: ID, path, unique ID prefix or title.
              <new>  Its new ID, or a folder ending in '/'.

            OPTIONS:
              -n, --dry-run    Only print what would change.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            NEW is an ID from the top of the vault: 'archive/idea' moves the note to archive/idea.md
            (folders are made); ending in '/', or naming a folder, it keeps the file name. Links to
            the note in other notes are rewritten to reach it at its new place, in the style they
            were written in; only the link targets change, so 'git diff' shows just those.

            """
        ),
        (
            ["tags"],
            """
            OVERVIEW: List every tag with the number of notes that have it.

            USAGE: notes tags [--json]

            OPTIONS:
              --json           Print a JSON array of {tag, count}.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Most used first. Tags come from the front matter's 'tags' and from #tags in the text;
            #Café and #cafe are one tag. A nested tag (work/meetings) is counted on its own; list
            --tag work finds it with its parent.

            """
        ),
        (
            ["links"],
            """
            OVERVIEW: List a note's links, or every broken link.

            USAGE: notes links [--broken] [--json] [<id>]

            ARGUMENTS:
              <id>  A note: ID, path, unique ID prefix or title.

            OPTIONS:
              --broken         Only broken links: of the note, or without one, of the vault.
              --json           Print a JSON array.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Links are [[Target]], [[Target|text]], [[Target#Heading]] and Markdown links to notes,
            [text](path/to/note.md). A [[Target]] goes to the note with that ID, else the note with
            that file name (the nearest one), else the note with that title. Attachment links
            (![[photo.png]], ![](img/a.png), [pdf](docs/x.pdf)) go to the vault's other files. A
            link is broken when its note or file is missing, or the heading or ^block it names.

            """
        ),
        (
            ["backlinks"],
            """
            OVERVIEW: List the notes that link to a note.

            USAGE: notes backlinks [--json] <id>

            ARGUMENTS:
              <id>  A note: ID, path, unique ID prefix or title.

            OPTIONS:
              --json           Print a JSON array.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["config"],
            """
            OVERVIEW: Read and write the settings.

            USAGE: notes config <subcommand>

            ALIASES: settings

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            SUBCOMMANDS:
              list   Every key, its value, and where it comes from: the vault, the user's file, Obsidian, or the default.
              get    Print one key's value.
              set    Set a key (the value is checked first).
              unset  Remove a key from the file, so its default applies.
              reset  Replace the file with defaults, keeping the old one as <file>.bak.
              path   Print the settings file's path.

              See 'notes help config <subcommand>' for detailed help.

            Without a subcommand, config lists every key.

            KEYS:
              isDarkOn        dark palette (true or false)
              scheme          colour theme: default, blue, orange, yellow, green, indigo
              sort            default order: updated, created, title
              titleFrom       where titles come from: content (heading or first line) or filename (as Obsidian)
              editor          editor command, e.g. 'code --wait'
              vault           default vault folder ('~' expanded)
              gitAutoCommit   commit each change to notes with git (true or false)
              dailyFolder     folder of the daily notes ('notes today'), in the vault; '' for its top
              dailyFormat     file name of a daily note, in date tokens (YYYY-MM-DD; '/' makes folders)
              templateFolder  folder of the templates ('notes add --template'), in the vault
              fileNames       new file names: slug (project-plan.md) or title (Project Plan.md, as Obsidian)

            sort, titleFrom, gitAutoCommit, dailyFolder, dailyFormat, templateFolder, fileNames
            belong to the vault: with --vault-local they go in its .notes/settings.json (committed with it)
            and win over the user's file. The others are personal.
            In a vault with an .obsidian/ folder, fileNames defaults to title and titleFrom to filename, and
            dailyFolder, dailyFormat and templateFolder to what its daily-notes.json and templates.json say
            (without them, daily notes at the vault's top named YYYY-MM-DD, as Obsidian makes them).

            """
        ),
        (
            ["config", "list"],
            """
            OVERVIEW: Every key, its value, and where it comes from: the vault, the user's file, Obsidian, or the default.

            USAGE: notes config list [--json]

            OPTIONS:
              --json           Print a JSON object.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["config", "get"],
            """
            OVERVIEW: Print one key's value.

            USAGE: notes config get <key>

            ARGUMENTS:
              <key>  A settings key (see KEYS below).

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            KEYS:
              isDarkOn        dark palette (true or false)
              scheme          colour theme: default, blue, orange, yellow, green, indigo
              sort            default order: updated, created, title
              titleFrom       where titles come from: content (heading or first line) or filename (as Obsidian)
              editor          editor command, e.g. 'code --wait'
              vault           default vault folder ('~' expanded)
              gitAutoCommit   commit each change to notes with git (true or false)
              dailyFolder     folder of the daily notes ('notes today'), in the vault; '' for its top
              dailyFormat     file name of a daily note, in date tokens (YYYY-MM-DD; '/' makes folders)
              templateFolder  folder of the templates ('notes add --template'), in the vault
              fileNames       new file names: slug (project-plan.md) or title (Project Plan.md, as Obsidian)

            sort, titleFrom, gitAutoCommit, dailyFolder, dailyFormat, templateFolder, fileNames
            belong to the vault: with --vault-local they go in its .notes/settings.json (committed with it)
            and win over the user's file. The others are personal.
            In a vault with an .obsidian/ folder, fileNames defaults to title and titleFrom to filename, and
            dailyFolder, dailyFormat and templateFolder to what its daily-notes.json and templates.json say
            (without them, daily notes at the vault's top named YYYY-MM-DD, as Obsidian makes them).

            """
        ),
        (
            ["config", "set"],
            """
            OVERVIEW: Set a key (the value is checked first).

            USAGE: notes config set [--vault-local] <key> <value>

            ARGUMENTS:
              <key>    A settings key (see KEYS below).
              <value>  The key's new value.

            OPTIONS:
              --vault-local    Write the vault's own settings (.notes/settings.json, committed with it).
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            KEYS:
              isDarkOn        dark palette (true or false)
              scheme          colour theme: default, blue, orange, yellow, green, indigo
              sort            default order: updated, created, title
              titleFrom       where titles come from: content (heading or first line) or filename (as Obsidian)
              editor          editor command, e.g. 'code --wait'
              vault           default vault folder ('~' expanded)
              gitAutoCommit   commit each change to notes with git (true or false)
              dailyFolder     folder of the daily notes ('notes today'), in the vault; '' for its top
              dailyFormat     file name of a daily note, in date tokens (YYYY-MM-DD; '/' makes folders)
              templateFolder  folder of the templates ('notes add --template'), in the vault
              fileNames       new file names: slug (project-plan.md) or title (Project Plan.md, as Obsidian)

            sort, titleFrom, gitAutoCommit, dailyFolder, dailyFormat, templateFolder, fileNames
            belong to the vault: with --vault-local they go in its .notes/settings.json (committed with it)
            and win over the user's file. The others are personal.
            In a vault with an .obsidian/ folder, fileNames defaults to title and titleFrom to filename, and
            dailyFolder, dailyFormat and templateFolder to what its daily-notes.json and templates.json say
            (without them, daily notes at the vault's top named YYYY-MM-DD, as Obsidian makes them).

            """
        ),
        (
            ["config", "unset"],
            """
            OVERVIEW: Remove a key from the file, so its default applies.

            USAGE: notes config unset [--vault-local] <key>

            ARGUMENTS:
              <key>  A settings key (see KEYS below).

            OPTIONS:
              --vault-local    Write the vault's own settings (.notes/settings.json, committed with it).
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            KEYS:
              isDarkOn        dark palette (true or false)
              scheme          colour theme: default, blue, orange, yellow, green, indigo
              sort            default order: updated, created, title
              titleFrom       where titles come from: content (heading or first line) or filename (as Obsidian)
              editor          editor command, e.g. 'code --wait'
              vault           default vault folder ('~' expanded)
              gitAutoCommit   commit each change to notes with git (true or false)
              dailyFolder     folder of the daily notes ('notes today'), in the vault; '' for its top
              dailyFormat     file name of a daily note, in date tokens (YYYY-MM-DD; '/' makes folders)
              templateFolder  folder of the templates ('notes add --template'), in the vault
              fileNames       new file names: slug (project-plan.md) or title (Project Plan.md, as Obsidian)

            sort, titleFrom, gitAutoCommit, dailyFolder, dailyFormat, templateFolder, fileNames
            belong to the vault: with --vault-local they go in its .notes/settings.json (committed with it)
            and win over the user's file. The others are personal.
            In a vault with an .obsidian/ folder, fileNames defaults to title and titleFrom to filename, and
            dailyFolder, dailyFormat and templateFolder to what its daily-notes.json and templates.json say
            (without them, daily notes at the vault's top named YYYY-MM-DD, as Obsidian makes them).

            """
        ),
        (
            ["config", "reset"],
            """
            OVERVIEW: Replace the file with defaults, keeping the old one as <file>.bak.

            USAGE: notes config reset

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["config", "path"],
            """
            OVERVIEW: Print the settings file's path.

            USAGE: notes config path

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["path"],
            """
            OVERVIEW: Print the vault's path, or a note's file path.

            USAGE: notes path [<id>]

            ARGUMENTS:
              <id>  A note: ID, path, unique ID prefix or title.

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            """
        ),
        (
            ["index"],
            """
            OVERVIEW: Bring the index cache up to date.

            USAGE: notes index [--rebuild]

            OPTIONS:
              --rebuild        Read every note again instead of only new and changed ones.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Every command keeps the cache in <vault>/.notes/index fresh by itself, reading only the notes
            that changed; this runs that step alone, and then checks every note in the cache against its
            checksums (commands check only what they read), rebuilding the cache if any is damaged. The
            cache can be deleted at any time.

            """
        ),
        (
            ["browse"],
            """
            OVERVIEW: Browse, search and edit notes in a full-screen list.

            USAGE: notes browse [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--replay <keys>] [--timing]

            OPTIONS:
              -t, --tag <tag>     Only notes with this tag, or one nested below it; repeat for all of several.
              --since <date>      Only notes dated on or after this date (see DATES).
              --until <date>      Only notes dated on or before this date (see DATES).
              --folder <folder>   Only notes in this folder or below it.
              --orphan            Only notes no other note links to.
              --links-to <id>     Only notes with a link to this note.
              --linked-from <id>  Only the notes this note links to.
              --replay <keys>     Replay these keys without a terminal and print the last screen; changes nothing.
              --timing            With --replay: print how long each key took instead.
              --vault <dir>       The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>     The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>      Colour output: auto, always or never (default: auto).
              -q, --quiet         Print no warnings about the vault's files or the settings.
              --no-pager          Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help          Show help information.
              --version           Show the version.

            Type to search (every keystroke filters, in the 'sort' order). Enter opens the selected
            note in the editor, or, when nothing matches, creates a note titled with the search.
            Up/Down or Ctrl-K/Ctrl-J, PgUp/PgDn, Home/End move; Ctrl-U and Ctrl-W erase the search;
            Ctrl-N adds a note; Ctrl-D deletes (after y); Ctrl-T toggles dark mode and Ctrl-S the
            theme (both saved); Tab shows a preview (100 columns or more); Esc clears, then quits;
            Ctrl-C quits.

            --replay keys are text with <Enter>, <Tab>, <BS>, <Del>, <Esc>, <Up>, <Down>, <Left>,
            <Right>, <PgUp>, <PgDn>, <Home>, <End>, <C-x> (Ctrl-X) and <lt> (a '<'); the screen is
            COLUMNS x LINES (default 80x24) when not on a terminal.

            --tag and the filters show only the notes they keep, as in 'notes list'; a search
            looks among those.

            DATES: YYYY-MM-DD (a whole day, local time), YYYY-MM-DDTHH:MM[:SS] with an optional Z or
            offset, today, yesterday, 'N days ago' (also weeks, months, years), 'last week', a
            weekday name (the most recent one before today), Nd or Nw (7d: 7 days ago). A day counts
            whole: --since from its first second, --until to its last. The date is the one the order
            uses (updated: updatedAt, else createdAt).

            """
        ),
        (
            ["import"],
            """
            OVERVIEW: Bring notes in from another app.

            USAGE: notes import [--folder <folder>] [--dry-run] <format> <path> ...

            ARGUMENTS:
              <format>  The app the notes come from: notetaker, mynotesapp, simplenote, jrnl, keep, enex.
              <path>    The app's export: files or folders.

            OPTIONS:
              -f, --folder <folder>  Put the notes in this folder of the vault (created if missing).
              --dry-run              Print what would be imported, and write nothing.
              --vault <dir>          The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>        The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>         Colour output: auto, always or never (default: auto).
              -q, --quiet            Print no warnings about the vault's files or the settings.
              --no-pager             Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help             Show help information.
              --version              Show the version.

            Each entry becomes a note as 'notes add' makes one, with its dates, its tags and
            importedFrom: <format>:<id>. The source is read and checked whole before anything is written.
            An entry already imported (its importedFrom is in the vault) or empty is skipped, so running
            an import again finishes one that was cut short, and adds nothing else.

            """
        ),
        (
            ["history"],
            """
            OVERVIEW: Show a note's git history.

            USAGE: notes history [--patch] [--json] <id>

            ALIASES: log

            ARGUMENTS:
              <id>  A note: ID, path, unique ID prefix or title (or the ID of a deleted one).

            OPTIONS:
              -p, --patch      Show each commit's changes to the note.
              --json           Print a JSON array.
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Newest first, following the note through renames (git log --follow).

            """
        ),
        (
            ["sync"],
            """
            OVERVIEW: Commit the notes changed here, then pull and push with git.

            USAGE: notes sync

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Commits the vault's changed notes (and only them) as gitAutoCommit would, then runs
            'git pull --rebase --autostash' and 'git push' when the branch has an upstream, and says
            which notes came in (added, changed, moved, deleted). Notes merge through a merge driver
            (.gitattributes, committed, with the local merge.notes.driver and info/attributes, all
            set up here) that keeps the later updatedAt, so only edits of the same lines conflict.
            A conflict stops the rebase with the notes named and the markers in them; remove the
            markers (notes edit, or any editor) and sync again to finish, or abort with
            'git rebase --abort'.

            """
        ),
        (
            ["lsp"],
            """
            OVERVIEW: Run the language server for editors (on stdin and stdout).

            USAGE: notes lsp [--stdio]

            OPTIONS:
              --stdio          Use stdin and stdout (the default; accepted as editors pass it).
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Speaks the Language Server Protocol (JSON-RPC with Content-Length headers) on stdin and
            stdout, logging to stderr: go to a link's note (definition), the links to a note
            (references), a note's first lines (hover), its headings (document symbols), notes by
            title or ID (workspace symbols), completion of notes after [[, their headings after
            [[note#, tags after # and relative paths after ](, and a code action that creates the
            note a broken link names (committed as add commits it, with gitAutoCommit). The vault
            is --vault or NOTES_VAULT, else the one found from the editor's workspace folder (or
            that folder itself), else the one found from the current directory.

            """
        ),
        (
            ["conflicts"],
            """
            OVERVIEW: List conflict copies of notes, each with its original.

            USAGE: notes conflicts [--json] [--diff]

            OPTIONS:
              --json           Print a JSON array.
              --diff           Show how each copy differs from its original (a unified diff).
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Copies are recognised by their names: Syncthing's name.sync-conflict-DATE-TIME-DEVICE.md,
            Dropbox's 'name (… conflicted copy …).md', Nextcloud's 'name (conflicted copy DATE TIME).md'
            and MyNotes' own id.conflict-DATE-TIME.md. Keep what you want in the original, then delete
            the copy ('notes delete ID').

            """
        ),
        (
            ["today"],
            """
            OVERVIEW: Open today's daily note, or add an entry to it.

            USAGE: notes today [--date <date>] [<text> ...]

            ALIASES: daily

            ARGUMENTS:
              <text>  An entry to add as '- HH:mm text'; '-' reads stdin; none opens the editor.

            OPTIONS:
              -d, --date <date>  Another day: 2026-12-01, yesterday, 3 days ago, friday, …
              --vault <dir>      The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>    The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>     Colour output: auto, always or never (default: auto).
              -q, --quiet        Print no warnings about the vault's files or the settings.
              --no-pager         Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help         Show help information.
              --version          Show the version.

            The note is <dailyFolder>/<date in dailyFormat>.md (journal/2026-12-02.md by default; in an
            Obsidian vault, where .obsidian/daily-notes.json puts it). A missing note is made from the
            'daily' template of the template folder (or the one daily-notes.json names), else it holds
            '# <date>'; it is kept even when the editor leaves it untouched. With text, the entry is added
            as its last line without an editor, and two at once both land. Prints the note's ID.
            A --date with a time dates the entry at that time. A note made for another day is created on
            that day, at the time of day it is now (or at the --date's time), so that the journal lists
            and filters by its days.

            """
        ),
        (
            ["templates"],
            """
            OVERVIEW: List the templates of the template folder.

            USAGE: notes templates

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            Templates are Markdown files in the templateFolder setting's folder (.templates/ in the vault
            by default; in an Obsidian vault, the folder of .obsidian/templates.json). 'notes add
            --template NAME' starts a note from NAME.md, and a 'daily' template makes the daily notes of
            'notes today'. Placeholders: {{title}}, {{date}}, {{time}}, {{date:FORMAT}}, {{time:FORMAT}}
            (date tokens such as YYYY-MM-DD, dddd, Do, GGGG-[W]WW), {{content}}, and in daily notes
            {{yesterday}} and {{tomorrow}} (the IDs of those days' notes).

            """
        ),
        (
            ["completions"],
            """
            OVERVIEW: Print a shell completion script (bash, zsh or fish).

            USAGE: notes completions <shell>

            ARGUMENTS:
              <shell>  The shell: bash, zsh or fish.

            OPTIONS:
              --vault <dir>    The vault folder (default: NOTES_VAULT, an enclosing vault, ~/Notes).
              --config <file>  The settings file (default: NOTES_CONFIG, $XDG_CONFIG_HOME/notes/settings.json).
              --color <when>   Colour output: auto, always or never (default: auto).
              -q, --quiet      Print no warnings about the vault's files or the settings.
              --no-pager       Do not send long output through the pager (also: NOTES_PAGER=).
              -h, --help       Show help information.
              --version        Show the version.

            It completes commands, options, their values (tags for --tag) and note IDs, from the
            index: matched ignoring case and accents, typed and inserted escaped or quoted. Install:
              bash  notes completions bash > ~/.local/share/bash-completion/completions/notes
              zsh   notes completions zsh > ~/.zfunc/_notes  (with fpath+=(~/.zfunc) before compinit)
              fish  notes completions fish > ~/.config/fish/completions/notes.fish

            """
        ),
    ]

    static let errorCases: [([String], String)] = [
        (
            ["browse", "--timing"],
            """
            Error: '--timing' needs '--replay'.
            Usage: notes browse [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--replay <keys>] [--timing]
              See 'notes browse --help' for more information.

            """
        ),
        (
            ["browse", "--replay", "cr<Dwon>"],
            """
            Error: '<Dwon>' in --replay is not a key; see 'notes browse --help' for the names.
            Usage: notes browse [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--replay <keys>] [--timing]
              See 'notes browse --help' for more information.

            """
        ),
        (
            ["list", "--frob"],
            """
            Error: Unknown option '--frob'.
            Usage: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]
              See 'notes list --help' for more information.

            """
        ),
        (
            ["show"],
            """
            Error: Missing the note to show.
            Usage: notes show [--raw] [--json] <id>
              See 'notes show --help' for more information.

            """
        ),
        (
            ["show", "a", "b"],
            """
            Error: Give one note to show.
            Usage: notes show [--raw] [--json] <id>
              See 'notes show --help' for more information.

            """
        ),
        (
            ["list", "--sort", "sideways"],
            """
            Error: 'sideways' is not a sort order; use updated, created or title.
            Usage: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]
              See 'notes list --help' for more information.

            """
        ),
        (
            ["list", "--color=sometimes"],
            """
            Error: 'sometimes' is not a colour mode; use auto, always or never.
            Usage: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]
              See 'notes list --help' for more information.

            """
        ),
        (
            ["frob"],
            """
            Error: Unknown command 'frob'.
            Usage: notes [--vault <dir>] [--config <file>] [--color <when>] <subcommand>
              See 'notes --help' for more information.

            """
        ),
        (
            ["list", "extra"],
            """
            Error: Unexpected argument 'extra'. To search, use: notes search extra
            Usage: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]
              See 'notes list --help' for more information.

            """
        ),
        (
            ["list", "-n"],
            """
            Error: Missing value for '-n, --limit <n>'.
            Usage: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]
              See 'notes list --help' for more information.

            """
        ),
        (
            ["edit", "--json", "x"],
            """
            Error: Unknown option '--json'. To pass text that starts with '-', put '--' before it.
            Usage: notes edit [--append] <id> [<text> ...]
              See 'notes edit --help' for more information.

            """
        ),
        (
            ["config", "set", "scheme", "purple"],
            """
            Error: 'purple' is not a valid value for 'scheme'; valid values: default, blue, orange, yellow, green, indigo
            Usage: notes config set [--vault-local] <key> <value>
              See 'notes config set --help' for more information.

            """
        ),
        (
            ["config", "get"],
            """
            Error: Missing the key after 'get'.
            Usage: notes config get <key>
              See 'notes config get --help' for more information.

            """
        ),
        (
            ["config", "frob"],
            """
            Error: Unknown action 'frob'.
            Usage: notes config <subcommand>
              See 'notes config --help' for more information.

            """
        ),
        (
            ["config", "set", "editor"],
            """
            Error: Missing the value for 'editor'.
            Usage: notes config set [--vault-local] <key> <value>
              See 'notes config set --help' for more information.

            """
        ),
        (
            ["completions", "tcsh"],
            """
            Error: 'tcsh' is not a shell; use bash, zsh or fish.
            Usage: notes completions <shell>
              See 'notes completions --help' for more information.

            """
        ),
        (
            ["history"],
            """
            Error: Missing the note whose history to show.
            Usage: notes history [--patch] [--json] <id>
              See 'notes history --help' for more information.

            """
        ),
        (
            ["__complete", "nothing"],
            """
            Error: 'nothing' is not a completion kind; use ids, trashed, folders, tags or templates.
            Usage: notes __complete [--shell <shell>] <what> [<prefix>]
              See 'notes __complete --help' for more information.

            """
        ),
        (
            ["links"],
            """
            Error: Missing the note whose links to list (or --broken).
            Usage: notes links [--broken] [--json] [<id>]
              See 'notes links --help' for more information.

            """
        ),
        (
            ["move", "a"],
            """
            Error: Missing the note's new name.
            Usage: notes move [--dry-run] <id> <new>
              See 'notes move --help' for more information.

            """
        ),
        (
            ["mv", "a", "b", "c"],
            """
            Error: Give one note and its new name.
            Usage: notes move [--dry-run] <id> <new>
              See 'notes move --help' for more information.

            """
        ),
        (
            ["list", "--tag"],
            """
            Error: Missing value for '-t, --tag <tag>'.
            Usage: notes list [--sort <order>] [--reverse] [--limit <n>] [--tag <tag> ...] [--since <date>] [--until <date>] [--folder <folder>] [--orphan] [--links-to <id>] [--linked-from <id>] [--json] [--git] [--marks]
              See 'notes list --help' for more information.

            """
        ),
        (
            ["backlinks"],
            """
            Error: Missing the note whose backlinks to list.
            Usage: notes backlinks [--json] <id>
              See 'notes backlinks --help' for more information.

            """
        ),
    ]
}
