//! Opening books as a user and a GUI meet them: `chariot book build` from the small PGN in
//! data/, `chariot book probe`, and `OwnBook`/`BookFile` (UCI) and `usebook`/`bookfiles`
//! (UCCI) over the protocol, including a book that is missing or damaged.

mod common;

use common::engine_process::Engine;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-book-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn chariot(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .output()
        .expect("the chariot binary runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{args:?}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// data/book.pgn built with at least `min_games` games a move, into `dir`.
fn build(dir: &Path, min_games: u32) -> PathBuf {
    let book = dir.join(format!("min{min_games}.book"));
    let pgn = chariot::data::path("book.pgn");
    let text = chariot(&[
        "book",
        "build",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        book.to_str().unwrap(),
        "--min-games",
        &min_games.to_string(),
    ]);
    assert!(text.contains("6 games read, 0 left out"), "{text}");
    book
}

/// The rows `chariot book probe` prints: move, weight, games.
fn probe(book: &Path, moves: &[&str]) -> Vec<(String, u32, u32)> {
    let mut args = vec!["book", "probe", book.to_str().unwrap()];
    if !moves.is_empty() {
        args.push("--moves");
        args.extend(moves);
    }
    chariot(&args)
        .lines()
        .skip(2)
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [mv, weight, _, games] => {
                    Some((mv.to_string(), weight.parse().ok()?, games.parse().ok()?))
                }
                _ => None,
            }
        })
        .collect()
}

#[test]
fn a_book_built_from_pgn_holds_the_games_moves_weighted_by_results() {
    let dir = scratch("build");
    let all = build(&dir, 1);
    // From the start, as counted by hand from data/book.pgn: h2e2 in four games (two wins,
    // one draw, one loss: 2+2+1+0 points, one of them written in WXF), c3c4 one win, g0e2
    // one draw.
    assert_eq!(
        probe(&all, &[]),
        [
            ("h2e2".to_string(), 5, 4),
            ("c3c4".to_string(), 2, 1),
            ("g0e2".to_string(), 1, 1)
        ]
    );
    // Black's h7i7 drew once and lost once; b9c7 lost its only game and is left out.
    assert_eq!(
        probe(&all, &["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]),
        [("h7i7".to_string(), 1, 2)]
    );
    let common = build(&dir, 2);
    assert_eq!(probe(&common, &[]), [("h2e2".to_string(), 5, 4)]);
    assert!(probe(&common, &["c3c4"]).is_empty());
    std::fs::remove_dir_all(dir).unwrap();
}

/// Lines up to `readyok`, so that everything the commands before printed is in.
fn settled(e: &mut Engine) -> Vec<String> {
    e.send("isready");
    let mut lines = e.until("readyok");
    lines.pop();
    lines
}

/// `go depth N` answered by the search, not the book: the lines up to `bestmove`.
fn searched(e: &mut Engine, depth: u32) -> Vec<String> {
    e.send(&format!("go depth {depth}"));
    let lines = e.until("bestmove");
    let reached = format!("info depth {depth}");
    assert!(lines.iter().any(|l| l.starts_with(&reached)), "{lines:#?}");
    lines
}

#[test]
fn uci_own_book_answers_at_once_and_searches_out_of_book() {
    let dir = scratch("uci");
    let book = build(&dir, 2);
    let mut e = Engine::start();
    e.handshake(
        "uci",
        "uciok",
        &[
            "option name OwnBook type check default false",
            "option name BookFile type string default <empty>",
        ],
    );
    // Either order of the two options reads the book once.
    e.send(&format!("setoption name BookFile value {}", book.display()));
    assert!(settled(&mut e).is_empty(), "nothing to read until OwnBook");
    e.send("setoption name OwnBook value true");
    let loaded = settled(&mut e);
    assert_eq!(loaded.len(), 1, "{loaded:#?}");
    assert!(
        loaded[0].starts_with("info string book ") && loaded[0].ends_with("6 moves in 6 positions")
    );

    for (moves, expected) in [("", "h2e2"), (" moves h2e2 h9g7", "h0g2")] {
        e.send(&format!("position startpos{moves}"));
        e.send("go wtime 60000 btime 60000");
        let lines = e.until("bestmove");
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(lines[0].starts_with(&format!("info string book move {expected}: ")));
        assert_eq!(lines[1], format!("bestmove {expected}"));
    }
    // Out of book, and in book when analysing: the search answers.
    e.send("position startpos moves c3c4");
    searched(&mut e, 3);
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 2");
    e.send("stop");
    e.until("bestmove");
    // With the book turned off, the search answers in book positions too.
    e.send("setoption name OwnBook value false");
    searched(&mut e, 2);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_missing_or_damaged_book_is_one_line_and_the_engine_plays_on() {
    let dir = scratch("bad");
    let good = std::fs::read(build(&dir, 2)).unwrap();
    let cut = dir.join("cut.book");
    std::fs::write(&cut, &good[..good.len() - 5]).unwrap();
    let flipped = dir.join("flipped.book");
    let mut bytes = good.clone();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&flipped, bytes).unwrap();
    let pgn = chariot::data::path("book.pgn");
    for (file, reason) in [
        (dir.join("nowhere.book"), "No such file"),
        (cut, "cut short"),
        (flipped, "checksum"),
        (pgn, "not a Chariot book"),
    ] {
        let mut e = Engine::start();
        e.send("uci");
        e.until("uciok");
        e.send("setoption name OwnBook value true");
        e.send(&format!("setoption name BookFile value {}", file.display()));
        let lines = settled(&mut e);
        assert_eq!(lines.len(), 1, "{file:?}: {lines:#?}");
        assert!(
            lines[0].starts_with("info string error: book ")
                && lines[0].contains(reason)
                && lines[0].ends_with("playing without a book"),
            "{file:?}: {lines:#?}"
        );
        e.send("position startpos");
        let lines = searched(&mut e, 3);
        assert!(!lines.iter().any(|l| l.contains("book")), "{lines:#?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn ucci_takes_elephanteyes_book_options() {
    let dir = scratch("ucci");
    let book = build(&dir, 2);
    let mut e = Engine::start();
    e.handshake(
        "ucci",
        "ucciok",
        &[
            "option usebook type check default false",
            "option bookfiles type string default <empty>",
        ],
    );
    e.send("setoption usebook true");
    e.send(&format!("setoption bookfiles {}", book.display()));
    let loaded = settled(&mut e);
    assert_eq!(loaded.len(), 1, "{loaded:#?}");
    e.send("position startpos moves h2e2");
    e.send("go time 60 increment 0");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove h9g7", "{lines:#?}");
    // A banned book move is not played: here the only one, so the search answers.
    e.send("banmoves h9g7");
    let lines = searched(&mut e, 2);
    assert_ne!(lines.last().unwrap(), "bestmove h9g7");
    e.send("setoption usebook false");
    e.send("position startpos moves h2e2");
    searched(&mut e, 2);
    std::fs::remove_dir_all(dir).unwrap();
}
