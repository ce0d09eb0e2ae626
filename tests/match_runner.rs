//! `chariot match` end to end, against the scripted fake engine (tests/support/fake_engine.rs):
//! random games end by a rules reason and the PGN replays; crashing, hanging, illegal-move and
//! slow engines lose with the right reason while the match goes on; claims that the game is
//! over (`nobestmove`, `bestmove (none)`, `bestmove 0000`) are judged by the rules; the
//! `--draw-plies` and `--max-moves` limits end games; SPRT stops; Ctrl-C keeps what was finished.

mod common;

use chariot::notation::pgn::{read_games, PgnGame};
use common::fake_engine::fake_engine;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const CHARIOT: &str = env!("CARGO_BIN_EXE_chariot");

fn pgn_path(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.pgn"));
    let _ = std::fs::remove_file(&path);
    path
}

fn fake(name: &str, extra: &str) -> Vec<String> {
    let mut words = vec![
        "--engine".to_string(),
        format!("cmd={}", fake_engine()),
        format!("name={name}"),
    ];
    words.extend(extra.split_whitespace().map(String::from));
    words
}

fn chariot_match(args: &[String], pgn: &PathBuf) -> (Output, Vec<PgnGame>) {
    let output = Command::new(CHARIOT)
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(pgn)
        .output()
        .expect("chariot runs");
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    let games = read_games(&text).unwrap_or_else(|e| panic!("PGN does not parse: {e}\n{text}"));
    (output, games)
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Replays a game and checks the rules agree with how it ended.
fn check_rules_ending(game: &PgnGame) {
    let pos = game.replay().unwrap_or_else(|e| panic!("{e} in {game:?}"));
    let reason = game.comments.last().expect("a reason comment");
    let outcome = chariot::rules::adjudicate(&pos)
        .unwrap_or_else(|| panic!("game marked over by rules but the rules see no end: {reason}"));
    assert!(
        reason.contains(outcome.reason.describe()),
        "{reason} vs {}",
        outcome.reason.describe()
    );
    let expected = match outcome.winner {
        Some(chariot::Color::Red) => "1-0",
        Some(chariot::Color::Black) => "0-1",
        None => "1/2-1/2",
    };
    assert_eq!(game.result, expected, "{reason}");
}

#[test]
fn random_engines_finish_by_the_rules_and_the_pgn_replays() {
    let pgn = pgn_path("random");
    let mut args = fake("R1", "arg=--seed arg=11");
    args.extend(fake("R2", "proto=uci-variant arg=--seed arg=12"));
    args.extend(["--depth", "1", "--games", "6", "--concurrency", "2"].map(String::from));
    let (output, games) = chariot_match(&args, &pgn);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(games.len(), 6);
    for game in &games {
        assert_eq!(game.tag("Variant"), Some("xiangqi"));
        assert_eq!(
            game.tag("Termination"),
            Some("normal"),
            "{:?}",
            game.comments.last()
        );
        check_rules_ending(game);
    }
    let text = stdout(&output);
    assert!(
        text.contains("Results of R1 vs R2 (6 games, 3 pairs)"),
        "{text}"
    );
}

#[test]
fn ucci_engines_play_too() {
    let pgn = pgn_path("ucci");
    let mut args = fake("U1", "proto=ucci arg=--seed arg=5");
    // U1 offers usemillisec and gets milliseconds; U2 does not and gets seconds.
    args.extend(fake("U2", "proto=ucci arg=--seed arg=6 arg=--ucci-seconds"));
    args.extend(["--tc", "5+0.05", "--games", "2"].map(String::from));
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success());
    assert_eq!(games.len(), 2);
    games.iter().for_each(check_rules_ending);
}

/// The misbehaving engine loses both games (one with each colour) with `termination`
/// and a reason containing `reason`; the second game is played after the first.
fn misbehaving(name: &str, mode: &str, limits: &[&str], termination: &str, reason: &str) {
    misbehaving_with(name, mode, "", limits, termination, reason);
}

/// As [`misbehaving`], with `extra` words for the bad engine; returns the games.
fn misbehaving_with(
    name: &str,
    mode: &str,
    extra: &str,
    limits: &[&str],
    termination: &str,
    reason: &str,
) -> Vec<PgnGame> {
    let pgn = pgn_path(name);
    let mut args = fake("Good", "arg=--seed arg=3");
    args.extend(fake(
        "Bad",
        &format!("arg=--mode arg={mode} arg=--after arg=2 {extra}"),
    ));
    args.extend(limits.iter().map(|s| s.to_string()));
    args.extend(["--games", "2"].map(String::from));
    let (output, games) = chariot_match(&args, &pgn);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(games.len(), 2, "{}", stdout(&output));
    for game in &games {
        let bad_is_red = game.tag("Red") == Some("Bad");
        assert_eq!(game.result, if bad_is_red { "0-1" } else { "1-0" });
        assert_eq!(game.tag("Termination"), Some(termination));
        let said = game.comments.last().unwrap();
        assert!(said.contains(reason) && said.contains("(Bad)"), "{said}");
        game.replay().unwrap();
    }
    assert!(
        stdout(&output).contains("W/D/L       2 / 0 / 0"),
        "{}",
        stdout(&output)
    );
    games
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    misbehaving("crash", "crash", &["--depth", "1"], "abandoned", "crashed");
}

#[test]
fn an_illegal_move_loses() {
    misbehaving(
        "illegal",
        "illegal",
        &["--depth", "1"],
        "rules infraction",
        "illegal move",
    );
}

/// A claim in a position the rules do not end loses, whichever of the three forms it takes;
/// the replayed position confirms the game was not over.
#[test]
fn false_claims_lose() {
    for (claim, line) in [
        ("nobestmove", "'nobestmove'"),
        ("none", "'bestmove (none)'"),
        ("0000", "'bestmove 0000'"),
    ] {
        let games = misbehaving_with(
            &format!("false-claim-{claim}"),
            "claim",
            &format!("arg=--claim arg={claim}"),
            &["--depth", "1"],
            "rules infraction",
            "false claim",
        );
        for game in &games {
            assert!(game.comments.last().unwrap().contains(line));
            let pos = game.replay().unwrap();
            assert!(chariot::rules::adjudicate(&pos).is_none());
            assert!(chariot::rules::repetition_verdict(&pos).is_none());
        }
    }
}

