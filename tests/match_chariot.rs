//! Real short matches of Chariot against itself at different strengths: the stronger side
//! wins clearly, games end by a rules reason (or a score adjudication), and the PGN replays.
//! A node-limited match under the 50-move convention (`--draw-plies 100`) writes PGN and a
//! report that agree. The 200-game time-forfeit check is `perf/time_forfeit.sh` (and the
//! ignored test below).

use chariot::notation::pgn::{read_games, PgnGame};
use std::path::PathBuf;
use std::process::Command;

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");

fn run(name: &str, args: &[&str]) -> (String, Vec<PgnGame>) {
    let pgn = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.pgn"));
    let _ = std::fs::remove_file(&pgn);
    let output = Command::new(CHARIOT)
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(&pgn)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    (stdout, games)
}

/// The points of the engine named `name` over `games`.
fn points(games: &[PgnGame], name: &str) -> f64 {
    games
        .iter()
        .map(|g| {
            let red = g.tag("Red") == Some(name);
            match (g.result.as_str(), red) {
                ("1-0", true) | ("0-1", false) => 1.0,
                ("1/2-1/2", _) => 0.5,
                _ => 0.0,
            }
        })
        .sum()
}

/// Every game ends by the rules or by agreed adjudication, and the rules confirm the former
/// (with the move-count draw at the game's `DrawPlies`).
fn check_endings(games: &[PgnGame]) {
    for game in games {
        let pos = game.replay().unwrap();
        let reason = game.comments.last().unwrap();
        let draw_plies: u16 = game.tag("DrawPlies").unwrap().parse().unwrap();
        match game.tag("Termination") {
            Some("normal") if reason.contains("plies without capture") => {
                assert_eq!(pos.rule60_count(), draw_plies, "{reason}");
                assert_eq!(game.result, "1/2-1/2");
            }
            Some("normal") => {
                let outcome = chariot::rules::adjudicate(&pos).expect("the rules end the game");
                assert!(reason.contains(outcome.reason.describe()), "{reason}");
                assert!(pos.rule60_count() < draw_plies, "{reason}");
            }
            Some("adjudication") => {}
            other => panic!("unexpected ending {other:?}: {reason}"),
        }
    }
}

#[test]
fn depth_four_beats_depth_one_clearly() {
    let (stdout, games) = run(
        "depth",
        &[
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=Depth1",
            "depth=1",
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=Depth4",
            "depth=4",
            "--games",
            "24",
            "--concurrency",
            "2",
            "--resign",
            "movecount=3",
            "score=1000",
            "--draw",
            "movenumber=80",
            "movecount=10",
            "score=5",
        ],
    );
    assert_eq!(games.len(), 24);
    let strong = points(&games, "Depth4");
    assert!(strong >= 16.0, "depth 4 scored only {strong}/24\n{stdout}");
    check_endings(&games);
}

#[test]
fn five_thousand_nodes_beat_a_hundred_clearly() {
    let (stdout, games) = run(
        "nodes",
        &[
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=N100",
            "nodes=100",
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=N5000",
            "nodes=5000",
            "--games",
            "24",
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(games.len(), 24);
    let strong = points(&games, "N5000");
    assert!(
        strong >= 18.0,
        "5000 nodes scored only {strong}/24\n{stdout}"
    );
    assert!(stdout.contains("LOS "), "{stdout}");
    check_endings(&games);
}

#[test]
fn ucci_and_uci_variant_protocols_play_the_real_engine() {
    let (_, games) = run(
        "protocols",
        &[
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=Ucci",
            "proto=ucci",
            "option.hashsize=8",
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=Variant",
            "proto=uci-variant",
            "option.Hash=8",
            "--nodes",
            "2000",
            "--games",
            "2",
            "--resign",
            "movecount=3",
            "score=1000",
        ],
    );
    assert_eq!(games.len(), 2);
    check_endings(&games);
}

/// A real match under the 50-move convention, with PGN and report: from the start position and
/// from a rook endgame 95 plies into a capture-free stretch, the games end by the rules (the
/// endgame by the move-count draw at 100 plies), and the report has one point per game.
#[test]
fn node_limited_match_with_draw_plies_pgn_and_report() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let report = dir.join("chariot-report.html");
    let _ = std::fs::remove_file(&report);
    let openings = dir.join("draw-plies.fen");
    let endgame = "3ak4/4a4/r8/9/9/9/9/8R/4A4/3AK4 w - - 95 1";
    std::fs::write(
        &openings,
        format!("{}\n{endgame}\n", chariot::Position::START_FEN),
    )
    .unwrap();
    let (stdout, games) = run(
        "draw-plies",
        &[
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=N300",
            "nodes=300",
            "option.Hash=4",
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=N1500",
            "nodes=1500",
            "option.Hash=4",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--draw-plies",
            "100",
            "--openings",
            openings.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ],
    );
    assert_eq!(games.len(), 4);
    // Games are written as they finish, not in schedule order.
    let endgames: Vec<&PgnGame> = games
        .iter()
        .filter(|g| g.tag("FEN") == Some(endgame))
        .collect();
    assert_eq!(endgames.len(), 2);
    for game in endgames {
        assert_eq!(
            game.comments.last().unwrap(),
            "draw by the 50-move rule (100 plies without capture)"
        );
    }
    assert!(games.iter().all(|g| g.tag("DrawPlies") == Some("100")));
    check_endings(&games);
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("4 of 4 games finished."));
    // The summary's W/D/L figures, as the report's figures table shows them.
    let wdl = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("W/D/L"))
        .unwrap()
        .trim()["W/D/L".len()..]
        .split("   score")
        .next()
        .unwrap()
        .trim();
    assert!(
        html.contains(&format!("<th>W/D/L</th><td>{wdl}</td>")),
        "{wdl}"
    );
    let elo = html.split("data-series=\"elo\"").nth(1).unwrap();
    let points = elo.split("points=\"").nth(1).unwrap();
    assert_eq!(
        points[..points.find('"').unwrap()]
            .split_whitespace()
            .count(),
        4
    );
}

/// The time-forfeit check as a test (several minutes): `cargo test --release --test
/// match_chariot -- --ignored`. perf/time_forfeit.sh runs the same match and prints a summary.
#[test]
#[ignore]
fn no_time_forfeits_in_200_fast_games() {
    let (stdout, games) = run(
        "forfeit",
        &[
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=A",
            "--engine",
            &format!("cmd={CHARIOT}"),
            "name=B",
            "--tc",
            "1+0.01",
            "--games",
            "200",
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(games.len(), 200);
    let forfeits: Vec<&String> = games
        .iter()
        .filter(|g| g.tag("Termination") != Some("normal"))
        .map(|g| g.comments.last().unwrap())
        .collect();
    assert!(forfeits.is_empty(), "{forfeits:?}\n{stdout}");
}

/// Checks a PGN written by `chariot match` elsewhere (for example the longer match in a
/// report): every game replays legally and ends as its tags say. `CHARIOT_PGN=FILE cargo test
/// --release --test match_chariot replay_a_pgn_file -- --ignored`.
#[test]
#[ignore]
fn replay_a_pgn_file() {
    let path = std::env::var("CHARIOT_PGN").expect("CHARIOT_PGN=FILE");
    let games = read_games(&std::fs::read_to_string(&path).unwrap()).unwrap();
    check_endings(&games);
    println!("{} games replayed and checked", games.len());
}
