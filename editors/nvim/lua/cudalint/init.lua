-- cudalint language server for Neovim: require('cudalint').setup({ cmd = { 'cudalint', 'lsp' } })
-- Neovim 0.11+ uses vim.lsp.config/vim.lsp.enable; 0.7 to 0.10 start the client on FileType.
local M = {}

local defaults = {
  cmd = { 'cudalint', 'lsp' },
  filetypes = { 'cuda' },
  root_markers = { 'cudalint.toml', '.cudalint.toml', '.git' },
}

local function find_root(path, markers)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while dir and dir ~= '' do
    for _, marker in ipairs(markers) do
      if vim.loop.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      break
    end
    dir = parent
  end
  return vim.fn.getcwd()
end

function M.setup(opts)
  opts = vim.tbl_deep_extend('force', defaults, opts or {})
  if vim.fn.has('nvim-0.11') == 1 then
    vim.lsp.config('cudalint', { cmd = opts.cmd, filetypes = opts.filetypes, root_markers = opts.root_markers })
    vim.lsp.enable('cudalint')
    return
  end
  local clients = {}
  vim.api.nvim_create_autocmd('FileType', {
    pattern = opts.filetypes,
    callback = function(args)
      local root = find_root(vim.api.nvim_buf_get_name(args.buf), opts.root_markers)
      local id = clients[root]
      if not id or not vim.lsp.get_client_by_id(id) then
        id = vim.lsp.start_client({ name = 'cudalint', cmd = opts.cmd, root_dir = root })
        clients[root] = id
      end
      if id then
        vim.lsp.buf_attach_client(args.buf, id)
      end
    end,
  })
end

return M
