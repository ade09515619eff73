import Foundation
import NotesKit
import TestSupport
import Testing

/// Completion and the `Create note` code action in a real editor: headless Neovim (0.7's
/// `vim.lsp.start_client`) runs `notes lsp` on a vault, edits a buffer (so the text reaches the
/// server as Neovim sends it), asks for completions, turns them into omni-completion items as its
/// omnifunc does (filtered by the inserted text), applies an item's edit, and runs the code
/// action's command, which makes the note. Skipped where `nvim` is
/// missing, except on CI (`CI=true`), where that fails.
@Suite struct LSPNeovimCompletionTests {
    static let script = #"""
        local out = {}
        local function say(key, value) table.insert(out, key .. '=' .. tostring(value)) end
        local ok, err = pcall(function()
          local vault = os.getenv('NOTES_VAULT')
          local id = vim.lsp.start_client({ name = 'notes', cmd = { os.getenv('NOTES_BIN'), 'lsp' }, root_dir = vault })
          vim.cmd('edit ' .. vim.fn.fnameescape(vault .. '/scratch.md'))
          vim.api.nvim_buf_set_lines(0, 0, -1, false, { '# Scratch', '', 'See [[trip' })
          vim.lsp.buf_attach_client(0, id)
          local client = vim.lsp.get_client_by_id(id)
          assert(vim.wait(30000, function() return client.initialized end), 'the server did not initialize')
          local uri = vim.uri_from_bufnr(0)
          local function items(line, character)
            local params = { textDocument = { uri = uri }, position = { line = line, character = character } }
            local answers = vim.lsp.buf_request_sync(0, 'textDocument/completion', params, 30000)
            local result = answers and answers[id] and answers[id].result
            return result and vim.lsp.util.extract_completion_items(result) or {}, result
          end
          local function words(found, prefix)
            local list = {}
            for _, match in ipairs(vim.lsp.util.text_document_completion_list_to_complete_items(found, prefix)) do
              table.insert(list, match.word .. ' (' .. match.abbr .. ', ' .. match.menu .. ')')
            end
            return table.concat(list, '; ')
          end

          local found, result = items(2, 10)
          say('incomplete', result and result.isIncomplete)
          say('omni trip', words(result, 'trip'))
          say('omni Trip', words(result, 'Trip'))
          vim.lsp.util.apply_text_edits({ found[1].textEdit }, 0, client.offset_encoding)
          say('applied', vim.api.nvim_buf_get_lines(0, 2, 3, false)[1])

          vim.api.nvim_buf_set_lines(0, 2, 3, false, { 'See [[lodz' })
          local _, lodz = items(2, 10)
          local labels = {}
          for _, item in ipairs(vim.lsp.util.extract_completion_items(lodz)) do table.insert(labels, item.label) end
          say('labels lodz', table.concat(labels, '; '))

          vim.api.nvim_buf_set_lines(0, 2, 3, false, { 'See [[trip-to-lodz#]]' })
          local _, headings = items(2, 19)
          say('omni heading', words(headings, ''))

          vim.api.nvim_buf_set_lines(0, 2, 3, false, { 'Tagged #wo' })
          local _, tags = items(2, 10)
          say('omni tag', words(tags, 'wo'))

          vim.api.nvim_buf_set_lines(0, 2, 3, false, { '`[[trip` in code' })
          local _, code = items(2, 7)
          say('in code', code == nil)

          vim.api.nvim_buf_set_lines(0, 2, 3, false, { 'See [[ideas/New Idea]]' })
          local range = { start = { line = 2, character = 0 }, ['end'] = { line = 2, character = 22 } }
          local params = { textDocument = { uri = uri }, range = range, context = { diagnostics = {} } }
          local answers = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 30000)
          local action = answers[id].result[1]
          say('action', action.title .. ' (' .. action.kind .. ')')
          vim.lsp.buf.execute_command(action.command)
          local made = vault .. '/ideas/New Idea.md'
          say('made', vim.wait(30000, function() return vim.loop.fs_stat(made) ~= nil end))
          local text = vim.fn.readfile(made)
          say('first line', text[1])
          say('heading', text[4])
          -- 0.7 does not announce window/showDocument, so the note is not opened for it.
          say('still editing', vim.fn.bufname():find('scratch.md', 1, true) ~= nil)
          vim.lsp.stop_client(id)
        end)
        if not ok then say('error', err) end
        vim.fn.writefile(out, os.getenv('NVIM_OUT'))
        vim.cmd('qa!')
        """#

    static func vault() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write(
            "trip-to-lodz.md",
            "---\ncreatedAt: 2026-01-03T00:00:00Z\n---\n# Trip to Łódź\n\n## Day 1\n\n## Food\n\n#work\n")
        try sandbox.write(
            "guide.md", "---\ncreatedAt: 2026-01-01T00:00:00Z\n---\n# Łódź guide\n\n#Work #travel\n")
        try sandbox.write(
            "triage.md", "---\ncreatedAt: 2026-01-02T00:00:00Z\n---\n# Triage\n\n#work/meetings\n")
        return sandbox
    }

    @Test func completionAndCreateNoteInNeovim() throws {
        guard let nvim = CompletionTests.installed("nvim") else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("nvim is not installed; CI installs neovim for this test")
                return
            }
            try Test.cancel("nvim is not installed, so Neovim's client is not tried")
        }
        let sandbox = try Self.vault()
        let scriptPath = sandbox.root.path + "/completion.lua"
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let outPath = sandbox.root.path + "/nvim-out.txt"
        let run = try sandbox.run(
            [], env: ["NOTES_BIN": Sandbox.binary, "NVIM_OUT": outPath],
            shell:
                "exec \(Shell.quote(nvim)) --headless -n -i NONE -u NONE -c \(Shell.quote("luafile " + scriptPath))"
                + " </dev/null")
        #expect(run.status == 0, "\(run)")
        let lines = (Disk.text(outPath) ?? "").split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "incomplete=true",
                // Omni-completion keeps the items whose inserted text starts with what was typed,
                // case and all: the file names.
                "omni trip=trip-to-lodz]] (Trip to Łódź, trip-to-lodz)",
                "omni Trip=",
                "applied=See [[trip-to-lodz]]",
                "labels lodz=Łódź guide; Trip to Łódź",
                "omni heading=Trip to Łódź (Trip to Łódź, #); Day 1 (Day 1, ##); Food (Food, ##)",
                "omni tag=work (work, 2); work/meetings (work/meetings, 1)",
                "in code=true",
                "action=Create note 'ideas/New Idea' (quickfix)",
                "made=true",
                "first line=---",
                "heading=# New Idea",
                "still editing=true",
            ], "\(run)")
    }
}
