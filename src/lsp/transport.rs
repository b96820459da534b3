//! JSON-RPC framing over stdio. lsp-server's own stdio reader stops at the first malformed frame,
//! so frames are read here and every bad one is logged and skipped.

use lsp_server::{ErrorCode, Message, RequestId, Response};
use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

/// A frame larger than this is discarded unread (a 50 MB document fits comfortably).
const MAX_FRAME_BYTES: usize = 512 << 20;
/// A header line longer than this is garbage, not a header.
const MAX_HEADER_LINE_BYTES: u64 = 64 << 10;

/// What one read from the input produced.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// Readable framing but not a JSON-RPC message; `id` when the body named a request id.
    Invalid {
        id: Option<RequestId>,
        reason: String,
    },
    Eof,
}

/// Reads the next frame. Errors of the stream itself (not of its content) end the input.
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut content_length: Option<usize> = None;
    let mut problems = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = input
            .by_ref()
            .take(MAX_HEADER_LINE_BYTES)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(Frame::Eof);
        }
        let text = String::from_utf8_lossy(&line);
        let header = text.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if content_length.is_some() {
                break;
            }
            if !problems.is_empty() {
                return Ok(Frame::Invalid {
                    id: None,
                    reason: problems.join("; "),
                });
            }
            continue; // stray blank line between frames
        }
        // Resynchronise on a header glued to the end of garbage.
        let lowered = header.to_ascii_lowercase();
        let Some(at) = lowered.find("content-length:") else {
            if !lowered.contains(':') {
                problems.push(format!("malformed header line {:?}", truncate(header, 80)));
            }
            continue;
        };
        if at > 0 {
            problems.push(format!(
                "garbage before a header: {:?}",
                truncate(&header[..at], 80)
            ));
        }
        let value = header[at + "content-length:".len()..].trim();
        match value.parse::<usize>() {
            Ok(length) => content_length = Some(length),
            Err(_) => problems.push(format!("bad Content-Length {:?}", truncate(value, 40))),
        }
    }
    let length = content_length.unwrap_or(0);
    if length > MAX_FRAME_BYTES {
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(Frame::Invalid {
            id: None,
            reason: format!(
                "frame of {length} bytes is over the {} MB limit",
                MAX_FRAME_BYTES >> 20
            ),
        });
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(parse_body(&body))
}

fn parse_body(body: &[u8]) -> Frame {
    let value = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(value) => value,
        Err(error) => {
            return Frame::Invalid {
                id: None,
                reason: format!("not JSON: {error}"),
            }
        }
    };
    let id = value
        .get("id")
        .cloned()
        .and_then(|id| serde_json::from_value::<RequestId>(id).ok());
    // With neither a method nor a result nor an error, it is a request that lost its method.
    let is_message = ["method", "result", "error"]
        .iter()
        .any(|key| value.get(key).is_some());
    if !is_message {
        return Frame::Invalid {
            id,
            reason: "no method, result or error".into(),
        };
    }
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Frame::Message(message),
        Err(error) => Frame::Invalid {
            id,
            reason: format!("not a JSON-RPC message: {error}"),
        },
    }
}

fn truncate(text: &str, limit: usize) -> String {
    text.chars().take(limit).collect()
}

pub fn log(message: impl std::fmt::Display) {
    eprintln!("cudalint lsp: {message}");
}

/// The server's ends of stdio: incoming messages, and a sender for responses and notifications.
pub struct Transport {
    pub incoming: Receiver<Message>,
    pub outgoing: Sender<Message>,
}

/// Starts the reader and writer threads. `incoming` closes when stdin ends.
pub fn stdio() -> io::Result<Transport> {
    let (incoming_sender, incoming) = mpsc::channel::<Message>();
    let (outgoing, outgoing_receiver) = mpsc::channel::<Message>();
    let replies = outgoing.clone();
    thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            loop {
                match read_frame(&mut input) {
                    Ok(Frame::Message(message)) => {
                        if incoming_sender.send(message).is_err() {
                            return;
                        }
                    }
                    Ok(Frame::Invalid { id, reason }) => {
                        log(format!("ignored a malformed message: {reason}"));
                        if let Some(id) = id {
                            let _ = replies.send(
                                Response::new_err(id, ErrorCode::InvalidRequest as i32, reason)
                                    .into(),
                            );
                        }
                    }
                    Ok(Frame::Eof) => return,
                    Err(error) => {
                        log(format!("stopped reading input: {error}"));
                        return;
                    }
                }
            }
        })?;
    thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || {
            let stdout = io::stdout();
            let mut output = stdout.lock();
            for message in outgoing_receiver {
                if let Err(error) = message.write(&mut output).and_then(|_| output.flush()) {
                    log(format!("cannot write to the client: {error}"));
                    return;
                }
            }
        })?;
    Ok(Transport { incoming, outgoing })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut reader = io::BufReader::new(input);
        let mut seen = Vec::new();
        loop {
            match read_frame(&mut reader) {
                Ok(Frame::Message(Message::Request(r))) => {
                    seen.push(format!("request {}", r.method))
                }
                Ok(Frame::Message(Message::Notification(n))) => {
                    seen.push(format!("notification {}", n.method))
                }
                Ok(Frame::Message(Message::Response(_))) => seen.push("response".into()),
                Ok(Frame::Invalid { id, .. }) => seen.push(format!("invalid {id:?}")),
                Ok(Frame::Eof) => return seen,
                Err(e) => {
                    seen.push(format!("error {:?}", e.kind()));
                    return seen;
                }
            }
        }
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn recovers_after_bad_json_and_bad_headers() {
        let input = [
            frame("{not json"),
            "Garbage-Without-Colon\r\n\r\n".to_string(),
            frame(r#"{"jsonrpc":"2.0","id":7,"params":{}}"#),
            format!(
                "junk{}",
                frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
            ),
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#),
        ]
        .concat();
        assert_eq!(
            frames(input.as_bytes()),
            vec![
                "invalid None",
                "invalid None",
                "invalid Some(RequestId(I32(7)))",
                "notification initialized",
                "request shutdown"
            ]
        );
    }

    #[test]
    fn truncated_body_ends_the_stream() {
        assert_eq!(
            frames(b"Content-Length: 100\r\n\r\n{\"a\""),
            vec!["error UnexpectedEof"]
        );
    }

    #[test]
    fn invalid_utf8_body_is_skipped() {
        let mut input = b"Content-Length: 3\r\n\r\n\xff\xfe\xfd".to_vec();
        input.extend_from_slice(frame(r#"{"method":"exit"}"#).as_bytes());
        assert_eq!(frames(&input), vec!["invalid None", "notification exit"]);
    }
}
