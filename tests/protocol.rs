//! Drives the `chariot` binary through stdin/stdout in both protocols, including bad input,
//! the UCI_Variant rank numbering, `stop`, `ponderhit` and positions without a legal move.

mod common;

use chariot::board::notation::{parse_move, RankBase};
use chariot::Position;
use common::engine_process::Engine;
use std::io::Write;
use std::time::Duration;

/// Black to move and checkmated.
const MATED: &str = "3k5/9/3R5/9/9/9/9/9/9/4K4 b - - 0 1";

fn bestmove(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{line}");
    let ponder = words
        .iter()
        .position(|&w| w == "ponder")
        .map(|i| words[i + 1].to_string());
    (words[1].to_string(), ponder)
}

#[test]
fn uci_handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    for option in [
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Clear Hash",
        "Move Overhead",
        "UCI_Variant",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}: {lines:#?}"
        );
    }
    e.send("isready");
    e.until("readyok");
}

#[test]
fn uci_search_reports_and_plays_a_legal_move() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 5");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.len() >= 5, "one info per iteration: {lines:#?}");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(
            infos.last().unwrap().contains(field),
            "{field} missing: {infos:#?}"
        );
    }
    let (best, ponder) = bestmove(lines.last().unwrap());
    let mut pos = Position::startpos();
    for mv in ["h2e2", "h9g7"] {
        pos.make_move(parse_move(&pos, mv, RankBase::Zero).unwrap());
    }
    let best = parse_move(&pos, &best, RankBase::Zero).expect("bestmove is legal");
    pos.make_move(best);
    let ponder = ponder.expect("a depth-5 search has a ponder move");
    parse_move(&pos, &ponder, RankBase::Zero).expect("ponder move is legal after bestmove");
}

#[test]
fn bad_uci_input_reports_errors_and_keeps_state() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves b0c2");
    let before = e.fen();
    for (bad, words) in [
        ("flurb", "unknown command"),
        ("position startpos moves b0c2 h9h0", "not a legal move"),
        ("position startpos moves b0c2 x", "not a move"),
        ("position fen rnbakabnr/9/9 w", "FEN"),
        ("position sideways", "startpos"),
        ("setoption name Hash value lots", "not a number"),
        ("setoption name Threads value 0", "takes 1 to 256"),
        ("setoption name Colour value blue", "unknown option"),
        ("setoption name UCI_Variant value chess", "UCI_Variant"),
        ("go depth deep", "not a valid number"),
        ("go sideways 5", "unknown parameter"),
        ("go searchmoves a0a9", "not a legal move"),
    ] {
        e.send(bad);
        let error = e.last("info string error");
        assert!(error.contains(words), "'{bad}' gave '{error}'");
        assert_eq!(e.fen(), before, "'{bad}' changed the position");
    }
    e.send("isready");
    e.until("readyok");
}

#[test]
fn uci_variant_switches_to_ranks_one_to_ten() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos moves h3e3 h10g8");
    let mut pos = Position::startpos();
    for mv in ["h2e2", "h9g7"] {
        pos.make_move(parse_move(&pos, mv, RankBase::Zero).unwrap());
    }
    assert_eq!(e.fen(), pos.to_fen());
    // `d` labels the ranks as moves now name them, 10 at the top down to 1.
    e.send("isready");
    e.until("readyok");
    e.send("d");
    let shown = e.until("Fen: ");
    let board: Vec<&String> = shown
        .iter()
        .filter(|l| l.split_whitespace().count() == 10)
        .collect();
    assert_eq!(board.len(), 10, "{shown:#?}");
    assert!(board[0].starts_with("10  r"), "{shown:#?}");
    assert!(board[9].starts_with(" 1  R"), "{shown:#?}");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let (best, _) = bestmove(lines.last().unwrap());
    parse_move(&pos, &best, RankBase::One).expect("bestmove is written with ranks 1-10");
    let pv_line = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    let first = pv_line
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    parse_move(&pos, first, RankBase::One).expect("pv moves are written with ranks 1-10");
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("stop");
    let (best, _) = bestmove(&e.last("bestmove"));
    parse_move(&Position::startpos(), &best, RankBase::Zero).expect("legal bestmove");
    e.send("isready");
    e.until("readyok");
}