/// Kings, advisors and two pawns that cannot meet: nothing can be captured for a while, and
/// king and advisor moves can be undone.
const QUIET_FEN: &str = "4ka3/9/9/8p/9/9/P8/9/9/3K1A3 w - - 0 1";

fn suite(name: &str, lines: &str) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.fen"));
    std::fs::write(&path, lines).unwrap();
    path.to_str().unwrap().to_string()
}

/// Engines that shuffle and claim at the first repetition: each claim is valid (the rules
/// judge the repetition a draw), in each of the three forms.
#[test]
fn a_claimed_repetition_is_a_draw() {
    let pgn = pgn_path("claim-repetition");
    let mut args = fake("None", "arg=--mode arg=shuffle arg=--claim arg=none");
    args.extend(fake(
        "Zeros",
        "proto=uci-variant arg=--mode arg=shuffle arg=--claim arg=0000",
    ));
    args.extend(fake("Ucci", "proto=ucci arg=--mode arg=shuffle"));
    let openings = suite("quiet", QUIET_FEN);
    args.extend(["--depth", "1", "--games", "2", "--openings", &openings].map(String::from));
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(games.len(), 6);
    let mut forms = Vec::new();
    for game in &games {
        let reason = game.comments.last().unwrap();
        assert_eq!(game.result, "1/2-1/2", "{reason}");
        assert_eq!(game.tag("Termination"), Some("normal"));
        assert!(reason.contains("claims the end") && reason.contains("draw by repetition"));
        forms.push(reason.split('\'').nth(1).unwrap().to_string());
        // The position repeats once: the rules' verdict on that cycle is a draw, though a
        // game without a claim would go on to the third occurrence.
        let pos = game.replay().unwrap();
        assert_eq!(
            chariot::rules::repetition_verdict(&pos),
            Some(chariot::rules::Verdict::Draw)
        );
        assert!(chariot::rules::adjudicate(&pos).is_none());
    }
    forms.sort();
    forms.dedup();
    assert_eq!(forms, ["bestmove (none)", "bestmove 0000", "nobestmove"]);
    assert!(
        stdout(&output).contains("repetition claim 2"),
        "{}",
        stdout(&output)
    );
}

/// 90 plies without capture in the FEN: under `--draw-plies 100` the game is drawn after ten
/// more; under the default 120 an engine that claims at 100 makes a false claim.
#[test]
fn draw_plies_sets_the_move_count_draw() {
    let fen = QUIET_FEN.replace(" 0 1", " 90 1");
    let openings = suite("quiet90", &fen);
    let pgn = pgn_path("draw-plies");
    let mut args = fake("A", "arg=--seed arg=1 arg=--claim-plies arg=100");
    args.extend(fake("B", "arg=--seed arg=2"));
    let common = ["--depth", "1", "--games", "2", "--openings", &openings].map(String::from);
    args.extend(common.clone());
    let mut with_limit = args.clone();
    with_limit.extend(["--draw-plies", "100"].map(String::from));
    let (output, games) = chariot_match(&with_limit, &pgn);
    assert!(output.status.success(), "{}", stdout(&output));
    for game in &games {
        assert_eq!(game.result, "1/2-1/2");
        assert_eq!(game.tag("DrawPlies"), Some("100"));
        assert_eq!(game.moves.len(), 10);
        let reason = game.comments.last().unwrap();
        assert_eq!(
            reason,
            "draw by the 50-move rule (100 plies without capture)"
        );
        assert_eq!(game.replay().unwrap().rule60_count(), 100);
    }

    let pgn = pgn_path("draw-plies-default");
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success(), "{}", stdout(&output));
    for game in &games {
        assert_eq!(game.tag("DrawPlies"), Some("120"));
        let a_is_red = game.tag("Red") == Some("A");
        assert_eq!(game.result, if a_is_red { "0-1" } else { "1-0" });
        let reason = game.comments.last().unwrap();
        assert!(reason.contains("(A) makes a false claim"), "{reason}");
        // A claims on its first turn at 100 or more plies: the 100th or the 101st.
        let plies = game.replay().unwrap().rule60_count();
        assert!(plies == 100 || plies == 101, "{plies}");
    }
}

