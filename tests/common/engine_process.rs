//! The `chariot` binary as a child process spoken to through stdin/stdout, for the protocol
//! and load tests: send a command, collect lines up to an expected prefix, read its memory.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Generous: these tests check that answers arrive, not how fast (speed is for benchmarks).
const PATIENCE: Duration = Duration::from_secs(60);

pub struct Engine {
    child: Child,
    pub stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the chariot binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").expect("the engine reads its input");
        self.stdin.flush().unwrap();
    }

    /// All lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(e) => panic!("no line starting with '{prefix}' ({e}); got {seen:#?}"),
            }
        }
    }

    /// Sends the protocol's `greeting` (`uci`, `ucci`), reads up to its `reply` (`uciok`,
    /// `ucciok`) and checks that every line of `options` is among the lines read.
    #[allow(dead_code)] // not every test file shakes hands this way
    pub fn handshake(&mut self, greeting: &str, reply: &str, options: &[&str]) -> Vec<String> {
        self.send(greeting);
        let lines = self.until(reply);
        for option in options {
            assert!(lines.iter().any(|l| l == option), "{option}: {lines:#?}");
        }
        lines
    }

    pub fn last(&mut self, prefix: &str) -> String {
        self.until(prefix).pop().unwrap()
    }

    /// Sends `d` and returns the FEN it prints.
    pub fn fen(&mut self) -> String {
        self.send("d");
        self.last("Fen: ").trim_start_matches("Fen: ").to_string()
    }

    /// Resident memory of the engine process in MB (VmRSS of /proc/PID/status; Linux only).
    pub fn rss_mb(&self) -> f64 {
        rss_mb(self.child.id())
    }
}

/// VmRSS of process `pid` in MB.
pub fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_else(|e| panic!("cannot read /proc/{pid}/status: {e}"));
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .expect("VmRSS in /proc/PID/status")
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}