#[test]
fn ponderhit_turns_a_ponder_search_into_a_timed_one() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves h2e2");
    e.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ponderhit");
    let (best, _) = bestmove(&e.last("bestmove"));
    let mut pos = Position::startpos();
    pos.make_move(parse_move(&pos, "h2e2", RankBase::Zero).unwrap());
    parse_move(&pos, &best, RankBase::Zero).expect("legal bestmove");
}

#[test]
fn a_mated_side_has_no_bestmove() {
    // The rook checks on the d-file; e9 would face the red king.
    let fen = MATED;
    assert!(chariot::board::movegen::is_lost(
        &Position::from_fen(fen).unwrap()
    ));
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    // As Stockfish and Pikafish answer: the score of the position, then no move.
    assert_eq!(
        lines[lines.len() - 2..],
        ["info depth 0 score mate 0", "bestmove (none)"],
        "{lines:#?}"
    );
}

#[test]
fn ucci_session() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.until("ucciok");
    // Hosts send seconds unless the engine offers usemillisec and they switch it on.
    assert!(
        hello.contains(&"option usemillisec type check default false".to_string()),
        "{hello:#?}"
    );
    e.send("setoption usemillisec true");
    e.send("setoption hashsize 8");
    e.send("setoption threads 1");
    e.send("isready");
    e.until("readyok");
    e.send("position startpos moves h2e2");
    e.send("go time 60000 increment 0 opptime 60000 depth 4");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:#?}"
    );
    e.send("probe startpos moves h2e2");
    let probe = e.last("pophash");
    assert!(
        probe.contains("bestmove") && probe.contains("bound"),
        "{probe}"
    );
    // Banned moves are not played; `position` lifts the ban again.
    e.send("banmoves h9g7 b9c7");
    e.send("go depth 4");
    let (best, _) = bestmove(&e.last("bestmove"));
    assert!(
        best != "h9g7" && best != "b9c7",
        "banned move {best} played"
    );
    e.send("go draw depth 2");
    e.last("bestmove");
    e.send("quit");
    e.last("bye");
}

#[test]
fn bad_ucci_input_reports_errors_and_keeps_state() {
    let mut e = Engine::start();
    e.send("ucci");
    e.until("ucciok");
    e.send("position startpos moves h2e2");
    let before = e.fen();
    for (bad, words) in [
        ("banmoves h2e2", "not a legal move"),
        ("position startpos moves h2e2 h2e2", "not a legal move"),
        (
            "setoption hashsize many",
            "not a number (hashsize takes 1 to 65536)",
        ),
        ("setoption hashsize 0", "hashsize takes 1 to 65536, not 0"),
        ("setoption threads", "needs a value"),
        ("setoption flavour sweet", "unknown option"),
        ("setoption usemillisec maybe", "expected 'true' or 'false'"),
        ("go time soon", "not a valid number"),
        ("fly", "unknown command"),
    ] {
        e.send(bad);
        let error = e.last("info string error");
        assert!(error.contains(words), "'{bad}' gave '{error}'");
        assert_eq!(e.fen(), before, "'{bad}' changed the position");
    }
    e.send("stop");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    e.last("bestmove");
}

#[test]
fn no_legal_move_in_ucci_is_nobestmove() {
    let fen = MATED;
    let mut e = Engine::start();
    e.send("ucci");
    e.until("ucciok");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 2");
    assert_eq!(e.last("nobestmove"), "nobestmove");
}

#[test]
fn invalid_utf8_is_refused_and_the_session_goes_on() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.stdin
        .write_all(b"position startpos moves h2e2\xff\r\n")
        .unwrap();
    e.stdin.write_all(b"\xfe\xfd\n").unwrap();
    e.send("isready");
    let lines = e.until("readyok");
    let errors = lines.iter().filter(|l| l.starts_with("info string error"));
    assert_eq!(errors.count(), 2, "{lines:#?}");
    assert_eq!(e.fen(), Position::startpos().to_fen());
}

// ---- mates and rule endings --------------------------------------------------------------