#[test]
fn max_moves_draws_long_games() {
    let pgn = pgn_path("max-moves");
    let mut args = fake("A", "arg=--seed arg=7");
    args.extend(fake("B", "arg=--seed arg=8"));
    let openings = suite("quiet-start", QUIET_FEN);
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "2",
            "--max-moves",
            "6",
            "--openings",
            &openings,
        ]
        .map(String::from),
    );
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success(), "{}", stdout(&output));
    for game in &games {
        assert_eq!(game.result, "1/2-1/2");
        assert_eq!(game.tag("Termination"), Some("adjudication"));
        assert_eq!(game.tag("MaxMoves"), Some("6"));
        assert_eq!(game.moves.len(), 12);
        let pos = game.replay().unwrap();
        assert!(chariot::rules::adjudicate(&pos).is_none());
    }
    assert!(
        stdout(&output).contains("max moves 2"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn overrunning_the_move_time_loses_on_time() {
    let games = misbehaving_with(
        "slow",
        "slow",
        "",
        &["--st", "0.1"],
        "time forfeit",
        "loses on time",
    );
    // The slow engine takes its time plus 500 ms (the default margin is 200 ms) and does
    // not answer `stop`, or answers it late and the overrun is measured.
    for game in &games {
        let said = game.comments.last().unwrap();
        if said.contains("nor after stop") {
            assert!(said.contains("no move in 100 ms + 200 ms margin"), "{said}");
            continue;
        }
        assert!(said.contains("ms used of 100 ms + 200 ms margin"), "{said}");
        let over: u64 = said
            .rsplit(", ")
            .next()
            .and_then(|t| t.strip_suffix(" ms over"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no overrun in: {said}"));
        assert!(over > 0, "{said}");
    }
}

/// Engines that spend all the time they are given (ElephantEye with `go time T movestogo
/// 1`) keep a fixed move time without `--timemargin`, over UCI and over UCCI.
#[test]
fn engines_spending_their_whole_move_time_do_not_forfeit() {
    for (name, proto) in [("spend-uci", "proto=uci"), ("spend-ucci", "proto=ucci")] {
        let pgn = pgn_path(name);
        let mut args = fake(
            "A",
            &format!("{proto} arg=--mode arg=spend arg=--seed arg=1"),
        );
        args.extend(fake(
            "B",
            &format!("{proto} arg=--mode arg=spend arg=--seed arg=2"),
        ));
        args.extend(["--st", "0.3", "--max-moves", "6", "--games", "2"].map(String::from));
        let (output, games) = chariot_match(&args, &pgn);
        let text = stdout(&output);
        assert!(output.status.success(), "{text}");
        assert!(text.contains("Time margin on fixed move times"), "{text}");
        assert_eq!(games.len(), 2);
        for game in &games {
            assert_ne!(
                game.tag("Termination"),
                Some("time forfeit"),
                "{name}: {:?}",
                game.comments.last()
            );
        }
    }
}

#[test]
fn a_hung_engine_loses_on_time_and_is_restarted() {
    misbehaving(
        "hang-clock",
        "hang",
        &["--tc", "0.3+0"],
        "time forfeit",
        "loses on time",
    );
}

#[test]
fn a_hung_engine_without_a_clock_is_stalled() {
    misbehaving(
        "hang-depth",
        "hang",
        &["--depth", "1", "--hang-timeout", "0.3"],
        "stalled connection",
        "did not move",
    );
}

#[test]
fn sprt_stops_when_the_evidence_is_clear() {
    let pgn = pgn_path("sprt");
    let mut args = fake("Good", "");
    args.extend(fake("Bad", "arg=--mode arg=illegal arg=--after arg=0"));
    args.extend(
        [
            "--depth", "1", "--games", "200", "--sprt", "elo0=0", "elo1=100",
        ]
        .map(String::from),
    );
    let (output, games) = chariot_match(&args, &pgn);
    let text = stdout(&output);
    assert!(output.status.success());
    assert!(text.contains("H1 accepted"), "{text}");
    assert!(games.len() < 200 && games.len() >= 2, "{}", games.len());
}

#[test]
fn bad_arguments_are_reported_not_panicked() {
    for (args, message) in [
        (
            vec![
                "--engine",
                "cmd=/no/such/engine",
                "--engine",
                "cmd=/no/such/engine",
                "--depth",
                "1",
            ],
            "cannot start",
        ),
        (
            vec![
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--depth",
                "1",
            ],
            "at least two",
        ),
        (
            vec![
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--engine",
                &format!("cmd={}", fake_engine()),
            ],
            "no time control",
        ),
        (
            vec![
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--tc",
                "x",
            ],
            "not a number",
        ),
        (
            vec![
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--depth",
                "1",
                "--draw-plies",
                "0",
            ],
            "--draw-plies must be positive",
        ),
        (
            vec![
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--depth",
                "1",
                "--openings",
                "order=sideways",
            ],
            "unknown order",
        ),
        (
            vec![
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--engine",
                &format!("cmd={}", fake_engine()),
                "--depth",
                "1",
                "--openings",
                "/no/such/book.pgn",
            ],
            "cannot read openings file",
        ),
    ] {
        let output = Command::new(CHARIOT)
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        assert!(!output.status.success());
        assert_eq!(String::from_utf8_lossy(&output.stderr).lines().count(), 1);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Bad paths and values are refused with one line before any game is played: the engines
/// here would play (and write the PGN) if the match started.
#[test]
fn bad_paths_and_values_fail_before_the_first_game() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let pgn = pgn_path("early");
    let missing = dir.join("no-such-folder");
    let report = missing.join("r.html").display().to_string();
    let bad_pgn = missing.join("g.pgn").display().to_string();
    let cmd = format!("cmd={}", fake_engine());
    for (extra, message) in [
        (vec!["--report", &report], "cannot write the report"),
        (vec!["--concurrency", "0"], "--concurrency must be positive"),
        (vec!["--depth", "0"], "--depth must be positive"),
        (vec!["--nodes", "0"], "--nodes must be positive"),
        (vec!["--games", "0"], "--games must be positive"),
        (vec!["--st", "0"], "--st must be positive"),
        (vec!["--engine", &cmd, "depth=0"], "depth must be positive"),
        (
            vec!["--openings", "/no/such/book.epd"],
            "cannot read openings",
        ),
    ] {
        let mut args = fake("E1", "");
        args.extend(fake("E2", ""));
        args.extend(["--tc", "1+0.1"].map(String::from));
        if extra[0] == "--depth" || extra[0] == "--nodes" || extra[0] == "--st" {
            args.truncate(args.len() - 2);
        }
        args.extend(extra.iter().map(|s| s.to_string()));
        let (output, games) = chariot_match(&args, &pgn);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{extra:?}");
        assert!(err.contains(message), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(games.is_empty() && stdout(&output).is_empty(), "{extra:?}");
    }
    let mut args = fake("E1", "");
    args.extend(fake("E2", ""));
    args.extend(["--depth", "1", "--pgn", &bad_pgn].map(String::from));
    let output = Command::new(CHARIOT)
        .arg("match")
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("cannot open PGN file"), "{err}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_finished_games_and_prints_the_summary() {
    let pgn = pgn_path("interrupt");
    let mut args = fake("A", "");
    args.extend(fake("B", ""));
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "100000",
            "--concurrency",
            "2",
            "--pgn",
        ]
        .map(String::from),
    );
    let child = Command::new(CHARIOT)
        .arg("match")
        .args(&args)
        .arg(&pgn)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let status = Command::new("kill")
        .arg("-INT")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let text = stdout(&output);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(text.contains("Match interrupted after"), "{text}");
    let games = read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert!(!games.is_empty());
    assert!(
        text.contains(&format!("Results of A vs B ({} games", games.len())),
        "{} games\n{text}",
        games.len()
    );
    games.iter().for_each(|g| {
        g.replay().unwrap();
    });
}

#[test]
fn three_engines_play_a_round_robin() {
    let pgn = pgn_path("round-robin");
    let mut args = fake("X", "arg=--seed arg=1");
    args.extend(fake("Y", "arg=--seed arg=2"));
    args.extend(fake("Z", "proto=ucci arg=--seed arg=3"));
    args.extend(["--nodes", "10", "--games", "2", "--concurrency", "2"].map(String::from));
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success());
    assert_eq!(games.len(), 6);
    let text = stdout(&output);
    for pairing in [
        "X vs Y (2 games",
        "X vs Z (2 games",
        "Y vs Z (2 games",
        "Standings:",
    ] {
        assert!(text.contains(pairing), "missing {pairing} in\n{text}");
    }
    games.iter().for_each(check_rules_ending);
}

#[test]
fn openings_with_moves_are_played_as_book_moves() {
    let pgn = pgn_path("book");
    let suite = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("book.fen");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    std::fs::write(&suite, format!("# one opening\n{fen} moves h2e2 h9g7\n")).unwrap();
    let mut args = fake("A", "");
    args.extend(fake("B", ""));
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "2",
            "--openings",
            suite.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let (output, games) = chariot_match(&args, &pgn);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.tag("FEN"), Some(fen));
        assert_eq!(&game.moves[..2], ["H2-E2", "H9-G7"]);
        assert_eq!(&game.comments[..2], ["book", "book"]);
    }
    assert_eq!(
        (games[0].tag("White"), games[1].tag("White")),
        (Some("A"), Some("B"))
    );
}

/// A PGN book (one game with a FEN tag and ICCS moves, one in WXF) shuffled with a seed and
/// cut to two plies: every game starts with two book moves of one of the book's lines.
#[test]
fn pgn_books_are_shuffled_and_cut() {
    let book = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("book.pgn");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    std::fs::write(
        &book,
        format!(
            "[FEN \"{fen}\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 *\n\n\
             [Format \"WXF\"]\n\n1. P7+1 C8=5 2. H2+3 *\n"
        ),
    )
    .unwrap();
    let pgn = pgn_path("pgn-book");
    let mut args = fake("A", "");
    args.extend(fake("B", ""));
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "4",
            "--openings",
            book.to_str().unwrap(),
            "order=random",
            "seed=5",
            "plies=2",
        ]
        .map(String::from),
    );
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("Openings in random order, seed=5 (2 openings)"));
    assert_eq!(games.len(), 4);
    let mut lines = Vec::new();
    for game in &games {
        assert_eq!(&game.comments[..2], ["book", "book"]);
        assert_ne!(game.comments[2], "book");
        let line = game.moves[..2].join(" ");
        assert!(
            ["H2-E2 H9-G7", "C3-C4 H7-E7"].contains(&line.as_str()),
            "{line}"
        );
        lines.push(line);
    }
    // Pairs play one opening twice; the two openings both come up.
    assert_eq!(lines[0], lines[1]);
    assert_eq!(lines[2], lines[3]);
    assert_ne!(lines[0], lines[2]);
}

