//! The options for playing and analysing, over the protocols as a GUI drives them:
//! `UCI_ShowWDL` (the `wdl W D L` field of `info`).

mod common;

use common::engine_process::Engine;

fn uci_engine() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e
}

/// The `info depth` lines and the `bestmove` line of one `go`.
fn search(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let mut lines = e.until("bestmove");
    let best = lines.pop().unwrap();
    let infos = lines
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    (infos, best)
}

/// The `wdl` triple of an `info` line, if it has one; it must follow the score.
fn wdl(line: &str) -> Option<[u32; 3]> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == "wdl")?;
    assert_eq!(words[i - 3], "score", "wdl follows the score: {line}");
    Some([1, 2, 3].map(|k| words[i + k].parse().expect("a per-mille number")))
}

#[test]
fn the_handshakes_offer_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    let option = "option name UCI_ShowWDL type check default false";
    assert!(lines.iter().any(|l| l == option), "{option}: {lines:#?}");
}

#[test]
fn show_wdl_adds_the_field_and_takes_it_away() {
    let mut e = uci_engine();
    e.send("position startpos moves h2e2");
    let (infos, _) = search(&mut e, "go depth 4");
    assert!(infos.iter().all(|l| wdl(l).is_none()), "{infos:#?}");

    e.send("setoption name UCI_ShowWDL value true");
    let (infos, _) = search(&mut e, "go depth 4");
    assert!(infos.len() >= 4, "{infos:#?}");
    for line in &infos {
        let [w, d, l] = wdl(line).unwrap_or_else(|| panic!("no wdl in {line}"));
        assert_eq!(w + d + l, 1000, "{line}");
    }

    e.send("setoption name UCI_ShowWDL value false");
    let (infos, _) = search(&mut e, "go depth 3");
    assert!(infos.iter().all(|l| wdl(l).is_none()), "{infos:#?}");
}

/// Red a rook up wins most games, and Black, a rook down, loses them: each side sees the
/// chances from its own side.
#[test]
fn wdl_is_from_the_side_to_move() {
    let mut e = uci_engine();
    e.send("setoption name UCI_ShowWDL value true");
    let rook_up = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    e.send(&format!("position fen {rook_up} w - - 0 1"));
    let (red, _) = search(&mut e, "go depth 5");
    let [w, _, l] = wdl(red.last().unwrap()).unwrap();
    assert!(w > 500 && l < 50, "{red:#?}");
    e.send(&format!("position fen {rook_up} b - - 0 1"));
    let (black, _) = search(&mut e, "go depth 5");
    let [w, _, l] = wdl(black.last().unwrap()).unwrap();
    assert!(l > 500 && w < 50, "{black:#?}");
}
