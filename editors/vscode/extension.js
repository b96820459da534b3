// Starts `cudalint lsp` for CUDA files (language id `cuda-cpp`) and restarts it when `cudalint.path` changes.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function createClient() {
  const command = vscode.workspace.getConfiguration('cudalint').get('path') || 'cudalint';
  const serverOptions = { command, args: ['lsp'] };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'untitled', language: 'cuda-cpp' },
    ],
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

module.exports = { activate, deactivate };