/// Every game the runner writes reads back with the xiangqi tags, one comment per move and the
/// reason last, and replays legally to a position that agrees with how it ended: rules
/// endings, valid and false claims, and the move limit.
#[test]
fn every_written_game_reads_back_and_replays() {
    let pgn = pgn_path("round-trip");
    let mut args = fake("Random", "arg=--seed arg=21");
    args.extend(fake("Claimer", "arg=--mode arg=claim arg=--after arg=3"));
    args.extend(fake("Shuffler", "proto=ucci arg=--mode arg=shuffle"));
    let openings = suite(
        "round-trip",
        &format!("{QUIET_FEN}\n{}\n", chariot::Position::START_FEN),
    );
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "4",
            "--max-moves",
            "40",
            "--openings",
            &openings,
        ]
        .map(String::from),
    );
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(games.len(), 12);
    let mut kinds = std::collections::BTreeSet::new();
    for game in &games {
        for tag in ["Red", "White", "Black", "FEN", "Termination", "DrawPlies"] {
            assert!(game.tag(tag).is_some(), "no {tag} in {game:?}");
        }
        assert_eq!(game.tag("Red"), game.tag("White"));
        assert_eq!(game.tag("Format"), Some("ICCS"));
        assert_eq!(game.tag("Result"), Some(game.result.as_str()));
        assert_eq!(game.comments.len(), game.moves.len() + 1);
        let pos = game.replay().unwrap_or_else(|e| panic!("{e} in {game:?}"));
        let reason = game.comments.last().unwrap();
        let rules = chariot::rules::adjudicate(&pos);
        let repeated = chariot::rules::repetition_verdict(&pos);
        let kind = if reason.contains("false claim") {
            assert!(rules.is_none() && repeated.is_none(), "{reason}");
            "false claim"
        } else if reason.contains("claims the end") {
            assert!(repeated.is_some(), "{reason}");
            "claim"
        } else if reason.contains("--max-moves") {
            assert_eq!(game.moves.len(), 80);
            "max moves"
        } else {
            let outcome = rules.unwrap_or_else(|| panic!("not over: {reason}"));
            assert!(reason.contains(outcome.reason.describe()), "{reason}");
            "rules"
        };
        kinds.insert(kind);
    }
    assert!(
        kinds.contains("false claim") && kinds.contains("claim"),
        "{kinds:?}"
    );
}

/// The numbers of a `data-NAME="..."` attribute or the point count of each
/// `<polyline data-series="NAME"`.
fn series_lengths(report: &str, name: &str) -> Vec<usize> {
    let needle = format!("data-series=\"{name}\"");
    report
        .match_indices(&needle)
        .map(|(at, _)| {
            let rest = &report[at..];
            let points = rest.split("points=\"").nth(1).unwrap();
            points[..points.find('"').unwrap()]
                .split_whitespace()
                .count()
        })
        .collect()
}