/// The score word and number of an `info` line: ("cp", 35) or ("mate", 3).
fn info_score(line: &str) -> (String, i32) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words
        .iter()
        .position(|&w| w == "score")
        .unwrap_or_else(|| panic!("no score in '{line}'"));
    (words[i + 1].to_string(), words[i + 2].parse().unwrap())
}

fn info_depth(line: &str) -> i32 {
    let words: Vec<&str> = line.split_whitespace().collect();
    words[2].parse().unwrap()
}

/// Searches `fen` in UCI with the `go` command given; returns the `info depth` lines and the
/// best move.
fn search_uci(fen: &str, go: &str) -> (Vec<String>, String) {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send(&format!("position fen {fen}"));
    e.send(go);
    let lines = e.until("bestmove");
    let (best, _) = bestmove(lines.last().unwrap());
    let infos = lines
        .into_iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    (infos, best)
}

/// Red (in check from the rook on a0) has the black king in a net: rooks on c8 (rank 8) and
/// g2 (ready for g9 or d2), the red king holding the e-file. Black's only line that is not
/// mated is to keep checking along ranks 0 and 1, which loses by the perpetual-check rule at
/// ply 4; a quiet move at ply 3 is mated at ply 5, so the longest resistance is mate 3. Scored
/// as a flat 20000, the checks looked better than any mate to Black, and Red's deepening
/// printed `cp 20000` to depth 60 and beyond.
const PERPETUAL_CHECK_DEFENCE: &str = "3k5/2R6/9/9/9/9/9/6R2/9/r3K4 w - - 0 1";

#[test]
fn a_perpetual_check_defence_is_a_mate_at_its_distance() {
    let (infos, best) = search_uci(PERPETUAL_CHECK_DEFENCE, "go movetime 3000");
    let last = infos.last().expect("info lines");
    assert_eq!(info_score(last), ("mate".to_string(), 3), "{infos:#?}");
    assert!(
        infos.iter().all(|l| info_depth(l) < 127),
        "deepening ran to the end: {infos:#?}"
    );
    // Interposing on c0 loses the rook and the net; the king step keeps both.
    assert_eq!(best, "e0e1");
}

/// Red (in check from the rook on a1) steps to e2; then the cannon on i5 threatens i8, a mate
/// along rank 8 behind the horse on h8 (which also holds f7 and f9), and from a5 it threatens
/// a8 behind the cannon on b8. Black's rook on rank 1 is the only guard of either file, and
/// each of its moves to the cannon's file attacks the unprotected cannon anew: a perpetual
/// chase, which loses by rule at ply 6. Any other defence is mated, at the latest by the
/// sacrifice i1e1 and mate at ply 7, so the answer is mate 4. With chases scored as draws
/// Red does not win at all (a scratch search to depth 20 gives +2 pawns), so the mate rests
/// on the chase rule. Found by a random search over small positions.
const PERPETUAL_CHASE_DEFENCE: &str = "2ba5/1C3k1N1/9/9/8C/9/9/5A3/r3K4/9 w - - 6 4";

#[test]
fn a_perpetual_chase_defence_is_a_mate_at_its_distance() {
    let (infos, best) = search_uci(PERPETUAL_CHASE_DEFENCE, "go movetime 3000");
    let last = infos.last().expect("info lines");
    assert_eq!(info_score(last), ("mate".to_string(), 4), "{infos:#?}");
    assert!(
        infos.iter().all(|l| info_depth(l) < 127),
        "deepening ran to the end: {infos:#?}"
    );
    // The other replies to the check (e1e0, b8b1) win nothing.
    assert_eq!(best, "e1e2");
}

#[test]
fn go_mate_stops_at_a_proved_mate() {
    // Mate in two: g2d2 (the d-file check), then the rook takes whatever blocks on d5.
    let fen = "3k5/9/9/9/r8/9/9/2R3R2/9/4K4 w - - 0 1";
    let (infos, best) = search_uci(fen, "go mate 2");
    let last = infos.last().expect("info lines");
    let (kind, n) = info_score(last);
    assert!(kind == "mate" && (1..=2).contains(&n), "{infos:#?}");
    // No other limit was given: only the proof ended the search.
    assert!(info_depth(last) < 20, "{infos:#?}");
    assert_eq!(best, "g2d2");

    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("go mate 0");
    let error = e.last("info string error");
    assert!(error.contains("go mate takes 1 to 64 moves"), "{error}");
}

