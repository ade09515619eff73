import Foundation
import NotesKit
import TestSupport
import Testing

/// A real editor: headless Neovim (0.7's built-in client, started by the README's own
/// `init.lua`, read from the README) asks `notes lsp` for a definition, references and a rename, applies the
/// rename with `vim.lsp.util.apply_workspace_edit` and `:wall`; the files on disk are then
/// those `notes move` makes. Skipped where `nvim` is not installed (a failure on CI).
@Suite struct LSPNeovimTests {
    static let runnable =
        CompletionTests.installed("nvim") != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    static let files: [(String, String)] = [
        ("alpha.md", "# Alpha\n\n😀 中文 [[beta]] and [[beta#Plan|the plan]]\n"),
        ("beta.md", "# Beta\n\n## Plan\n\nSee [alpha](alpha.md).\n"),
        ("sub/gamma.md", "# Gamma\n\nSee [[beta]] and [b](../beta.md).\n"),
    ]

    /// The README's Neovim configuration: the first Lua block after its `### Neovim` heading.
    static func readmeConfiguration() throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let section = text.range(of: "### Neovim\n"),
            let start = text.range(of: "```lua\n", range: section.upperBound..<text.endIndex),
            let end = text.range(of: "```\n", range: start.upperBound..<text.endIndex)
        else {
            throw WorkspaceEditApplier.Failure(description: "the README has no Lua block under ### Neovim")
        }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// The script: `alpha.md` opened (the configuration starts the client), the cursor on
    /// `[[beta]]`, each answer written as JSON to `out`, then Neovim quits.
    static func script(vault: String, out: String) -> String {
        """
        local out = {}
        local ok, err = pcall(function()
          vim.cmd('edit ' .. vim.fn.fnameescape('\(vault)/alpha.md'))
          local buf = vim.api.nvim_get_current_buf()
          assert(vim.wait(20000, function()
            local c = vim.lsp.get_active_clients()[1]
            return c ~= nil and c.initialized
          end), 'the server did not initialize')
          local client = vim.lsp.get_active_clients()[1]
          local id = client.id
          out.encoding = client.offset_encoding
          -- Line 3, on the `b` of `[[beta]]` (a byte column, after the emoji and CJK).
          vim.api.nvim_win_set_cursor(0, { 3, 16 })
          local params = vim.lsp.util.make_position_params()
          out.definition = vim.lsp.buf_request_sync(buf, 'textDocument/definition', params, 20000)[id].result
          params.context = { includeDeclaration = true }
          out.references = vim.lsp.buf_request_sync(buf, 'textDocument/references', params, 20000)[id].result
          local prepare = vim.lsp.buf_request_sync(buf, 'textDocument/prepareRename', params, 20000)[id]
          out.placeholder = prepare.result.placeholder
          params.newName = 'archive/beta2'
          local rename = vim.lsp.buf_request_sync(buf, 'textDocument/rename', params, 20000)[id]
          assert(rename.result, vim.inspect(rename.err))
          vim.lsp.util.apply_workspace_edit(rename.result, client.offset_encoding)
          vim.cmd('wall')
        end)
        out.error = err or ''
        local file = io.open('\(out)', 'w')
        file:write(vim.fn.json_encode(out))
        file:close()
        vim.cmd('qa!')
        """
    }

    @Test(.enabled(if: runnable, "nvim is not installed"))
    func neovimFindsTheLinksAndRenamesAsNotesMoveDoes() throws {
        let edited = try Sandbox()
        let moved = try Sandbox()
        for (path, text) in Self.files {
            try edited.write(path, text)
            try moved.write(path, text)
        }
        let out = edited.root.path + "/nvim-out.json"
        let script = edited.root.path + "/rename.lua"
        try Data(Self.script(vault: edited.vault, out: out).utf8).write(to: URL(fileURLWithPath: script))
        let configuration = edited.root.path + "/init.lua"
        try Data(try Self.readmeConfiguration().utf8).write(to: URL(fileURLWithPath: configuration))
        let folder = (Sandbox.binary as NSString).deletingLastPathComponent
        let state = edited.root.path + "/nvim-state"
        let run = try edited.run(
            [],
            cwd: edited.vault,
            env: [
                "XDG_DATA_HOME": state, "XDG_STATE_HOME": state, "XDG_CACHE_HOME": state,
                "PATH": folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ],
            shell:
                "timeout 120 nvim --headless -n -i NONE -u '\(configuration)' -c 'luafile \(script)' </dev/null"
        )
        let answers = try JSONValue.parse(Array((try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()))
        #expect(answers["error"] == .string(""), "\(answers.compact)\n\(run)")
        #expect(answers["encoding"] == .string("utf-16"))
        let uri = { (path: String) in JSONValue.string(FileURI.uri(edited.vault + "/" + path)) }
        #expect(
            answers["definition"]?.arrayValue?.first?["uri"] ?? answers["definition"]?["uri"]
                == uri("beta.md"))
        #expect(
            answers["references"]?.arrayValue?.map { $0["uri"] } == [
                uri("alpha.md"), uri("alpha.md"), uri("sub/gamma.md"), uri("sub/gamma.md"),
            ])
        // `[[beta]]` starts after "😀 中文 ": 2 + 1 + 2 + 1 UTF-16 units.
        #expect(answers["references"]?.arrayValue?.first?["range"] == LSPFeatureTests.range(2, 6, 14))
        #expect(answers["placeholder"] == .string("beta"))
        let result = try moved.run(["move", "beta", "archive/beta2"])
        #expect(result.status == 0, "\(result)")
        #expect(VaultFiles.of(edited.vault) == VaultFiles.of(moved.vault))
        #expect(try edited.read("alpha.md") == "# Alpha\n\n😀 中文 [[beta2]] and [[beta2#Plan|the plan]]\n")
        #expect(try edited.read("archive/beta2.md") == "# Beta\n\n## Plan\n\nSee [alpha](../alpha.md).\n")
    }
}
