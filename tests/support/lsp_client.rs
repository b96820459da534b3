//! A minimal LSP client over a child process's stdio, for the integration tests and the latency
//! benchmark: framing, requests with ids, and waiting (with a deadline) for what the server sends.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// Messages read while waiting for something else.
    pending: Vec<Value>,
}

impl Client {
    pub fn start(binary: &str, args: &[&str]) -> Client {
        let mut child = Command::new(binary)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 0,
            pending: Vec::new(),
        }
    }

    /// Starts the server and completes the handshake; `utf8` offers UTF-8 positions.
    pub fn initialized(binary: &str, root: &str, utf8: bool) -> (Client, Value) {
        let mut client = Client::start(binary, &["lsp"]);
        let encodings = if utf8 {
            json!(["utf-8", "utf-16"])
        } else {
            json!(["utf-16"])
        };
        let result = client.request(
            "initialize",
            json!({"processId": null, "rootUri": format!("file://{root}"), "capabilities": {"general": {"positionEncodings": encodings}}}),
        );
        client.notify("initialized", json!({}));
        (client, result)
    }

    pub fn write_raw(&mut self, bytes: &[u8]) {
        self.stdin
            .write_all(bytes)
            .unwrap_or_else(|e| panic!("server stdin closed: {e}"));
        self.stdin.flush().unwrap_or_else(|e| panic!("flush: {e}"));
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.write_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its whole response (with `result` or `error`).
    pub fn request_response(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(Duration::from_secs(30), |m| {
            m.get("id") == Some(&json!(id)) && m.get("method").is_none()
        })
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_response(method, params);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response.get("result").cloned().unwrap_or(Value::Null)
    }

    /// The first message (already received or arriving before the deadline) that matches.
    pub fn wait_for(&mut self, timeout: Duration, matches: impl Fn(&Value) -> bool) -> Value {
        if let Some(index) = self.pending.iter().position(&matches) {
            return self.pending.remove(index);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if matches(&message) => return message,
                Ok(message) => self.pending.push(message),
                Err(RecvTimeoutError::Timeout) => panic!(
                    "timed out after {timeout:?}; received meanwhile: {:?}",
                    self.pending
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server closed its output; received: {:?}", self.pending)
                }
            }
        }
    }

    /// The diagnostics published for `uri` at `version` (earlier versions are skipped).
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let message = self.wait_for(Duration::from_secs(60), |m| {
            m.get("method") == Some(&json!("textDocument/publishDiagnostics"))
                && m["params"]["uri"] == json!(uri)
                && m["params"]["version"] == json!(version)
        });
        self.pending.retain(|m| {
            !(m.get("method") == Some(&json!("textDocument/publishDiagnostics"))
                && m["params"]["uri"] == json!(uri))
        });
        message["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify("textDocument/didOpen", json!({"textDocument": {"uri": uri, "languageId": "cuda-cpp", "version": 1, "text": text}}));
    }

    pub fn change(&mut self, uri: &str, version: i64, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }

    /// The exit code once the server has exited.
    pub fn try_exit_code(&mut self) -> Option<i32> {
        self.child
            .try_wait()
            .ok()
            .flatten()
            .and_then(|status| status.code())
    }

    /// shutdown + exit; returns the exit status.
    pub fn shutdown(mut self) -> Option<i32> {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the server did not exit after `exit`");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// Positions as the server reports them (UTF-16 unless UTF-8 was negotiated) to byte offsets.
pub fn offset_of(text: &str, line: u64, character: u64, utf16: bool) -> usize {
    let mut start = 0;
    for _ in 0..line {
        start = text[start..]
            .find('\n')
            .map(|i| start + i + 1)
            .unwrap_or(text.len());
    }
    let end = text[start..]
        .find('\n')
        .map(|i| start + i)
        .unwrap_or(text.len());
    let mut units = 0;
    for (index, c) in text[start..end].char_indices() {
        if units >= character as usize {
            return start + index;
        }
        units += if utf16 { c.len_utf16() } else { c.len_utf8() };
    }
    end
}

/// Byte offset to an LSP position (UTF-16 or UTF-8 columns).
pub fn position_of(text: &str, offset: usize, utf16: bool) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = if utf16 {
        before[line_start..].encode_utf16().count()
    } else {
        offset - line_start
    };
    json!({"line": line, "character": column})
}