#[test]
fn go_mate_searches_on_past_a_longer_mate() {
    // The same mate in two, asked as a mate in one: that mate is settled by depth 6 (twice
    // its three plies), where a normal search would stop; `go mate 1` goes on to its limit.
    let fen = "3k5/9/9/9/r8/9/9/2R3R2/9/4K4 w - - 0 1";
    let (infos, best) = search_uci(fen, "go mate 1 depth 9");
    let last = infos.last().expect("info lines");
    assert_eq!(info_score(last), ("mate".to_string(), 2), "{infos:#?}");
    assert_eq!(info_depth(last), 9, "{infos:#?}");
    assert_eq!(best, "g2d2");
}

#[test]
fn ucci_prints_mates_as_elephanteye_does() {
    // Mate in one (g2d2): 10000 less one ply.
    let fen = "3k5/9/9/9/9/9/9/2R3R2/r8/4K4 w - - 0 1";
    let mut e = Engine::start();
    e.send("ucci");
    e.until("ucciok");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let score = words[words.iter().position(|&w| w == "score").unwrap() + 1];
    assert_eq!(score, "9999", "{info}");
    assert_eq!(lines.last().unwrap(), "bestmove g2d2");
}

// ---- every go is answered ----------------------------------------------------------------

/// The lines up to `bestmove` and the best move of the search `go` starts, which must answer
/// with a legal move of `pos` after reporting depth 1 and then a PV that starts with it.
fn answered(e: &mut Engine, go: &str, pos: &Position) -> (Vec<String>, String) {
    e.send(go);
    let lines = e.until("bestmove");
    let (best, _) = bestmove(lines.last().unwrap());
    parse_move(pos, &best, RankBase::Zero)
        .unwrap_or_else(|err| panic!("'{go}': {err}: {lines:#?}"));
    let infos: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .cloned()
        .collect();
    let first = infos
        .first()
        .unwrap_or_else(|| panic!("'{go}': no info: {lines:#?}"));
    assert_eq!(info_depth(first), 1, "'{go}': {lines:#?}");
    let pv = infos.last().unwrap().split(" pv ").nth(1).unwrap_or("");
    assert_eq!(
        pv.split_whitespace().next(),
        Some(best.as_str()),
        "'{go}': {lines:#?}"
    );
    (lines, best)
}

#[test]
fn a_go_with_a_bad_parameter_reports_it_and_still_answers() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves h2e2");
    let mut pos = Position::startpos();
    pos.make_move(parse_move(&pos, "h2e2", RankBase::Zero).unwrap());
    assert_each_go_reports(
        &mut e,
        &pos,
        &[
            ("go movetime -5", "not a valid number"),
            ("go depth x", "not a valid number"),
            ("go wtime", "needs a value"),
            ("go sideways 5", "unknown parameter"),
            ("go mate 0", "go mate takes"),
            ("go searchmoves a0a9", "not a legal move"),
            ("go depth 2 nodes many", "not a valid number"),
        ],
    );
    // What can be read is kept: the legal one of the moves, the depth.
    let (lines, best) = answered(&mut e, "go depth 3 searchmoves h9g7 zz a0a9", &pos);
    assert_eq!(best, "h9g7", "{lines:#?}");
    let errors = lines.iter().filter(|l| l.starts_with("info string error"));
    assert_eq!(errors.count(), 2, "{lines:#?}");
    let last = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert_eq!(info_depth(last), 3, "{lines:#?}");
    e.send("isready");
    e.until("readyok");
}

/// Each `go` is answered (see `answered`) and reports an error line holding its words.
fn assert_each_go_reports(e: &mut Engine, pos: &Position, cases: &[(&str, &str)]) {
    for &(go, words) in cases {
        let (lines, _) = answered(e, go, pos);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error") && l.contains(words)),
            "'{go}': {lines:#?}"
        );
    }
}

