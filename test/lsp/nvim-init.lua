-- A second, independent LSP client: headless Neovim (0.7+) attaches LSP_CMD (the installed
-- `crd-yaml lsp --stdio` in the e2e tier, else dist/server.js) to YAML buffers and
-- dumps the diagnostics it received as JSON.
-- nvim --headless -u nvim-init.lua -i NONE FILE.yaml +'lua dump_diags()'
-- env: LSP_CMD (server command), DIAG_OUT (JSON file), LSP_TIMEOUT_MS
local cmd = vim.split(os.getenv('LSP_CMD'), ' ')
local out = os.getenv('DIAG_OUT') or 'diags.json'
vim.api.nvim_create_autocmd('FileType', { pattern = 'yaml', callback = function(args)
  local id = vim.lsp.start_client({ name = 'crd-yaml', cmd = cmd, root_dir = vim.fn.getcwd() })
  vim.lsp.buf_attach_client(args.buf, id)
end })
function _G.dump_diags()
  local ok = vim.wait(tonumber(os.getenv('LSP_TIMEOUT_MS') or '15000'),
    function() return #vim.diagnostic.get(0) > 0 end, 50)
  local f = io.open(out, 'w'); f:write(vim.fn.json_encode(vim.diagnostic.get(0))); f:close()
  vim.cmd(ok and 'qa!' or 'cquit 1')
end