fn attribute_values(report: &str, name: &str) -> Vec<String> {
    let needle = format!("{name}=\"");
    report
        .match_indices(&needle)
        .map(|(at, _)| {
            let rest = &report[at + needle.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// A short match with a report (HTML, then SVG): one point per game in each series, the
/// LLR path when SPRT runs, endings and colour tables that add up to the games, and the
/// same W/D/L as the summary. Nothing is fetched from elsewhere.
#[test]
fn the_report_follows_the_match() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for file in ["report.html", "report.svg"] {
        let path = dir.join(file);
        let _ = std::fs::remove_file(&path);
        let pgn = pgn_path(&format!("report-{file}"));
        let mut args = fake("A", "arg=--seed arg=31");
        args.extend(fake(
            "B",
            "arg=--seed arg=32 arg=--mode arg=claim arg=--after arg=20",
        ));
        args.extend(
            [
                "--depth",
                "1",
                "--games",
                "6",
                "--sprt",
                "elo0=0",
                "elo1=400",
                "--report",
                path.to_str().unwrap(),
            ]
            .map(String::from),
        );
        let (output, games) = chariot_match(&args, &pgn);
        let text = stdout(&output);
        assert!(output.status.success(), "{text}");
        let n = games.len();
        assert!(n >= 2, "{text}");
        let report = std::fs::read_to_string(&path).unwrap();
        // Self-contained: no script, no link out (only to the PGN inside); the only address
        // is the SVG namespace.
        for banned in ["<script", "src=", "https://", "<link", "url("] {
            assert!(!report.contains(banned), "{banned} in {file}");
        }
        assert_eq!(
            report.matches("href=").count(),
            report.matches("href=\"#pgn-").count()
        );
        assert_eq!(
            report.matches("http://").count(),
            report
                .matches("xmlns=\"http://www.w3.org/2000/svg\"")
                .count()
        );
        for series in ["score", "elo", "llr", "time-0", "time-1"] {
            assert_eq!(series_lengths(&report, series), [n], "{series} in {file}");
        }
        let endings: u32 = attribute_values(&report, "data-count")
            .iter()
            .map(|c| c.parse::<u32>().unwrap())
            .sum();
        assert_eq!(endings as usize, n);
        // The W/D/L and Elo of the summary appear in the report as printed.
        let line = |start: &str| {
            let l = text
                .lines()
                .find(|l| l.trim_start().starts_with(start))
                .unwrap();
            l.trim()[start.len()..].trim().to_string()
        };
        let wdl = line("W/D/L");
        let wdl = wdl.split("   score").next().unwrap();
        assert!(report.contains(wdl), "{wdl} not in {file}");
        let elo = line("Elo").replace('±', "&#177;");
        assert!(
            report.contains(line("Elo").as_str()) || report.contains(&elo),
            "{elo} in {file}"
        );
        let finished = format!("{n} of 6 games finished.");
        assert!(report.contains(&finished), "{finished}");
        if file.ends_with("html") {
            assert!(report.starts_with("<!DOCTYPE html>"));
            // A as Red and as Black: the rows add up to the games.
            let colours = &report[report.find("A playing</th>").unwrap()..];
            let cells: Vec<u32> = colours
                .split("<tr><td>")
                .skip(1)
                .take(2)
                .flat_map(|row| {
                    row.split("</td><td>")
                        .skip(1)
                        .take(3)
                        .map(|c| c.parse::<u32>().unwrap())
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(cells.iter().sum::<u32>() as usize, n, "{cells:?}");
        } else {
            assert!(report.starts_with("<svg"));
        }
    }
}

fn run_match(args: &[String]) -> Output {
    Command::new(CHARIOT)
        .arg("match")
        .args(args)
        .output()
        .expect("chariot runs")
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// A script written for cutechess-cli and the same match in Chariot's words give the same
/// match (`--dry-run` prints all of it), for a round robin and a gauntlet.
#[test]
fn cutechess_arguments_give_the_same_match_as_ours() {
    let e = fake_engine();
    let pgn = pgn_path("cutechess-form").display().to_string();
    let cases = [
        (
            format!(
                "--engine cmd={e} name=A option.Hash=16 --engine cmd={e} name=B proto=ucci \
                 --engine cmd={e} name=C arg=--seed arg=3 --tc 10+0.1 --games 6 \
                 --concurrency 2 --timemargin 50 --openings file=data/openings.fen \
                 order=random seed=7 plies=4 --pgn {pgn} --max-moves 90 \
                 --resign movecount=3 score=600 --draw movenumber=40 movecount=8 score=10 \
                 --event Test"
            ),
            format!(
                "-engine cmd={e} name=A option.Hash=16 -engine cmd={e} name=B proto=ucci \
                 -engine cmd={e} name=C arg=--seed arg=3 -each tc=10+0.1 timemargin=50 \
                 -rounds 3 -games 2 -repeat -concurrency 2 -openings file=data/openings.fen \
                 format=epd order=random plies=4 policy=round -srand 7 -pgnout {pgn} min \
                 -maxmoves 90 -resign movecount=3 score=600 twosided=true \
                 -draw movenumber=40 movecount=8 score=10 -event Test -recover -variant xiangqi \
                 -tournament round-robin"
            ),
        ),
        (
            format!(
                "--engine cmd={e} name=A --engine cmd={e} name=B --engine cmd={e} name=C \
                 --depth 3 --games 4 --tournament gauntlet"
            ),
            format!(
                "-engine cmd={e} name=A -engine cmd={e} name=B -engine cmd={e} name=C \
                 -each depth=3 -games 4 -tournament gauntlet"
            ),
        ),
    ];
    for (ours, theirs) in cases {
        let run = |text: &str| {
            let mut args = words(text);
            args.push("--dry-run".into());
            let output = run_match(&args);
            assert!(
                output.status.success(),
                "{text}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            stdout(&output)
        };
        let (a, b) = (run(&ours), run(&theirs));
        assert_eq!(a, b);
        assert!(a.contains("Every engine started"), "{a}");
    }
    // The per-engine words really arrived: names, options, protocol, limits, schedule.
    let ours = format!(
        "--engine cmd={e} name=A option.Hash=16 --engine cmd={e} name=B proto=ucci \
         --engine cmd={e} name=C --tc 10+0.1 --games 6 --dry-run"
    );
    let text = stdout(&run_match(&words(&ours)));
    for needle in [
        "1. A: cmd=",
        "options=[Hash=16] limits=10+0.1",
        "proto=ucci",
        "pairings A-B A-C B-C; games 6 per pairing, 18 in all",
    ] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
}

/// A pairing that plays more games than its openings give (each twice) is told that the suite
/// starts over, and at fixed nodes that the repeats replay earlier games.
#[test]
fn more_games_than_the_openings_give_are_noted() {
    let e = fake_engine();
    let suite = suite("three-openings", &[QUIET_FEN; 3].join("\n"));
    let run = |limits: &str, games: u32| {
        let text = format!(
            "--engine cmd={e} name=A --engine cmd={e} name=B {limits} --games {games} \
             --openings {suite} --dry-run"
        );
        let output = run_match(&words(&text));
        assert!(output.status.success(), "{text}");
        stdout(&output)
    };
    let replay = "replay earlier games move for move";
    let text = run("--nodes 1000", 7);
    assert!(
        text.contains("Note: a pairing plays 7 games and 3 openings give 6 games"),
        "{text}"
    );
    assert!(text.contains(replay), "{text}");
    let text = run("--tc 10+0.1", 7);
    assert!(
        text.contains("the suite starts over after them\n"),
        "{text}"
    );
    assert!(!text.contains(replay), "{text}");
    let text = run("--nodes 1000", 6);
    assert!(!text.contains("starts over"), "{text}");
}

/// In a gauntlet the first engine meets each other one and they do not meet each other; the
/// standings rank all three and the crosstable shows who met whom.
#[test]
fn a_gauntlet_plays_the_first_engine_against_the_rest() {
    let pgn = pgn_path("gauntlet");
    let mut args = fake("Lead", "arg=--seed arg=1");
    args.extend(fake("Good", "arg=--seed arg=2"));
    args.extend(fake("Bad", "arg=--mode arg=illegal arg=--after arg=0"));
    args.extend(words("--depth 1 --games 4 --tournament gauntlet"));
    let (output, games) = chariot_match(&args, &pgn);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert_eq!(games.len(), 8);
    for game in &games {
        let players = [game.tag("Red").unwrap(), game.tag("Black").unwrap()];
        assert!(players.contains(&"Lead"), "{players:?}");
    }
    for needle in [
        "Results of Lead vs Good (4 games",
        "Results of Lead vs Bad (4 games",
        "Standings:",
        "Crosstable",
    ] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
    assert!(!text.contains("Good vs Bad"), "{text}");
    // Bad loses all four games to Lead by illegal moves: last, 0 points of 4.
    let standings = &text[text.find("Standings:").unwrap()..];
    let last = standings
        .lines()
        .find(|l| l.trim_start().starts_with("3."))
        .unwrap();
    assert!(
        last.contains("Bad") && last.contains("    4     0.0"),
        "{standings}"
    );
    let bad_row = standings
        .lines()
        .skip_while(|l| !l.starts_with("Crosstable"))
        .find(|l| l.trim_start().starts_with("Bad"))
        .unwrap();
    // Against Lead 0 of 4, against Good never played.
    assert!(
        bad_row.contains("0/4") && bad_row.contains(" -"),
        "{standings}"
    );
}

/// A match cut after three of its six games and resumed from its PGN ends with the totals
/// of the same match played through: the same games by round, the same W/D/L and pairs.
#[test]
fn a_resumed_match_ends_with_the_totals_of_an_uncut_one() {
    let mut args = fake("P", "arg=--seed arg=1 arg=--stateless");
    args.extend(fake("Q", "proto=ucci arg=--seed arg=2 arg=--stateless"));
    args.extend(words("--depth 1 --games 6 --max-moves 40"));
    let whole = pgn_path("resume-whole");
    let (output, games) = chariot_match(&args, &whole);
    assert!(output.status.success());
    assert_eq!(games.len(), 6);
    let summary = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("W/D/L") || l.contains("Pentanomial") || l.contains("Elo  "))
            .map(String::from)
            .collect()
    };
    let uncut = summary(&stdout(&output));
    assert_eq!(uncut.len(), 3, "{}", stdout(&output));
    // Cut: keep the first three games, as if the match had been stopped there.
    let text = std::fs::read_to_string(&whole).unwrap();
    let starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    let cut = pgn_path("resume-cut");
    std::fs::write(&cut, &text[..starts[3]]).unwrap();
    let mut resume = args.clone();
    resume.extend(["--resume".to_string(), cut.display().to_string()]);
    let output = run_match(&resume);
    let out = stdout(&output);
    assert!(output.status.success(), "{out}");
    assert!(out.contains("Resumed 3 games from"), "{out}");
    assert!(out.contains("[4/6]") && !out.contains("[3/6]"), "{out}");
    assert_eq!(summary(&out), uncut, "{out}");
    let resumed = read_games(&std::fs::read_to_string(&cut).unwrap()).unwrap();
    let key = |g: &PgnGame| {
        (
            g.tag("Round").map(String::from),
            g.moves.clone(),
            g.result.clone(),
        )
    };
    assert_eq!(
        resumed.iter().map(key).collect::<Vec<_>>(),
        games.iter().map(key).collect::<Vec<_>>()
    );
    // Another schedule (engines swapped) is refused before any game.
    let mut swapped = fake("Q", "proto=ucci arg=--seed arg=2 arg=--stateless");
    swapped.extend(fake("P", "arg=--seed arg=1 arg=--stateless"));
    swapped.extend(words("--depth 1 --games 6"));
    swapped.extend(["--resume".to_string(), whole.display().to_string()]);
    let output = run_match(&swapped);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && err.contains("the schedule has"),
        "{err}"
    );
}

/// The HTML report of a three-engine round robin: settings, engines with their commands,
/// standings and crosstable, a row per game linking to its PGN inside the page (which
/// replays), a score chart centred on 50%, and no console copy.
#[test]
fn the_round_robin_report_lists_games_standings_and_settings() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("round-robin.html");
    let _ = std::fs::remove_file(&path);
    let pgn = pgn_path("round-robin-report");
    let mut args = fake("X", "arg=--seed arg=1 option.Hash=8");
    args.extend(fake("Y", "arg=--seed arg=2"));
    args.extend(fake("Z", "proto=ucci arg=--seed arg=3"));
    args.extend(words("--nodes 10 --games 2 --report"));
    args.push(path.display().to_string());
    let (output, games) = chariot_match(&args, &pgn);
    assert!(output.status.success(), "{}", stdout(&output));
    assert_eq!(games.len(), 6);
    let report = std::fs::read_to_string(&path).unwrap();
    for needle in [
        "<th>time control</th><td>nodes=10</td>",
        &format!(
            "<th>runner</th><td>chariot match {}</td>",
            env!("CARGO_PKG_VERSION")
        ),
        "<th>date</th><td>20",
        &format!("<td><code>{} --seed 1</code></td>", fake_engine()),
        "<td>Hash=8</td>",
        "<td>ucci</td>",
        // The margin the games used, not the rule that chose it.
        "<th>time margin</th><td>0 ms</td>",
        "<h2>Standings</h2>",
        "<table class=\"crosstable\">",
        "<h2>Games</h2>",
    ] {
        assert!(report.contains(needle), "missing {needle}");
    }
    assert!(!report.contains("Results of"), "a console copy");
    assert_eq!(report.matches("<tr class=\"game\">").count(), 6);
    for round in 1..=6 {
        assert!(report.contains(&format!("href=\"#pgn-{round}\"")));
        assert!(report.contains(&format!("<details id=\"pgn-{round}\">")));
    }
    // Every standings row has 4 games; the crosstable has a cell per pair of engines.
    let standings = &report[report.find("class=\"standings\"").unwrap()..];
    let standings = &standings[..standings.find("</table>").unwrap()];
    assert_eq!(standings.matches("<tr><td>").count(), 3);
    let cross = &report[report.find("class=\"crosstable\"").unwrap()..];
    let cross = &cross[..cross.find("</table>").unwrap()];
    assert_eq!(cross.matches("/2</td>").count(), 6, "{cross}");
    // The PGN kept in the page reads back and replays.
    let unescape = |t: &str| {
        t.replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    };
    let kept: String = report
        .split("<pre>")
        .skip(1)
        .map(|chunk| unescape(&chunk[..chunk.find("</pre>").unwrap()]))
        .collect();
    let replayed = read_games(&kept).unwrap();
    assert_eq!(replayed.len(), 6);
    replayed.iter().for_each(check_rules_ending);
    // The score chart's 50% line sits in the middle of the plot (top 30, bottom 210).
    let score = report
        .split("<svg")
        .find(|c| c.contains("data-series=\"score\""))
        .unwrap();
    assert!(
        score.contains("y1=\"120.0\" y2=\"120.0\" stroke=\"#888\""),
        "{score}"
    );
    // Times carry their unit.
    assert!(report.contains(" ms</text>"));
}

/// Every `chariot match` command in README.md and DEVELOPING.md runs as written, with three
/// changes to keep the test short: at most 2 games a pairing (`--games`, `-rounds 1`),
/// `--max-moves 10`, and
/// peer engines replaced by the fake engine. `./chariot` (or `chariot` on the path) is this build; ElephantEye
/// (`eleeye`) becomes the fake engine in `spend` mode, which uses all the time it is given
/// as ElephantEye does, so its `--st` example shows it keeps its time; `./new`, `./old`,
/// `./classical` and `pikafish` play random moves.
#[test]
fn every_readme_match_example_runs() {
    let readme = ["README.md", "DEVELOPING.md"]
        .map(|name| std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)))
        .map(Result::unwrap)
        .join("\n");
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut current = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        let line = line.trim();
        if !in_sh || (current.is_empty() && !line.starts_with("chariot match")) {
            continue;
        }
        current += line.trim_end_matches('\\');
        current.push(' ');
        if !line.ends_with('\\') {
            commands.push(std::mem::take(&mut current));
        }
    }
    assert!(commands.len() >= 5, "{commands:?}");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme-examples");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    for suite in ["openings.fen", "screen.fen"] {
        std::fs::copy(chariot::data::path(suite), dir.join("data").join(suite)).unwrap();
    }
    std::fs::write(
        dir.join("book.pgn"),
        "[Event \"book\"]\n\n1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 C8+4 4. P7+1 *\n\n\
         [Event \"book\"]\n\n1. P7+1 P7+1 2. H8+7 H8+7 *\n",
    )
    .unwrap();
    let fake = fake_engine();
    for command in &commands {
        assert!(
            !command.contains('"') && !command.contains('\''),
            "{command}"
        );
        let mut args: Vec<String> = Vec::new();
        let mut tokens = command.split_whitespace().skip(2).peekable();
        while let Some(token) = tokens.next() {
            match token {
                "cmd=./chariot" | "cmd=chariot" => args.push(format!("cmd={CHARIOT}")),
                "cmd=./new" | "cmd=./old" | "cmd=./classical" | "cmd=pikafish" => {
                    args.push(format!("cmd={fake}"))
                }
                "cmd=eleeye" => args.extend([
                    format!("cmd={fake}"),
                    "arg=--mode".into(),
                    "arg=spend".into(),
                ]),
                "--games" | "-rounds" => {
                    let n: u64 = tokens.next().unwrap().parse().unwrap();
                    let fewer = if token == "--games" { n.min(2) } else { 1 };
                    args.extend([token.to_string(), fewer.to_string()]);
                }
                // Replaced by the short limit below.
                "--max-moves" => {
                    tokens.next();
                }
                _ => args.push(token.to_string()),
            }
        }
        args.extend(["--max-moves".to_string(), "10".to_string()]);
        let output = Command::new(CHARIOT)
            .arg("match")
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap();
        let text = stdout(&output);
        assert!(
            output.status.success(),
            "{command}\n{text}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let endings = text
            .lines()
            .filter(|l| l.contains("Endings"))
            .collect::<Vec<_>>();
        assert!(!endings.is_empty(), "{command}\n{text}");
        assert!(
            endings.iter().all(|l| !l.contains("time forfeit")),
            "{command}\n{text}"
        );
    }
}