#[test]
fn a_ucci_go_with_a_bad_parameter_reports_it_and_still_answers() {
    let mut e = Engine::start();
    e.send("ucci");
    e.until("ucciok");
    let pos = Position::startpos();
    assert_each_go_reports(
        &mut e,
        &pos,
        &[
            ("go time soon", "not a valid number"),
            ("go depth x", "not a valid number"),
            ("go nodes -1", "not a valid number"),
            ("go increment", "needs a value"),
            ("go fly", "unknown parameter"),
        ],
    );
    let (lines, _) = answered(&mut e, "go depth 3 opptime soon", &pos);
    let last = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert_eq!(info_depth(last), 3, "{lines:#?}");
}

#[test]
fn a_search_stopped_at_once_still_completes_depth_one() {
    let pos = Position::startpos();
    for dialect in ["uci", "ucci"] {
        let mut e = Engine::start();
        e.send(dialect);
        e.until(if dialect == "uci" { "uciok" } else { "ucciok" });
        answered(&mut e, "go nodes 0", &pos);
        answered(&mut e, "go nodes 1", &pos);
        // `stop` in the same write as `go`: it arrives before the search has begun.
        answered(&mut e, "go infinite\nstop", &pos);
        answered(&mut e, "go depth 40\nstop", &pos);
    }
}

// ---- what the GUI is shown -----------------------------------------------------------------

/// The `multipv` index of an `info` line.
fn info_multipv(line: &str) -> usize {
    let words: Vec<&str> = line.split_whitespace().collect();
    let i = words.iter().position(|&w| w == "multipv").unwrap();
    words[i + 1].parse().unwrap()
}

#[test]
fn multipv_lines_come_best_first_at_every_depth() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 10");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    for depth in 1..=10 {
        let at_depth: Vec<(usize, i32)> = infos
            .iter()
            .filter(|l| info_depth(l) == depth)
            .map(|l| (info_multipv(l), info_score(l).1))
            .collect();
        let numbers: Vec<usize> = at_depth.iter().map(|l| l.0).collect();
        assert_eq!(numbers, [1, 2, 3], "depth {depth}: {infos:#?}");
        assert!(
            at_depth.windows(2).all(|w| w[0].1 >= w[1].1),
            "depth {depth}: lines out of order {at_depth:?}"
        );
    }
    // The move played is the first line's.
    let last_first = infos.iter().rfind(|l| info_multipv(l) == 1).unwrap();
    let pv_move = last_first
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(bestmove(lines.last().unwrap()).0, pv_move);
}

#[test]
fn long_input_is_echoed_short_and_counters_do_not_wrap() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    let junk = "x".repeat(5_000_000);
    e.send(&junk);
    let error = e.last("info string error");
    assert!(error.len() < 300, "{} bytes echoed", error.len());

    // 200,000 plies of horses going back and forth: refused, the position kept.
    let before = e.fen();
    let shuffle = " h0g2 h9g7 g2h0 g7h9".repeat(50_000);
    e.send(&format!("position startpos moves{shuffle}"));
    let error = e.last("info string error");
    assert!(error.contains("moves") && error.len() < 300, "{error}");
    assert_eq!(e.fen(), before);
    // A long game within the bounds is played out, and its move number counts on.
    let shuffle = " h0g2 h9g7 g2h0 g7h9".repeat(5_000);
    e.send(&format!("position startpos moves{shuffle}"));
    let fen = e.fen();
    assert!(fen.ends_with(" 10001"), "{fen}");
}

#[test]
fn an_option_value_out_of_range_says_its_range_in_words() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    for (command, words) in [
        (
            "setoption name UCI_Elo value 1000",
            "UCI_Elo takes 1200 to 2800, not 1000",
        ),
        (
            "setoption name UCI_Elo value strong",
            "'strong' is not a number",
        ),
        (
            "setoption name Threads value 0",
            "Threads takes 1 to 256, not 0",
        ),
    ] {
        e.send(command);
        let error = e.last("info string error");
        assert!(error.contains(words), "'{command}' gave '{error}'");
        assert!(!error.contains("..="), "'{command}' gave '{error}'");
    }
}
