//! The parent's side of the worker protocol: starts `cudalint verify-worker`, sends one request at
//! a time, and enforces a timeout. A worker that hangs is killed; one that dies or faults is
//! dropped; the next request starts a fresh one.

use super::protocol::{Request, Response};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerFailure {
    /// No answer within the timeout: the worker was killed.
    Timeout(Duration),
    /// The worker exited or closed its output without answering.
    Died(String),
    /// The worker could not be started.
    Spawn(String),
}

impl std::fmt::Display for WorkerFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkerFailure::Timeout(limit) => write!(
                f,
                "the experiment ran past the {} s timeout (worker killed and replaced)",
                limit.as_secs_f64()
            ),
            WorkerFailure::Died(how) => write!(f, "the worker died ({how}) and was replaced"),
            WorkerFailure::Spawn(why) => write!(f, "the worker could not be started: {why}"),
        }
    }
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct WorkerClient {
    program: PathBuf,
    arguments: Vec<String>,
    environment: Vec<(String, String)>,
    timeout: Duration,
    running: Option<Running>,
    /// How many workers were started (the first one included).
    pub started: usize,
}

impl WorkerClient {
    /// A client for `program arguments...` (normally this executable with `verify-worker`).
    pub fn new(program: PathBuf, arguments: Vec<String>, timeout: Duration) -> Self {
        WorkerClient {
            program,
            arguments,
            environment: Vec::new(),
            timeout,
            running: None,
            started: 0,
        }
    }

    pub fn with_env(mut self, name: &str, value: &str) -> Self {
        self.environment.push((name.into(), value.into()));
        self
    }

    /// Whether a worker is alive now (after a failure it is gone until the next request).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    fn spawn(&mut self) -> Result<Running, WorkerFailure> {
        let mut command = Command::new(&self.program);
        command
            .args(&self.arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        for (name, value) in &self.environment {
            command.env(name, value);
        }
        let mut child = command
            .spawn()
            .map_err(|e| WorkerFailure::Spawn(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(WorkerFailure::Spawn("no pipes to the worker".into()));
        };
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        self.started += 1;
        Ok(Running {
            child,
            stdin,
            lines,
        })
    }

    /// `request` with the timeout `factor` times as long: the first run of a program that many
    /// kernels share compiles all of them, which the timeout of one kernel's run does not cover.
    pub fn request_with_longer_timeout(
        &mut self,
        request: &Request,
        factor: u32,
    ) -> Result<Response, WorkerFailure> {
        let timeout = self.timeout;
        self.timeout = timeout.saturating_mul(factor.max(1));
        let answer = self.request(request);
        self.timeout = timeout;
        answer
    }

    /// Sends one request and waits for its answer within the timeout.
    pub fn request(&mut self, request: &Request) -> Result<Response, WorkerFailure> {
        let mut running = match self.running.take() {
            Some(running) => running,
            None => self.spawn()?,
        };
        let line = serde_json::to_string(request)
            .map_err(|e| WorkerFailure::Died(format!("request not serialisable: {e}")))?;
        if writeln!(running.stdin, "{line}")
            .and_then(|_| running.stdin.flush())
            .is_err()
        {
            return Err(WorkerFailure::Died(exit_description(&mut running.child)));
        }
        match running.lines.recv_timeout(self.timeout) {
            Ok(answer) => match serde_json::from_str::<Response>(&answer) {
                Ok(response) => {
                    // A fault poisons the worker's context: it exits, and so is not kept.
                    if !matches!(response, Response::Fault { .. }) {
                        self.running = Some(running);
                    }
                    Ok(response)
                }
                Err(e) => Err(WorkerFailure::Died(format!("unreadable answer: {e}"))),
            },
            Err(RecvTimeoutError::Timeout) => Err(WorkerFailure::Timeout(self.timeout)),
            Err(RecvTimeoutError::Disconnected) => {
                Err(WorkerFailure::Died(exit_description(&mut running.child)))
            }
        }
    }
}

fn exit_description(child: &mut Child) -> String {
    match child.wait() {
        Ok(status) => match status.code() {
            Some(code) => format!("exit status {code}"),
            None => {
                #[cfg(unix)]
                {
                    use std::os::unix::process::ExitStatusExt;
                    if let Some(signal) = status.signal() {
                        return format!("killed by signal {signal}");
                    }
                }
                "killed by a signal".into()
            }
        },
        Err(e) => e.to_string(),
    }
}
