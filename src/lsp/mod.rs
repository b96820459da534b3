//! `cudalint lsp`: the Language Server Protocol over stdio. Findings for the unsaved buffer on open
//! and on every change (tree-sitter re-parses incrementally), hover documentation, quick fixes.
//!
//! Threads: a reader (framing, see `transport`), a writer, this message loop, and the lint thread
//! (`worker`). Nothing a client sends stops the server except `exit` or the end of its input.

mod convert;
mod document;
mod handlers;
mod position;
mod session;
mod transport;
mod worker;

pub use worker::MAX_LINT_BYTES;

use lsp_server::{ErrorCode, Message, Request, Response};
use lsp_types::notification::{Exit, Notification as _};
use lsp_types::request::{Initialize, Request as _};
use session::Session;
use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::{mpsc, Arc, Mutex};
use transport::log;

pub fn run() -> ExitCode {
    let transport = match transport::stdio() {
        Ok(transport) => transport,
        Err(error) => {
            log(format!("cannot start: {error}"));
            return ExitCode::from(2);
        }
    };
    let Some(mut session) = initialize(&transport) else {
        return ExitCode::from(1);
    };
    for message in transport.incoming.iter() {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            handle(&mut session, message)
        }));
        match outcome {
            Ok(Some(code)) => return code,
            Ok(None) => {}
            Err(_) => log("internal error while handling a message; continuing"),
        }
    }
    log("input closed without `exit`");
    ExitCode::from(1)
}

/// Waits for `initialize`; anything else before it is refused as the protocol says.
fn initialize(transport: &transport::Transport) -> Option<Session> {
    for message in transport.incoming.iter() {
        match message {
            Message::Request(request) if request.method == Initialize::METHOD => {
                let id = request.id.clone();
                match serde_json::from_value(request.params) {
                    Ok(params) => {
                        let negotiated = handlers::initialize::handle(params);
                        let _ = transport
                            .outgoing
                            .send(Response::new_ok(id, &negotiated.result).into());
                        let snapshots = Arc::new(Mutex::new(HashMap::new()));
                        let (jobs, job_receiver) = mpsc::channel();
                        if let Err(error) = worker::spawn(
                            job_receiver,
                            transport.outgoing.clone(),
                            snapshots.clone(),
                        ) {
                            log(format!("cannot start the lint thread: {error}"));
                            return None;
                        }
                        let mut session = Session::new(
                            transport.outgoing.clone(),
                            jobs,
                            snapshots,
                            negotiated.encoding,
                            negotiated.root,
                        );
                        session.watch_files_dynamically = negotiated.watch_files_dynamically;
                        return Some(session);
                    }
                    Err(error) => {
                        log(format!("initialize: invalid parameters: {error}"));
                        let response = Response::new_err(
                            id,
                            ErrorCode::InvalidParams as i32,
                            format!("invalid initialize parameters: {error}"),
                        );
                        let _ = transport.outgoing.send(response.into());
                    }
                }
            }
            Message::Request(Request { id, .. }) => {
                let response = Response::new_err(
                    id,
                    ErrorCode::ServerNotInitialized as i32,
                    "initialize first".into(),
                );
                let _ = transport.outgoing.send(response.into());
            }
            Message::Notification(notification) if notification.method == Exit::METHOD => {
                return None
            }
            _ => {}
        }
    }
    None
}

/// Handles one message; `Some(code)` when the server should exit.
fn handle(session: &mut Session, message: Message) -> Option<ExitCode> {
    match message {
        Message::Request(request) => {
            let response = handlers::request(session, request);
            session.send(response);
        }
        Message::Notification(notification) if notification.method == Exit::METHOD => {
            return Some(if session.shutdown_requested {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            });
        }
        Message::Notification(notification) => handlers::notification(session, notification),
        Message::Response(_) => {} // answers to the server's own requests (capability registration)
    }
    None
}
