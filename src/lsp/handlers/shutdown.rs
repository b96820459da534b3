//! `shutdown`: from now on only `exit` is expected.

use crate::lsp::session::Session;

pub fn handle(session: &mut Session, _params: ()) {
    session.shutdown_requested = true;
}
