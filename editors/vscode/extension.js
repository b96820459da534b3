// Starts `cudalint lsp` for CUDA files and restarts it when `cudalint.path` changes. CUDA files are
// `cuda-cpp` with the CUDA extension installed; without it users commonly map `*.cu` to `cpp`
// (files.associations), so those are served too, but other C++ files are not.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

const documentSelector = [
  { scheme: 'file', language: 'cuda-cpp' },
  { scheme: 'untitled', language: 'cuda-cpp' },
  { scheme: 'file', language: 'cpp', pattern: '**/*.{cu,cuh}' },
];

function createClient() {
  const command = vscode.workspace.getConfiguration('cudalint').get('path') || 'cudalint';
  const serverOptions = { command, args: ['lsp'] };
  const clientOptions = {
    documentSelector,
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{cudalint.toml,.cudalint.toml}'),
    },
  };
  return new LanguageClient('cudalint', 'cudalint', serverOptions, clientOptions);
}

async function activate(context) {
  client = createClient();
  await client.start();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('cudalint.path')) {
        await client.stop();
        client = createClient();
        await client.start();
      }
    }),
  );
}

async function deactivate() {
  if (client) {
    await client.stop();
  }
}

module.exports = { activate, deactivate, documentSelector };
