//! `chariot serve` through its HTTP API, as the page uses it: moves legal and illegal, FEN and
//! PGN loading, the rules' endings, a search answered and one stopped, and malformed requests
//! refused with a 4xx and a message (never a crash: the server answers afterwards).
#![cfg(feature = "serve")]

#[allow(dead_code)]
#[path = "common/serve_process.rs"]
mod serve_process;

use serde_json::json;
use serve_process::{post, request, send_raw, Events, Server};
use std::time::{Duration, Instant};

/// A position where Red mates at once with b7b9 (the rook on a8 guards rank 8, the kings face
/// each other on the e-file).
const MATE_IN_ONE: &str = "3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 0 1";

#[test]
fn a_legal_move_is_played_and_an_illegal_one_refused() {
    let server = Server::start(&["--searches", "1"]);
    let reply = post(
        &server.address,
        "/api/move",
        &json!({ "moves": [], "move": "h2e2" }),
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    let state = reply.json();
    assert_eq!(state["last"], "h2e2");
    assert_eq!(state["side"], "black");
    assert_eq!(state["moves"][0]["chinese"], "炮二平五");
    assert_eq!(state["moves"][0]["wxf"], "C2=5");
    // Black's horse on h9 may go to g7 or i7, nowhere else.
    assert_eq!(state["legal"]["h9"], json!(["g7", "i7"]));

    let illegal = post(
        &server.address,
        "/api/move",
        &json!({ "moves": ["h2e2"], "move": "h9h5" }),
    );
    assert_eq!(illegal.status, 422, "{}", illegal.body);
    assert!(illegal.json()["error"]
        .as_str()
        .unwrap()
        .contains("illegal move"));

    // Moves in any notation the PGN reader takes; a move played at an earlier ply drops the rest.
    let branch = post(
        &server.address,
        "/api/move",
        &json!({ "moves": ["h2e2", "h9g7"], "ply": 1, "move": "马8进7" }),
    );
    assert_eq!(branch.status, 200, "{}", branch.body);
    assert_eq!(branch.json()["moves"].as_array().unwrap().len(), 2);
}

#[test]
fn endings_come_with_their_reason() {
    let server = Server::start(&["--searches", "1"]);
    let mate = post(
        &server.address,
        "/api/move",
        &json!({ "fen": MATE_IN_ONE, "move": "b7b9" }),
    )
    .json();
    assert_eq!(mate["ending"]["winner"], "red");
    assert_eq!(mate["ending"]["text"], "Red wins: checkmate");
    // No move after the end.
    let after = post(
        &server.address,
        "/api/move",
        &json!({ "fen": MATE_IN_ONE, "moves": ["b7b9"], "move": "d9e9" }),
    );
    assert_eq!(after.status, 422);
    assert!(after.body.contains("the game is over"), "{}", after.body);

    // Both horses out and back twice: the start position stands a third time.
    let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"].repeat(2);
    let draw = post(
        &server.address,
        "/api/position",
        &json!({ "moves": shuffle }),
    )
    .json();
    assert_eq!(draw["ending"]["winner"], json!(null));
    assert_eq!(draw["ending"]["reason"], "draw by repetition");
    // Looking at an earlier ply of the same game: no ending there.
    let earlier = post(
        &server.address,
        "/api/position",
        &json!({ "moves": shuffle, "ply": 4 }),
    )
    .json();
    assert_eq!(earlier["ending"], json!(null));
    assert_eq!(earlier["last"], "g7h9");
}

#[test]
fn fen_and_pgn_load_and_pgn_exports() {
    let server = Server::start(&["--searches", "1"]);
    let fen = post(
        &server.address,
        "/api/load",
        &json!({ "text": MATE_IN_ONE }),
    )
    .json();
    assert_eq!(fen["fen"], MATE_IN_ONE);
    assert_eq!(fen["moves"], json!([]));
    assert_eq!(fen["state"]["board"].as_str().unwrap().len(), 90);

    let pgn = "[Event \"t\"]\n[Red \"A\"]\n[Black \"B\"]\n1. C2=5 H8+7 2. H2+3 {fine} R9=8 1-0\n";
    let game = post(&server.address, "/api/load", &json!({ "text": pgn })).json();
    assert_eq!(game["moves"], json!(["h2e2", "h9g7", "h0g2", "i9h9"]));
    assert_eq!(game["tags"]["result"], "1-0");
    assert_eq!(game["tags"]["red"], "A");
    assert_eq!(game["state"]["ply"], 0);

    for (text, what) in [
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w",
            "bad FEN",
        ),
        ("1. H2-H8 *", "PGN: move 1"),
        (
            "[Event \"x\"]\n1. H2-E2",
            "PGN: the last game has no result",
        ),
        ("   ", "nothing to load"),
    ] {
        let reply = post(&server.address, "/api/load", &json!({ "text": text }));
        assert_eq!(reply.status, 422, "{text}: {}", reply.body);
        assert!(reply.body.contains(what), "{text}: {}", reply.body);
    }

    let exported = post(
        &server.address,
        "/api/pgn",
        &json!({ "moves": ["h2e2", "h9g7"], "notation": "wxf", "red": "Me", "black": "Chariot" }),
    );
    assert_eq!(exported.status, 200);
    assert!(exported.body.contains("[Red \"Me\"]"), "{}", exported.body);
    assert!(
        exported.body.contains("1. C2=5 H8+7 *"),
        "{}",
        exported.body
    );
    // What is exported loads back.
    let back = post(
        &server.address,
        "/api/load",
        &json!({ "text": exported.body }),
    )
    .json();
    assert_eq!(back["moves"], json!(["h2e2", "h9g7"]));
}

