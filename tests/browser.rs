//! The page in a real browser: headless Chromium driven over WebDriver (chromedriver, from
//! Debian's `chromium` and `chromium-driver`). Loads the page, plays moves by clicking, waits
//! for Chariot's reply on the board, sees an illegal move refused, loads a FEN. Ignored in a
//! plain `cargo test` (it needs the browser); `.ci/run` installs it and runs
//! `cargo test --test browser -- --ignored`, which fails if no browser can be had.
//! With `CHARIOT_SCREENSHOTS=DIR` it also saves the page at 1280 and 390 pixels wide.
#![cfg(feature = "serve")]

#[allow(dead_code)]
#[path = "common/serve_process.rs"]
mod serve_process;

use serde_json::{json, Value};
use serve_process::{request, Server};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver on a free port, stopped when dropped.
struct Driver {
    child: Child,
    address: String,
    session: String,
    /// Kept until the end: Chromium's profile.
    _profile: TempDir,
}

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn find_program(names: &[&str]) -> String {
    for name in names {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        if let Some(path) = found {
            return path;
        }
    }
    panic!(
        "no {} on PATH: the browser test needs Chromium and chromedriver \
         (Debian: apt-get install chromium chromium-driver)",
        names.join(" or ")
    );
}

impl Driver {
    fn start() -> Driver {
        let chromedriver = find_program(&["chromedriver"]);
        let chromium = find_program(&["chromium", "chromium-browser", "google-chrome"]);
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let address = format!("127.0.0.1:{port}");
        let start = Instant::now();
        while std::net::TcpStream::connect(&address).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver does not listen"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = std::env::temp_dir().join(format!("chariot-browser-{}", std::process::id()));
        let mut driver = Driver {
            child,
            address,
            session: String::new(),
            _profile: TempDir(profile.clone()),
        };
        // The flags a closed network needs: nothing may try to reach the outside.
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
            &format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "goog:chromeOptions": { "binary": chromium, "args": args }
        }}});
        let session = driver.call("POST", "/session", Some(caps));
        driver.session = session["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        driver
    }

    /// A WebDriver command; panics with the driver's message on an error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string());
        let reply = request(&self.address, method, path, body.as_deref());
        let value: Value = serde_json::from_str(&reply.body)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {}", reply.body));
        assert_eq!(reply.status, 200, "{method} {path}: {}", reply.body);
        value["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    fn script(&self, script: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    fn element(&self, css: &str) -> String {
        let found = self.session_call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    fn click(&self, css: &str) {
        let id = self.element(css);
        self.session_call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn click_square(&self, square: &str) {
        self.click(&format!("#hits rect[data-sq='{square}']"));
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.session_call("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.session_call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Waits until `script` returns true.
    fn wait_for(&self, what: &str, script: &str, limit: Duration) {
        let start = Instant::now();
        while self.script(script) != json!(true) {
            assert!(
                start.elapsed() < limit,
                "{what}: not within {limit:?}; status: {}",
                self.script("return document.getElementById('status').textContent")
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, width: u32, height: u32, path: &std::path::Path) {
        self.session_call(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
        std::thread::sleep(Duration::from_millis(500));
        let png = self.session_call("GET", "/screenshot", None);
        let bytes = base64_decode(png.as_str().expect("base64 PNG"));
        std::fs::write(path, bytes).expect("the screenshot is written");
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(
                &self.address,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64 (the screenshot WebDriver sends).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=' && c != b'\n').collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits = chunk.iter().enumerate().fold(0u32, |acc, (i, &c)| {
            acc | u32::from(value(c)) << (18 - 6 * i)
        });
        out.extend_from_slice(&bits.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The number of moves in the page's move list, and the piece letter on `square` ('.' none).
const MOVES: &str = "return document.querySelectorAll('#moves .mv[data-ply]').length";

fn piece_on(square: &str) -> String {
    format!(
        "const g = document.querySelector(\"#pieces [data-sq='{square}']\"); \
         return g ? g.dataset.piece : '.';"
    )
}

#[test]
#[ignore = "needs Chromium and chromedriver: cargo test --test browser -- --ignored"]
fn a_game_is_played_by_clicking_in_a_real_browser() {
    let server = Server::start(&["--searches", "1"]);
    let driver = Driver::start();
    driver.go(&server.url("/"));
    driver.wait_for(
        "the page connects",
        "return typeof ui === 'object' && ui.tab !== null && game.view !== null",
        Duration::from_secs(20),
    );
    // Quick replies: the lowest level, 0.3 s a move.
    driver.script(
        "document.getElementById('level').value = '1200'; \
         document.getElementById('movetime').value = '300'; return true",
    );

    // Central cannon by clicking: the piece, then its target.
    driver.click_square("h2");
    driver.wait_for(
        "the cannon's targets are shown",
        "return document.querySelectorAll('#targets .target').length > 0",
        Duration::from_secs(5),
    );
    driver.click_square("e2");
    driver.wait_for(
        "Chariot replies on the board",
        &format!("{MOVES} >= 2 && ui.searchMode === null"),
        Duration::from_secs(30),
    );
    assert_eq!(driver.script(&piece_on("e2")), json!("C"));
    assert_eq!(driver.script(&piece_on("h2")), json!("."));
    assert_eq!(driver.script("return game.view.side"), json!("red"));

    // An illegal move: the horse on b0 cannot reach b5. Refused, the board as it was.
    driver.click_square("b0");
    driver.click_square("b5");
    driver.wait_for(
        "the illegal move is refused",
        "return document.getElementById('status').textContent.includes('illegal move')",
        Duration::from_secs(5),
    );
    assert_eq!(driver.script(MOVES), json!(2));
    assert_eq!(driver.script(&piece_on("b0")), json!("N"));

    // A second move: the first the page lists as legal, whatever Chariot replied.
    let legal = driver
        .script("const [from, to] = Object.entries(game.view.legal)[0]; return [from, to[0]]");
    let (from, to) = (legal[0].as_str().unwrap(), legal[1].as_str().unwrap());
    driver.click_square(from);
    driver.click_square(to);
    driver.wait_for(
        "Chariot replies again",
        &format!("{MOVES} >= 4 && ui.searchMode === null"),
        Duration::from_secs(30),
    );
    assert_eq!(
        driver.script("return game.moves[2]"),
        json!(format!("{from}{to}"))
    );

    // Back and forward with the arrow keys' buttons: the board follows the record. The page
    // sets `game.ply` when it asks the server for the position, and draws the board when the
    // answer comes: the drawn position's own ply says the board is there.
    driver.click("#first");
    driver.wait_for(
        "the start is shown",
        "return game.view.ply === 0",
        Duration::from_secs(5),
    );
    assert_eq!(driver.script(&piece_on("h2")), json!("C"));
    driver.click("#last");
    driver.wait_for(
        "the end is shown",
        "return game.view.ply === 4",
        Duration::from_secs(5),
    );

    // A FEN: Red's rook and king against Black's king.
    let fen = "3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1";
    driver.type_into("#load-text", fen);
    driver.click("#load-button");
    driver.wait_for(
        "the FEN is on the board",
        "return game.view.fen.startsWith('3k5/R8/1R7')",
        Duration::from_secs(5),
    );
    let pieces = driver.script("return document.querySelectorAll('#pieces .piece').length");
    assert_eq!(pieces, json!(4));
    // Mate in one, played by clicking: the page announces the ending and its reason.
    driver.click_square("b7");
    driver.click_square("b9");
    driver.wait_for(
        "the mate is announced",
        "return document.getElementById('ending').textContent === 'Red wins: checkmate'",
        Duration::from_secs(5),
    );

    if let Ok(dir) = std::env::var("CHARIOT_SCREENSHOTS") {
        screenshots(&driver, &server, std::path::Path::new(&dir));
    }
}

/// The page mid-game with analysis running, wide and phone-narrow.
fn screenshots(driver: &Driver, server: &Server, dir: &std::path::Path) {
    std::fs::create_dir_all(dir).expect("the screenshot folder");
    let moves = "h2e2,h9g7,h0g2,i9h9,i0h0,b9c7,b2c2,h7i7,c3c4,b7b3";
    driver.go(&server.url(&format!("/#moves={moves}&play=none&analyse=1")));
    driver.script("location.reload(); return true");
    driver.wait_for(
        "the analysis shows three lines",
        "return document.querySelectorAll('#lines li').length === 3 && ui.lastInfo !== null \
         && ui.lastInfo.depth >= 12",
        Duration::from_secs(60),
    );
    driver.screenshot(1280, 860, &dir.join("serve-1280.png"));
    driver.screenshot(390, 1100, &dir.join("serve-390.png"));
}
