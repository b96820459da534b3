-- Drives Neovim's own LSP client against `cudalint lsp` (run by tests/nvim_lsp.sh):
-- the exact diagnostics on a fixture, an edit adding the guard clears them, and the
-- "ignore on this line" code action, chosen through Neovim's code action menu, inserts the comment.
local binary = assert(os.getenv('CUDALINT_BIN'), 'CUDALINT_BIN')
local fixture = assert(os.getenv('CUDALINT_FIXTURE'), 'CUDALINT_FIXTURE')
local repo = assert(os.getenv('CUDALINT_REPO'), 'CUDALINT_REPO')

local function finish(code, message)
  io.stderr:write(message .. '\n')
  vim.cmd((code == 0) and 'qall!' or ('cquit ' .. code))
end

-- Whatever happens, never hang CI.
local watchdog = vim.loop.new_timer()
watchdog:start(90000, 0, vim.schedule_wrap(function()
  finish(3, 'FAIL: the whole test took over 90 s')
end))

local function check(condition, message)
  if not condition then
    finish(1, 'FAIL: ' .. message)
    error(message)
  end
end

package.path = repo .. '/editors/nvim/lua/?/init.lua;' .. package.path
require('cudalint').setup({ cmd = { binary, 'lsp' } })
vim.cmd('filetype on')
vim.cmd('edit ' .. fixture)
local buf = vim.api.nvim_get_current_buf()
check(vim.bo[buf].filetype == 'cuda', 'filetype is ' .. vim.bo[buf].filetype)

local function findings()
  local result = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(result, string.format('%s %d:%d', tostring(code), d.lnum + 1, d.col + 1))
  end
  table.sort(result)
  return table.concat(result, ', ')
end

local function wait_for(expected, what)
  local ok = vim.wait(20000, function()
    return findings() == expected
  end, 20)
  check(ok, what .. ': expected [' .. expected .. '] but Neovim shows [' .. findings() .. ']')
end

local original = vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1]
local unguarded = 'unguarded-thread-index 4:5'
wait_for(unguarded, 'diagnostics on open')

-- The user adds the guard: the findings go away.
vim.api.nvim_buf_set_lines(buf, 3, 4, false, { '    if (i < n) { out[i] = 2.0f * in[i]; }' })
wait_for('', 'after adding the guard')

-- Undo it: they come back.
vim.api.nvim_buf_set_lines(buf, 3, 4, false, { original })
wait_for(unguarded, 'after removing the guard')

-- Code action through Neovim's menu: choose "Ignore ... on this line".
local offered = {}
vim.ui.select = function(items, opts, on_choice)
  for index, item in ipairs(items) do
    local title = opts.format_item and opts.format_item(item) or tostring(item)
    table.insert(offered, title)
    if title:match('^Ignore `unguarded%-thread%-index`') then
      return on_choice(item, index)
    end
  end
  on_choice(nil, nil)
end
vim.api.nvim_win_set_cursor(0, { 4, 4 })
vim.lsp.buf.code_action()
local expected_line = original .. ' // cudalint: ignore[unguarded-thread-index]'
local applied = vim.wait(20000, function()
  return vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1] == expected_line
end, 20)
check(applied, 'code action did not insert the suppression; line 4 is '
  .. vim.inspect(vim.api.nvim_buf_get_lines(buf, 3, 4, false)[1]) .. '; actions offered: ' .. vim.inspect(offered))
local has_fix = false
for _, title in ipairs(offered) do
  if title:match('^wrap in `if %(i < n%)`') then
    has_fix = true
  end
end
check(has_fix, 'the quick fix was not offered: ' .. vim.inspect(offered))
wait_for('', 'after the suppression was inserted')

finish(0, 'OK: diagnostics, guard edit and code action checked in Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor))
