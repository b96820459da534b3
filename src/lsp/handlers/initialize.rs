//! `initialize`: negotiates the position encoding and announces what the server does.

use crate::lsp::document::path_of;
use crate::lsp::position::Encoding;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, HoverProviderCapability,
    InitializeParams, InitializeResult, PositionEncodingKind, SaveOptions, ServerCapabilities,
    ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};
use std::path::PathBuf;

pub struct Negotiated {
    pub encoding: Encoding,
    pub root: PathBuf,
    pub watch_files_dynamically: bool,
    pub result: InitializeResult,
}

pub fn handle(params: InitializeParams) -> Negotiated {
    let offers_utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_ref())
        .map(|encodings| encodings.contains(&PositionEncodingKind::UTF8))
        .unwrap_or(false);
    let encoding = if offers_utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    #[allow(deprecated)] // root_uri is all that older clients send
    let root_uri = params
        .workspace_folders
        .as_ref()
        .and_then(|folders| folders.first())
        .map(|f| f.uri.clone())
        .or(params.root_uri.clone());
    let root = root_uri.map(|uri| path_of(&uri, &cwd)).unwrap_or(cwd);
    let watch_files_dynamically = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    let capabilities = ServerCapabilities {
        position_encoding: Some(if offers_utf8 {
            PositionEncodingKind::UTF8
        } else {
            PositionEncodingKind::UTF16
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    };
    let result = InitializeResult {
        capabilities,
        server_info: Some(ServerInfo {
            name: "cudalint".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    };
    Negotiated {
        encoding,
        root,
        watch_files_dynamically,
        result,
    }
}
