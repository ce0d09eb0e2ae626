//! `chariot serve` as a child process on a free port, and a plain HTTP/1.1 client for it (and
//! for chromedriver): one request a connection, so a test may also send bytes no client
//! library would (a broken request line, a lying Content-Length).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `chariot serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    /// Starts the server with `args` after `serve --port 0` and waits for the address it prints.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("chariot serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped"))
            .read_line(&mut line)
            .expect("chariot serve prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Is the process still running?
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Peak resident memory of the process so far (Linux: VmHWM), in KiB.
    pub fn peak_memory_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status code and body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Sends `raw` (a whole request) to `address` and reads the response: by its Content-Length,
/// to the last chunk, or to the end (a server may keep the connection open after an answer).
pub fn send_raw(address: &str, raw: &[u8]) -> Reply {
    let stream = TcpStream::connect(address).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    (&stream).write_all(raw).expect("sends");
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
        head += &line;
        line.clear();
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {head:?}"));
    let header = |name: &str| {
        head.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    };
    let mut bytes = Vec::new();
    if let Some(length) = header("Content-Length").and_then(|v| v.parse::<usize>().ok()) {
        bytes.resize(length, 0);
        reader.read_exact(&mut bytes).expect("the whole body");
    } else if header("Transfer-Encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).expect("a chunk size");
            let size = usize::from_str_radix(size.trim(), 16).expect("a hex chunk size");
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).expect("a chunk");
            if size == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..size]);
        }
    } else {
        let _ = reader.read_to_end(&mut bytes);
    }
    let body = String::from_utf8_lossy(&bytes).to_string();
    Reply { status, body }
}

/// One request; `body` goes as JSON when given.
pub fn request(address: &str, method: &str, path: &str, body: Option<&str>) -> Reply {
    let body = body.unwrap_or("");
    let raw = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    send_raw(address, raw.as_bytes())
}

pub fn post(address: &str, path: &str, body: &serde_json::Value) -> Reply {
    request(address, "POST", path, Some(&body.to_string()))
}

/// An open event stream: the server-sent events of one tab.
pub struct Events {
    reader: BufReader<TcpStream>,
    pub tab: String,
}

impl Events {
    pub fn open(address: &str) -> Events {
        let mut stream = TcpStream::connect(address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        write!(
            stream,
            "GET /api/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.contains(" 200 "), "event stream refused: {line}");
        let mut events = Events {
            reader,
            tab: String::new(),
        };
        let (name, data) = events.next().expect("the tab event");
        assert_eq!(name, "tab");
        events.tab = data["tab"].as_str().expect("a tab id").to_string();
        events
    }

    /// The next event (headers and heartbeats skipped): its name and data; `None` at the end.
    pub fn next(&mut self) -> Option<(String, serde_json::Value)> {
        let mut name = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end();
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(data) = line.strip_prefix("data: ") {
                let value = serde_json::from_str(data).expect("event data is JSON");
                return Some((name, value));
            }
        }
    }

    /// Events until one named `name` for which `pick` holds (within `limit`); returns it and
    /// the events before it.
    pub fn until(
        &mut self,
        limit: Duration,
        mut pick: impl FnMut(&str, &serde_json::Value) -> bool,
    ) -> (serde_json::Value, Vec<(String, serde_json::Value)>) {
        let start = Instant::now();
        let mut seen = Vec::new();
        while start.elapsed() < limit {
            let (name, data) = self.next().expect("the stream stays open");
            if pick(&name, &data) {
                return (data, seen);
            }
            seen.push((name, data));
        }
        panic!("no such event within {limit:?}; saw {seen:?}");
    }
}
