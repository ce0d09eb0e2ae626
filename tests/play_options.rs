//! The options for playing and analysing, over the protocols as a GUI drives them:
//! `UCI_ShowWDL` (the `wdl W D L` field of `info`) and `UCI_LimitStrength` with `UCI_Elo`
//! (and their UCCI names).

mod common;

use chariot::board::notation::{parse_move, RankBase};
use chariot::strength::{Weakness, MIN_ELO};
use chariot::Position;
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

fn word_after<'a>(line: &'a str, key: &str) -> &'a str {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == key).unwrap();
    words[i + 1]
}

#[test]
fn the_handshakes_offer_the_options() {
    Engine::start().handshake(
        "uci",
        "uciok",
        &[
            "option name UCI_ShowWDL type check default false",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 2800 min 1200 max 2800",
        ],
    );
    let mut e = Engine::start();
    e.handshake(
        "ucci",
        "ucciok",
        &[
            "option limitstrength type check default false",
            "option elo type spin min 1200 max 2800 default 2800",
        ],
    );
    e.send("setoption elo 3000");
    assert!(e
        .last("info string error")
        .contains("elo takes 1200 to 2800, not 3000"));
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

/// A limited level stops at its node budget (after depth 1, which always completes), shows
/// only the lines the GUI asked for, and plays a legal move; switched off, it searches as
/// asked again.
#[test]
fn limit_strength_searches_within_the_level_budget() {
    let mut e = uci_engine();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 2000");
    let budget = Weakness::for_elo(2000).nodes;
    e.send("position startpos");
    let (infos, best) = search(&mut e, "go depth 30");
    let last = infos.last().unwrap();
    let nodes: u64 = word_after(last, "nodes").parse().unwrap();
    let depth: i32 = word_after(last, "depth").parse().unwrap();
    assert!(nodes <= budget && depth < 30, "{infos:#?}");
    assert!(
        infos.iter().all(|l| word_after(l, "multipv") == "1"),
        "{infos:#?}"
    );
    let mv = word_after(&best, "bestmove");
    parse_move(&Position::startpos(), mv, RankBase::Zero).expect("a legal move");

    e.send("setoption name UCI_LimitStrength value false");
    let (infos, _) = search(&mut e, "go depth 6");
    assert_eq!(word_after(infos.last().unwrap(), "depth"), "6");
}

/// The weakest level sometimes plays a move other than its best line's, the strongest never.
/// With `MultiPV 4` every line a level chooses from is shown: the move comes from the deepest
/// iteration that reported all four. The positions are the first moves of a game, each
/// searched afresh.
#[test]
fn the_weakest_level_strays_from_its_best_line() {
    let positions = [
        "startpos",
        "startpos moves h2e2",
        "startpos moves h2e2 h9g7",
        "startpos moves h2e2 h9g7 h0g2",
        "startpos moves h2e2 h9g7 h0g2 i9h9",
        "startpos moves b2e2",
        "startpos moves b2e2 b9c7",
        "startpos moves g3g4",
        "startpos moves g3g4 h7e7",
        "startpos moves c3c4 c6c5",
    ];
    let strays = |elo: i64| {
        let mut e = uci_engine();
        e.send("setoption name MultiPV value 4");
        e.send("setoption name UCI_LimitStrength value true");
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        positions
            .iter()
            .filter(|p| {
                e.send("ucinewgame");
                e.send(&format!("position {p}"));
                let (infos, best) = search(&mut e, "go nodes 100000");
                let depth_of = |l: &String| word_after(l, "depth").parse::<i32>().unwrap();
                let full = infos.iter().filter(|l| depth_of(l) == 1).count();
                assert_eq!(full, 4, "{infos:#?}");
                let deepest = (1..=depth_of(infos.last().unwrap()))
                    .filter(|&d| infos.iter().filter(|l| depth_of(l) == d).count() == full)
                    .max()
                    .unwrap();
                let first_moves: Vec<&str> = infos
                    .iter()
                    .filter(|l| depth_of(l) == deepest)
                    .map(|l| word_after(l, "pv"))
                    .collect();
                let played = word_after(&best, "bestmove");
                assert!(first_moves.contains(&played), "{played}: {infos:#?}");
                played != first_moves[0]
            })
            .count()
    };
    assert!(
        strays(MIN_ELO) >= 2,
        "the weakest level played its best line throughout"
    );
    assert_eq!(strays(chariot::strength::MAX_ELO), 0);
}
