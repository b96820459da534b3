//! One module per request or notification; this file routes messages to them.

pub mod code_action;
pub mod did_change;
pub mod did_change_watched_files;
pub mod did_close;
pub mod did_open;
pub mod did_save;
pub mod hover;
pub mod initialize;
pub mod initialized;
pub mod shutdown;

use super::session::Session;
use super::transport::log;
use lsp_server::{ErrorCode, Notification, Request, Response};
use lsp_types::notification::{self as n, Notification as _};
use lsp_types::request::{self as r, Request as _};

pub fn request(session: &mut Session, request: Request) -> Response {
    if session.shutdown_requested {
        return Response::new_err(
            request.id,
            ErrorCode::InvalidRequest as i32,
            "the server is shutting down".into(),
        );
    }
    match request.method.as_str() {
        r::HoverRequest::METHOD => answer::<r::HoverRequest>(session, request, hover::handle),
        r::CodeActionRequest::METHOD => {
            answer::<r::CodeActionRequest>(session, request, code_action::handle)
        }
        r::Shutdown::METHOD => answer::<r::Shutdown>(session, request, shutdown::handle),
        r::Initialize::METHOD => Response::new_err(
            request.id,
            ErrorCode::InvalidRequest as i32,
            "already initialized".into(),
        ),
        _ => Response::new_err(
            request.id,
            ErrorCode::MethodNotFound as i32,
            format!("unknown method {}", request.method),
        ),
    }
}

fn answer<R: r::Request>(
    session: &mut Session,
    request: Request,
    handler: fn(&mut Session, R::Params) -> R::Result,
) -> Response {
    match serde_json::from_value::<R::Params>(request.params) {
        Ok(params) => Response::new_ok(request.id, handler(session, params)),
        Err(error) => {
            log(format!("{}: invalid parameters: {error}", request.method));
            Response::new_err(
                request.id,
                ErrorCode::InvalidParams as i32,
                format!("invalid parameters for {}: {error}", request.method),
            )
        }
    }
}

pub fn notification(session: &mut Session, notification: Notification) {
    match notification.method.as_str() {
        n::Initialized::METHOD => {
            handle::<n::Initialized>(session, notification, initialized::handle)
        }
        n::DidOpenTextDocument::METHOD => {
            handle::<n::DidOpenTextDocument>(session, notification, did_open::handle)
        }
        n::DidChangeTextDocument::METHOD => {
            handle::<n::DidChangeTextDocument>(session, notification, did_change::handle)
        }
        n::DidSaveTextDocument::METHOD => {
            handle::<n::DidSaveTextDocument>(session, notification, did_save::handle)
        }
        n::DidCloseTextDocument::METHOD => {
            handle::<n::DidCloseTextDocument>(session, notification, did_close::handle)
        }
        n::DidChangeWatchedFiles::METHOD => handle::<n::DidChangeWatchedFiles>(
            session,
            notification,
            did_change_watched_files::handle,
        ),
        _ => {} // notifications the server does not use ($/cancelRequest, $/setTrace, ...) are ignored
    }
}

fn handle<N: n::Notification>(
    session: &mut Session,
    notification: Notification,
    handler: fn(&mut Session, N::Params),
) {
    match serde_json::from_value::<N::Params>(notification.params) {
        Ok(params) => handler(session, params),
        Err(error) => log(format!(
            "{}: invalid parameters, ignored: {error}",
            notification.method
        )),
    }
}