/// An option the engine does not offer, or a value outside its type or range, stops the match
/// before the first game with one line; `--dry-run` too, since it starts every engine.
#[test]
fn options_the_engine_refuses_stop_the_match_before_it_starts() {
    let pgn = pgn_path("bad-options");
    for (option, proto, message) in [
        ("option.Bogus=1", "uci", "does not offer"),
        ("option.Hash=abc", "uci", "abc"),
        ("option.Hash=0", "uci", "1 to 1024"),
        ("option.hash=4096", "uci", "1 to 1024"),
        ("option.hashsize=nine", "ucci", "nine"),
        ("option.Hash=16", "ucci", "does not offer"),
    ] {
        for dry_run in [false, true] {
            let mut args = fake("A", &format!("{option} proto={proto}"));
            args.extend(fake("B", ""));
            args.extend(["--depth", "1"].map(String::from));
            if dry_run {
                args.push("--dry-run".into());
            }
            let (output, games) = chariot_match(&args, &pgn);
            let err = String::from_utf8_lossy(&output.stderr);
            assert!(!output.status.success(), "{option} {proto} was accepted");
            assert!(
                err.contains(message)
                    && err.contains(&option["option.".len()..option.find('=').unwrap()]),
                "{option} {proto}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(games.is_empty());
            assert!(!stdout(&output).contains("Every engine started"));
        }
    }
    // What the engine offers is taken, in any case of letters.
    let mut args = fake("A", "option.hash=8");
    args.extend(fake("B", "proto=ucci option.hashsize=8"));
    args.extend(["--depth", "1", "--dry-run"].map(String::from));
    let output = run_match(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `--dry-run` speaks plainly: no Rust debug forms.
#[test]
fn a_dry_run_prints_no_debug_forms() {
    let mut args = fake("A", "option.Hash=8 arg=--seed arg=2");
    args.extend(fake("B", "proto=ucci"));
    args.extend(["--depth", "1", "--dry-run"].map(String::from));
    let text = stdout(&run_match(&args));
    for debug in [
        "Some(",
        "None",
        "Uci",
        "Ucci",
        "[\"",
        "Duration",
        "ResignRule",
        "30s",
    ] {
        assert!(!text.contains(debug), "{debug} in\n{text}");
    }
    for plain in [
        "proto=uci ",
        "proto=ucci ",
        "max moves: no limit",
        "SPRT: none",
    ] {
        assert!(text.contains(plain), "missing {plain} in\n{text}");
    }
}

/// Moves of well under a millisecond are timed to the microsecond: the PGN and the report
/// show their time, not 0.
#[test]
fn short_moves_are_timed_to_the_microsecond() {
    let pgn = pgn_path("short-moves");
    let report = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("short-moves.html");
    let _ = std::fs::remove_file(&report);
    let mut args = fake("A", "arg=--think-us arg=600");
    args.extend(fake("B", "arg=--think-us arg=600"));
    args.extend(
        [
            "--depth",
            "1",
            "--games",
            "2",
            "--max-moves",
            "30",
            "--report",
        ]
        .map(String::from),
    );
    args.push(report.display().to_string());
    let (output, games) = chariot_match(&args, &pgn);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(games.len(), 2);
    for game in &games {
        for comment in &game.comments[..game.comments.len() - 1] {
            let time = comment.rsplit(' ').next().unwrap().trim_end_matches('s');
            let seconds: f64 = time.parse().unwrap_or_else(|_| panic!("{comment}"));
            assert!((0.0006..0.5).contains(&seconds), "{comment}");
        }
    }
    let html = std::fs::read_to_string(&report).unwrap();
    let times = html.split("<h2>Time per move</h2>").nth(1).unwrap();
    let row = times
        .lines()
        .find(|l| l.starts_with("<tr><td>A</td>"))
        .unwrap_or_else(|| panic!("{html}"));
    let cells: Vec<&str> = row.split("<td>").collect();
    let per_move: f64 = cells[3].trim_end_matches("</td>").parse().unwrap();
    assert!(per_move >= 0.6, "{row}");
}

/// The report is another file the runner will not replace unless told (or resuming); the
/// PGN is added to only when it holds games.
#[test]
fn the_report_and_pgn_replace_no_file_of_the_user() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("user-files");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let notes = dir.join("notes.md");
    std::fs::write(&notes, "# my notes\n").unwrap();
    let mut base = fake("A", "");
    base.extend(fake("B", ""));
    base.extend(["--depth", "1", "--games", "2", "--max-moves", "20"].map(String::from));
    for flag in ["--report", "--pgn"] {
        let mut args = base.clone();
        args.extend([flag.to_string(), notes.display().to_string()]);
        let output = run_match(&args);
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{flag} notes.md was accepted");
        assert!(
            err.contains("notes.md") && err.lines().count() == 1,
            "{err}"
        );
        assert!(stdout(&output).is_empty(), "{flag}: the match started");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "# my notes\n");
    }
    // --force replaces the report; a PGN of games is added to.
    let pgn = dir.join("games.pgn").display().to_string();
    for _ in 0..2 {
        let mut args = base.clone();
        args.extend([
            "--report".into(),
            notes.display().to_string(),
            "--force".into(),
        ]);
        args.extend(["--pgn".to_string(), pgn.clone()]);
        let output = run_match(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert!(std::fs::read_to_string(&notes)
        .unwrap()
        .starts_with("<!DOCTYPE html>"));
    let games = read_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
}