#[test]
fn malformed_requests_get_a_4xx_with_a_message() {
    let server = Server::start(&["--searches", "1"]);
    let address = &server.address;
    let cases: Vec<(u16, serve_process::Reply)> = vec![
        (
            400,
            request(address, "POST", "/api/move", Some("{\"moves\": [")),
        ),
        (
            400,
            request(address, "POST", "/api/move", Some("{\"moves\": 3}")),
        ),
        (400, request(address, "POST", "/api/move", Some("[]"))),
        (400, post(address, "/api/position", &json!({ "ply": 5 }))),
        (404, request(address, "GET", "/no/such/page", None)),
        (405, request(address, "GET", "/api/move", None)),
        (
            404,
            post(
                address,
                "/api/search",
                &json!({ "tab": "nope", "mode": "analyse" }),
            ),
        ),
        (404, post(address, "/api/stop", &json!({ "tab": "nope" }))),
        (
            400,
            post(address, "/api/pgn", &json!({ "notation": "klingon" })),
        ),
        (400, post(address, "/api/pgn", &json!({ "result": "2-0" }))),
        (
            413,
            request(address, "POST", "/api/load", Some(&"x".repeat(2 << 20))),
        ),
        (
            422,
            post(
                address,
                "/api/position",
                &json!({ "moves": vec!["h2e2"; 4001] }),
            ),
        ),
    ];
    for (i, (status, reply)) in cases.into_iter().enumerate() {
        assert_eq!(reply.status, status, "case {i}: {}", reply.body);
        assert!(
            reply.json()["error"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "case {i}: {}",
            reply.body
        );
    }
    // Bytes that are not HTTP at all get a 4xx from the HTTP layer, and the server lives on.
    let garbage = send_raw(address, b"\x00\x01 nonsense\r\n\r\n");
    assert!((400..500).contains(&garbage.status), "{garbage:?}");
    let fine = post(address, "/api/position", &json!({}));
    assert_eq!(fine.status, 200);
}

#[test]
fn a_search_is_answered_and_a_search_is_stopped() {
    let server = Server::start(&["--searches", "1"]);
    let mut events = Events::open(&server.address);
    let tab = events.tab.clone();
    // A short analysis: progress reports, then the answer.
    let started = post(
        &server.address,
        "/api/search",
        &json!({ "tab": tab, "mode": "analyse", "movetime": 300, "multipv": 2, "moves": ["h2e2"] }),
    );
    assert_eq!(started.status, 200, "{}", started.body);
    let id = started.json()["search"].clone();
    let (done, before) = events.until(Duration::from_secs(30), |name, data| {
        name == "done" && data["search"] == id
    });
    assert!(done["move"].is_string(), "{done}");
    let infos: Vec<_> = before.iter().filter(|(name, _)| name == "info").collect();
    assert!(
        infos.iter().any(|(_, info)| info["multipv"] == 2),
        "{infos:?}"
    );
    let last = &infos.last().expect("progress reports").1;
    assert_eq!(last["side"], "black");
    assert_eq!(
        last["pv"]["chinese"].as_array().unwrap().len(),
        last["pv"]["iccs"].as_array().unwrap().len()
    );
    let wdl: u64 = last["wdl"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(wdl, 1000);

    // A long analysis, stopped: its answer comes at once. A new position replaces a search.
    let long = json!({ "tab": tab, "mode": "analyse", "movetime": 600_000 });
    let first = post(&server.address, "/api/search", &long).json()["search"].clone();
    let second = post(&server.address, "/api/search", &long).json()["search"].clone();
    events.until(Duration::from_secs(10), |name, data| {
        name == "done" && data["search"] == first
    });
    let asked = Instant::now();
    assert_eq!(
        post(&server.address, "/api/stop", &json!({ "tab": tab })).status,
        200
    );
    events.until(Duration::from_secs(10), |name, data| {
        name == "done" && data["search"] == second
    });
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );

    // The engine's move at a level: one legal move.
    let play = json!({ "tab": tab, "mode": "play", "movetime": 200, "elo": 1400 });
    let id = post(&server.address, "/api/search", &play).json()["search"].clone();
    let (done, _) = events.until(Duration::from_secs(30), |name, data| {
        name == "done" && data["search"] == id
    });
    let mv = done["move"].as_str().unwrap();
    let reply = post(&server.address, "/api/move", &json!({ "move": mv }));
    assert_eq!(reply.status, 200, "{mv}: {}", reply.body);
    for bad in [
        json!({ "tab": tab, "mode": "play", "elo": 900 }),
        json!({ "tab": tab, "mode": "play", "movetime": 0 }),
        json!({ "tab": tab, "mode": "analyse", "multipv": 9 }),
        json!({ "tab": tab, "mode": "ponder" }),
    ] {
        let reply = post(&server.address, "/api/search", &bad);
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
    }
}

#[test]
fn a_closed_tab_stops_its_search_and_frees_its_place() {
    let server = Server::start(&["--searches", "1"]);
    let events = Events::open(&server.address);
    let long = json!({ "tab": events.tab, "mode": "analyse", "movetime": 600_000 });
    assert_eq!(post(&server.address, "/api/search", &long).status, 200);
    let tab = events.tab.clone();
    drop(events);
    // The heartbeat finds the tab gone within a few seconds; its search stops and frees the
    // only slot, so another tab's search runs.
    let start = Instant::now();
    while post(&server.address, "/api/stop", &json!({ "tab": tab })).status != 404 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the closed tab stays open"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut other = Events::open(&server.address);
    let short = json!({ "tab": other.tab, "mode": "analyse", "movetime": 200 });
    let id = post(&server.address, "/api/search", &short).json()["search"].clone();
    other.until(Duration::from_secs(10), |name, data| {
        name == "done" && data["search"] == id && data["move"].is_string()
    });
}

/// The load check: 50 tabs at once each ask for a short analysis; every one is answered, the
/// searches wait their turn for the two slots, and memory stays bounded. Prints the figures.
#[test]
fn fifty_tabs_at_once_are_all_answered() {
    const TABS: usize = 50;
    let mut server = Server::start(&["--searches", "2"]);
    let address = server.address.clone();
    let start = Instant::now();
    let clients: Vec<_> = (0..TABS)
        .map(|i| {
            let address = address.clone();
            std::thread::spawn(move || {
                let mut events = Events::open(&address);
                // Different positions: each tab its own game.
                let moves = [["h2e2"], ["b2e2"], ["h0g2"], ["c3c4"], ["g3g4"]][i % 5];
                let body = json!({ "tab": events.tab, "mode": "analyse", "movetime": 100, "moves": moves });
                let reply = post(&address, "/api/search", &body);
                assert_eq!(reply.status, 200, "{}", reply.body);
                let id = reply.json()["search"].clone();
                let (done, _) = events.until(Duration::from_secs(120), |name, data| {
                    name == "done" && data["search"] == id
                });
                assert!(done["move"].is_string(), "{done}");
            })
        })
        .collect();
    for client in clients {
        client.join().expect("every client is answered");
    }
    let elapsed = start.elapsed();
    assert!(server.alive());
    let peak = server.peak_memory_kib();
    println!(
        "{TABS} tabs, 100 ms analyses on 2 slots: all answered in {:.2} s, peak resident {} MiB",
        elapsed.as_secs_f64(),
        peak.map_or("?".to_string(), |k| (k / 1024).to_string())
    );
    if let Some(kib) = peak {
        assert!(kib < 512 * 1024, "peak resident {kib} KiB");
    }
}
