//! The network from a user's side: the UCI options that choose and load it (with one clear
//! error for a bad file, and the network in use kept), `chariot eval --eval-file`, and
//! `chariot train` end to end on a small data set, with `--resume`.

mod common;

use chariot::board::movegen::legal_moves;
use chariot::nnue::Network;
use chariot::samples::{text_line, Record};
use chariot::{Color, PieceType, Position};
use common::engine_process::Engine;
use std::path::PathBuf;
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-nnue-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn chariot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .expect("the chariot binary runs")
}

/// The score of the last `info depth` line of `go depth 6` from a new game.
fn searched_score(e: &mut Engine) -> String {
    e.send("ucinewgame");
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 6");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 6 "))
        .expect("a depth-6 line")
        .clone();
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").unwrap();
    format!("{} {}", words[at + 1], words[at + 2])
}

#[test]
fn options_load_a_network_and_a_bad_file_keeps_the_one_in_use() {
    let dir = scratch("options");
    let good = dir.join("random.nnue");
    let bytes = Network::random(17).to_bytes();
    std::fs::write(&good, &bytes).unwrap();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let foreign = dir.join("foreign.nnue");
    std::fs::write(&foreign, b"this is not a network file of any kind").unwrap();

    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    let default = chariot::nnue::HAS_EMBEDDED;
    assert!(lines.contains(&format!(
        "option name Use NNUE type check default {default}"
    )));
    assert!(lines.contains(&"option name EvalFile type string default <embedded>".to_string()));
    e.send("setoption name Use NNUE value false");
    let classical = searched_score(&mut e);

    e.send(&format!("setoption name EvalFile value {}", good.display()));
    e.send("setoption name Use NNUE value true");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string EvalFile: loaded network")));
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
    let network = searched_score(&mut e);
    assert_ne!(
        network, classical,
        "the random network searched like the classical evaluation"
    );

    for bad in [dir.join("missing.nnue"), truncated, foreign] {
        e.send(&format!("setoption name EvalFile value {}", bad.display()));
        e.send("isready");
        let lines = e.until("readyok");
        let errors: Vec<_> = lines.iter().filter(|l| l.contains("error")).collect();
        assert_eq!(errors.len(), 1, "{lines:#?}");
        assert!(errors[0].contains(&bad.display().to_string()), "{errors:?}");
        assert_eq!(
            searched_score(&mut e),
            network,
            "a bad file replaced the network"
        );
    }

    e.send("setoption name Use NNUE value false");
    assert_eq!(searched_score(&mut e), classical);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn use_nnue_without_a_network_is_refused() {
    if Network::embedded().is_some() {
        return; // this build carries a network, so there is always one to use
    }
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name Use NNUE value true");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(lines
        .iter()
        .any(|l| l.contains("error") && l.contains("EvalFile")));
}

#[test]
fn eval_shows_the_network_and_each_piece() {
    let dir = scratch("eval");
    let path = dir.join("random.nnue");
    std::fs::write(&path, Network::random(5).to_bytes()).unwrap();
    let out = chariot(&["eval", "--eval-file", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Network evaluation: "), "{text}");
    // Ten board rows of cells, kings without a figure.
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Network "))
        .skip(1)
        .take(10)
        .collect();
    assert!(rows[0].starts_with("9 ") && rows[0].contains(" k") && rows[0].contains(" r"));
    let bad = chariot(&["eval", "--eval-file", "/no/such.nnue"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("/no/such.nnue"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Positions from seeded random games, scored by material for Red (a signal the network can
/// learn), with the game's "result" the sign of that score.
fn write_material_data(path: &std::path::Path, count: usize) {
    let value = |kind| match kind {
        PieceType::Rook => 900,
        PieceType::Cannon | PieceType::Horse => 400,
        PieceType::Advisor | PieceType::Elephant => 200,
        PieceType::Pawn => 100,
        PieceType::King => 0,
    };
    let mut rng = fastrand::Rng::with_seed(3);
    let mut lines = String::new();
    let mut pos = Position::startpos();
    let mut written = 0;
    while written < count {
        let moves = legal_moves(&pos);
        if moves.is_empty() || pos.game_ply() > 150 {
            pos = Position::startpos();
            continue;
        }
        pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        let mut score = 0;
        for color in Color::BOTH {
            for kind in PieceType::ALL {
                let n = pos.pieces(color, kind).count() as i32 * value(kind);
                score += if color == Color::Red { n } else { -n };
            }
        }
        let result = if score > 0 {
            2
        } else if score < 0 {
            0
        } else {
            1
        };
        Record::new(&pos, score, result).unwrap();
        lines.push_str(&text_line(&pos, score, result));
        lines.push('\n');
        written += 1;
    }
    std::fs::write(path, lines).unwrap();
}

fn last_epoch_loss(stdout: &str) -> f64 {
    let line = stdout
        .lines()
        .rfind(|l| l.starts_with("epoch"))
        .expect("an epoch line");
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "validation").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn train_fits_a_network_resumes_and_writes_one_the_engine_loads() {
    let dir = scratch("train");
    let data = dir.join("data.txt");
    write_material_data(&data, 20000);
    let net = dir.join("net.nnue");
    let run = |epochs: &str, resume: bool| {
        let mut args = vec![
            "train",
            "--data",
            data.to_str().unwrap(),
            "--output",
            net.to_str().unwrap(),
            "--epochs",
            epochs,
            "--batch",
            "256",
            "--lr",
            "0.005",
            "--lr-step",
            "20",
            "--k",
            "0.004",
            "--validation-every",
            "3",
        ];
        let checkpoint = net.with_extension("ckpt");
        if resume {
            args.extend(["--resume", checkpoint.to_str().unwrap()]);
        }
        let out = chariot(&args);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let first = run("3", false);
    assert!(first.contains("epoch   3/3"), "{first}");
    assert!(first.contains("quantised against float"), "{first}");
    let early = last_epoch_loss(&first);
    let second = run("12", true);
    assert!(
        second.contains("resumed after epoch 3") || second.contains("after epoch 3"),
        "{second}"
    );
    assert!(
        second.contains("epoch   4/12") && !second.contains("epoch   1/12"),
        "{second}"
    );
    let late = last_epoch_loss(&second);
    assert!(late < early, "no progress: {early} then {late}");
    let loaded = Network::load(net.to_str().unwrap()).unwrap();
    // Material is what it learnt: a rook up scores well above a rook down.
    let up = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let down = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1";
    let (up, down) = (
        Position::from_fen(up).unwrap(),
        Position::from_fen(down).unwrap(),
    );
    let score = |p: &Position| {
        chariot::nnue::Accumulators::new(&loaded, p).evaluate(
            &loaded,
            p.side_to_move(),
            p.occupied().count(),
        )
    };
    assert!(
        score(&up) > score(&down) + 100,
        "{} vs {}",
        score(&up),
        score(&down)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
