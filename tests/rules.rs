//! Game rules from concrete positions and move sequences: perpetual check and chase, plain
//! repetition, the 120-ply rule, insufficient material, mate and stalemate. Every move is parsed
//! with `parse_move`, so an illegal step in a sequence fails the test instead of corrupting it.

use chariot::board::notation::{parse_move, RankBase};
use chariot::rules::{
    adjudicate, chased_by, judge_cycle, occurrences, repetition_verdict, GameOutcome, Reason,
    Verdict,
};
use chariot::{Bitboard, Color, Position, Square};

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

/// Plays one move given in ICCS text, checking that it is legal.
fn play(pos: &mut Position, text: &str) {
    let mv =
        parse_move(pos, text, RankBase::Zero).unwrap_or_else(|e| panic!("{e} in {}", pos.to_fen()));
    pos.make_move(mv);
    assert!(pos.is_consistent());
}

/// Plays the moves one by one and returns `repetition_verdict` after each.
fn verdicts(pos: &mut Position, moves: &[&str]) -> Vec<Option<Verdict>> {
    moves
        .iter()
        .map(|text| {
            play(pos, text);
            repetition_verdict(pos)
        })
        .collect()
}

/// Plays the moves one by one and returns `adjudicate` after each.
fn outcomes(pos: &mut Position, moves: &[&str]) -> Vec<Option<GameOutcome>> {
    moves
        .iter()
        .map(|text| {
            play(pos, text);
            adjudicate(pos)
        })
        .collect()
}

fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    Square::from_coords((b[0] - b'a') as usize, (b[1] - b'0') as usize).expect("test square")
}

fn squares(names: &[&str]) -> Bitboard {
    names.iter().fold(Bitboard::EMPTY, |bb, name| {
        bb | Bitboard::from_square(sq(name))
    })
}

fn won(winner: Color, reason: Reason) -> Option<GameOutcome> {
    Some(GameOutcome {
        winner: Some(winner),
        reason,
    })
}

fn drawn(reason: Reason) -> Option<GameOutcome> {
    Some(GameOutcome {
        winner: None,
        reason,
    })
}

// ---- perpetual check ---------------------------------------------------------------------

/// Red's rook checks the black king up and down rank 8 and 9; the king has to step back and
/// forth. Red repeats with check on every move, Black never checks.
const ROOK_CHECKS: &str = "9/4k4/9/9/9/9/9/9/R8/3K5 w - - 0 1";
const ROOK_CHECK_LINE: [&str; 9] = [
    "a1a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8",
];

#[test]
fn perpetual_check_loses_in_search_after_one_repetition() {
    let mut pos = position(ROOK_CHECKS);
    let got = verdicts(&mut pos, &ROOK_CHECK_LINE[..6]);
    // Plies 5 and 6 repeat the positions after plies 1 and 2; the checker is the loser,
    // whichever side has the move at the repetition.
    let loss = Some(Verdict::Loss(Color::Red));
    assert_eq!(got, vec![None, None, None, None, loss, loss]);
    // Search unmakes the repetition again: the earlier nodes are no repetition.
    pos.unmake_move();
    pos.unmake_move();
    assert_eq!(repetition_verdict(&pos), None);
    let mut replay = position(ROOK_CHECKS);
    for text in &ROOK_CHECK_LINE[..4] {
        play(&mut replay, text);
    }
    assert_eq!(pos.to_fen(), replay.to_fen());
}

#[test]
fn perpetual_check_loses_the_game_at_the_third_occurrence() {
    let mut pos = position(ROOK_CHECKS);
    let got = outcomes(&mut pos, &ROOK_CHECK_LINE);
    assert!(
        got[..8].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[8], won(Color::Black, Reason::PerpetualCheck));
    assert_eq!(occurrences(&pos), 3);
}

/// Each side answers a check with a check: Red's cannon steps between the black rook and its
/// king and unmasks the rook on d0; Black's rook does the same against the cannon on f7.
const MUTUAL_CHECKS: &str = "9/9/3k1c3/9/9/5r3/9/3C5/9/3R1K3 w - - 0 1";
const MUTUAL_CHECK_LINE: [&str; 8] = [
    "d2f2", "f4d4", "f2d2", "d4f4", "d2f2", "f4d4", "f2d2", "d4f4",
];

#[test]
fn mutual_perpetual_check_is_a_draw() {
    let mut pos = position(MUTUAL_CHECKS);
    assert!(pos.in_check());
    let got = verdicts(&mut pos, &MUTUAL_CHECK_LINE[..4]);
    assert!(pos.in_check());
    assert_eq!(got, vec![None, None, None, Some(Verdict::Draw)]);

    let mut pos = position(MUTUAL_CHECKS);
    let got = outcomes(&mut pos, &MUTUAL_CHECK_LINE);
    assert!(
        got[..7].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[7], drawn(Reason::Repetition));
}

#[test]
fn checking_on_only_some_moves_is_no_perpetual_check() {
    // The rook checks from a8, then retreats quietly to a1: the start recurs, and Red has not
    // checked on every move of the cycle.
    let mut pos = position(ROOK_CHECKS);
    let got = verdicts(&mut pos, &["a1a8", "e8e9", "a8a1", "e9e8"]);
    assert_eq!(got, vec![None, None, None, Some(Verdict::Draw)]);
}

// ---- idle repetition ---------------------------------------------------------------------

const SHUFFLE: [&str; 8] = [
    "b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9",
];

#[test]
fn idle_shuffle_is_a_draw() {
    let mut pos = Position::startpos();
    let got = verdicts(&mut pos, &SHUFFLE[..4]);
    assert_eq!(got, vec![None, None, None, Some(Verdict::Draw)]);

    let mut pos = Position::startpos();
    let got = outcomes(&mut pos, &SHUFFLE);
    assert!(
        got[..7].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[7], drawn(Reason::Repetition));
}

#[test]
fn a_null_move_breaks_the_repetition() {
    // The same placements recur, but only because a side passed: search must not call that a
    // repetition.
    let mut pos = Position::startpos();
    play(&mut pos, "b0c2");
    pos.make_null_move();
    play(&mut pos, "c2b0");
    pos.make_null_move();
    assert_eq!(pos.hash(), Position::startpos().hash());
    assert_eq!(repetition_verdict(&pos), None);
}

// ---- perpetual chase ---------------------------------------------------------------------

/// Red's rook shuttles b1-c1 to attack Black's lone horse, which hops c5-b7 to escape.
const ROOK_CHASES_HORSE: &str = "5k3/9/9/9/2n6/9/9/9/1R7/3K5 w - - 0 1";
/// The same with a black rook on c7 that protects the horse on both of its squares.
const ROOK_CHASES_PROTECTED_HORSE: &str = "5k3/9/2r6/9/2n6/9/9/9/1R7/3K5 w - - 0 1";
/// The starting position recurs after plies 4 and 8.
const CHASE_LINE: [&str; 8] = [
    "b1c1", "c5b7", "c1b1", "b7c5", "b1c1", "c5b7", "c1b1", "b7c5",
];

#[test]
fn chasing_an_unprotected_horse_loses() {
    let mut pos = position(ROOK_CHASES_HORSE);
    assert_eq!(
        chased_by(&pos, parse_move(&pos, "b1c1", RankBase::Zero).unwrap()),
        squares(&["c5"])
    );
    let got = verdicts(&mut pos, &CHASE_LINE[..5]);
    let loss = Some(Verdict::Loss(Color::Red));
    assert_eq!(got, vec![None, None, None, loss, loss]);

    let mut pos = position(ROOK_CHASES_HORSE);
    let got = outcomes(&mut pos, &CHASE_LINE);
    assert!(
        got[..7].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[7], won(Color::Black, Reason::PerpetualChase));
}

/// The defence in `tests/protocol.rs` (`a_perpetual_chase_defence_is_a_mate_at_its_distance`):
/// after e1e2, Black's rook runs a1-i1 along rank 1 to attack the red cannon that shuttles
/// a5-i5 (from either square it threatens mate on rank 8). The cannon is unprotected on both
/// squares, so every rook move is a chase of the same piece, and Black loses the game at the
/// third occurrence.
#[test]
fn a_rook_guarding_against_mate_by_chasing_a_cannon_loses() {
    let mut pos = position("2ba5/1C3k1N1/9/9/8C/9/9/5A3/r3K4/9 w - - 6 4");
    play(&mut pos, "e1e2");
    // The position after e1e2 comes back after plies 4 and 8.
    let line = [
        "a1i1", "i5a5", "i1a1", "a5i5", "a1i1", "i5a5", "i1a1", "a5i5",
    ];
    assert_eq!(
        chased_by(&pos, parse_move(&pos, "a1i1", RankBase::Zero).unwrap()),
        squares(&["i5"])
    );
    let got = outcomes(&mut pos, &line);
    assert!(
        got[..7].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[7], won(Color::Red, Reason::PerpetualChase));
}

#[test]
fn chasing_a_protected_horse_is_a_draw() {
    let mut pos = position(ROOK_CHASES_PROTECTED_HORSE);
    assert_eq!(
        chased_by(&pos, parse_move(&pos, "b1c1", RankBase::Zero).unwrap()),
        Bitboard::EMPTY
    );
    let got = verdicts(&mut pos, &CHASE_LINE[..5]);
    assert_eq!(
        got,
        vec![None, None, None, Some(Verdict::Draw), Some(Verdict::Draw)]
    );

    let mut pos = position(ROOK_CHASES_PROTECTED_HORSE);
    let got = outcomes(&mut pos, &CHASE_LINE);
    assert!(
        got[..7].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[7], drawn(Reason::Repetition));
}

#[test]
fn a_rook_attacked_by_a_horse_is_chased_even_when_protected() {
    // The black rook on c5 is protected by the one on c9, yet a horse attacking it chases it.
    let pos = position("2r2k3/9/9/9/2r6/9/9/9/N8/3K5 w - - 0 1");
    let mv = parse_move(&pos, "a1b3", RankBase::Zero).unwrap();
    assert_eq!(chased_by(&pos, mv), squares(&["c5"]));
}

/// Red's cannon shuttles b3-f3, checking through the black rook and then unmasking the rook on
/// f2; Black's rook answers each check by stepping off or back onto the f-file, and each time
/// lays an attack (its own, then the cannon's on b7) on Red's lone horse on b0.
const CHECK_AGAINST_CHASE: &str = "9/5k3/1c7/5r3/9/9/1C5n1/5R3/9/1N3K3 w - - 0 1";
const CHECK_AGAINST_CHASE_LINE: [&str; 8] = [
    "b3f3", "f6b6", "f3b3", "b6f6", "b3f3", "f6b6", "f3b3", "b6f6",
];

#[test]
fn check_beats_chase_the_checker_loses() {
    let mut pos = position(CHECK_AGAINST_CHASE);
    for (i, text) in CHECK_AGAINST_CHASE_LINE[..4].iter().enumerate() {
        if i % 2 == 1 {
            // Black's moves really are chases of the same piece.
            let mv = parse_move(&pos, text, RankBase::Zero).unwrap();
            assert_eq!(chased_by(&pos, mv), squares(&["b0"]), "{text}");
        }
        play(&mut pos, text);
        assert!(pos.in_check() == (i % 2 == 0), "{text}");
    }
    assert_eq!(repetition_verdict(&pos), Some(Verdict::Loss(Color::Red)));

    let mut pos = position(CHECK_AGAINST_CHASE);
    let got = outcomes(&mut pos, &CHECK_AGAINST_CHASE_LINE);
    assert!(
        got[..7].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[7], won(Color::Black, Reason::PerpetualCheck));
}

/// Both sides chase: Red's horse hops g4-f6 and back, each time leaving the cannon on f8 with
/// exactly one screen before the black rook on f4; Black's king steps e7-f7 and back, first
/// freeing its horse's leg (the horse hits the cannon) and then the rook's file (the rook does).
const MUTUAL_CHASE: &str = "1R4c2/5C3/4k4/4n4/9/5rN2/9/3K5/9/9 w - - 0 1";
const MUTUAL_CHASE_LINE: [&str; 8] = [
    "g4f6", "e7f7", "f6g4", "f7e7", "g4f6", "e7f7", "f6g4", "f7e7",
];

#[test]
fn mutual_perpetual_chase_is_a_draw() {
    let mut pos = position(MUTUAL_CHASE);
    for (i, text) in MUTUAL_CHASE_LINE[..4].iter().enumerate() {
        let mv = parse_move(&pos, text, RankBase::Zero).unwrap();
        let victim = if i % 2 == 0 { "f4" } else { "f8" };
        assert_eq!(chased_by(&pos, mv), squares(&[victim]), "{text}");
        play(&mut pos, text);
        assert!(!pos.in_check(), "{text}");
    }
    assert_eq!(repetition_verdict(&pos), Some(Verdict::Draw));

    let mut pos = position(MUTUAL_CHASE);
    let got = outcomes(&mut pos, &MUTUAL_CHASE_LINE);
    assert!(
        got[..7].iter().all(Option::is_none),
        "decided too early: {got:?}"
    );
    assert_eq!(got[7], drawn(Reason::Repetition));
}

/// What `chased_by` says about the move `text` in `fen`.
fn chased(fen: &str, text: &str) -> Bitboard {
    let pos = position(fen);
    chased_by(
        &pos,
        parse_move(&pos, text, RankBase::Zero).unwrap_or_else(|e| panic!("{e}")),
    )
}

#[test]
fn pawns_are_chased_only_across_the_river() {
    // Black pawns on c6 (at home) and c4 (across the river), neither protected.
    let fen = "5k3/9/9/2p6/9/2p6/9/9/R8/3K5 w - - 0 1";
    assert_eq!(chased(fen, "a1a6"), Bitboard::EMPTY);
    assert_eq!(chased(fen, "a1a4"), squares(&["c4"]));
}

#[test]
fn a_pawn_attack_is_no_chase() {
    // The red pawn steps up to attack the lone black horse on c7.
    assert_eq!(
        chased("5k3/9/2n6/9/2P6/9/9/9/9/3K5 w - - 0 1", "c5c6"),
        Bitboard::EMPTY
    );
}

#[test]
fn a_discovered_attack_chases() {
    // The horse leaves a3 and uncovers the rook's attack on the lone cannon on a7.
    assert_eq!(
        chased("5k3/9/c8/9/9/9/N8/9/R8/3K5 w - - 0 1", "a3c4"),
        squares(&["a7"])
    );
}

#[test]
fn a_pinned_attacker_does_not_chase() {
    // The rook on d3 shields its king from the rook on d9; on d6 it eyes the horse on a6 but
    // may not take it. (It also meets the black rook, which can take back: no chase either.)
    assert_eq!(
        chased("3r1k3/9/9/n8/9/9/3R5/9/9/3K5 w - - 0 1", "d3d6"),
        Bitboard::EMPTY
    );
}

#[test]
fn a_piece_that_can_take_its_attacker_is_not_chased() {
    // Beside the crossed black pawn on c4 the rook could be taken by it; from c1 it cannot.
    let fen = "5k3/9/9/9/9/2p6/9/9/1R7/3K5 w - - 0 1";
    assert_eq!(chased(fen, "b1b4"), Bitboard::EMPTY);
    assert_eq!(chased(fen, "b1c1"), squares(&["c4"]));
}

#[test]
fn bad_input_is_refused_without_panicking() {
    let mut pos = position(ROOK_CHECKS);
    // Not a legal move: nothing is chased.
    assert_eq!(
        chased_by(&pos, chariot::Move::new(sq("e8"), sq("e5"))),
        Bitboard::EMPTY
    );
    for text in &ROOK_CHECK_LINE[..5] {
        play(&mut pos, text);
    }
    // Spans that do not lead back to the same position are not cycles.
    for plies in [0, 1, 2, 3, 5, 6, 99] {
        assert_eq!(judge_cycle(&pos, plies), None, "{plies} plies");
    }
    assert!(judge_cycle(&pos, 4).is_some());
}

// ---- other endings -----------------------------------------------------------------------

#[test]
fn one_hundred_twenty_plies_without_capture_draw() {
    let mut pos = position("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 60");
    play(&mut pos, "a0a1");
    assert_eq!(adjudicate(&pos), None);
    play(&mut pos, "e9e8");
    assert_eq!(pos.rule60_count(), 120);
    assert_eq!(adjudicate(&pos), drawn(Reason::Rule60));
}

#[test]
fn insufficient_material_draws() {
    let bare = position("3k5/4a4/9/9/9/9/9/4B4/4A4/4K4 w - - 0 1");
    assert_eq!(adjudicate(&bare), drawn(Reason::InsufficientMaterial));
    // One pawn, even behind the river, can still cross it.
    let pawn = position("3k5/4a4/9/9/9/9/4P4/4B4/4A4/4K4 w - - 0 1");
    assert_eq!(adjudicate(&pawn), None);
}

#[test]
fn checkmate_loses_for_the_side_to_move() {
    let mut pos = position("3nkn3/R8/2N6/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(adjudicate(&pos), None);
    play(&mut pos, "a8e8");
    assert_eq!(adjudicate(&pos), won(Color::Red, Reason::Checkmate));
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    let pos = position("4k4/9/4P4/9/9/9/9/9/3R1R3/4K4 b - - 0 1");
    assert!(!pos.in_check());
    assert_eq!(adjudicate(&pos), won(Color::Red, Reason::Stalemate));
}

// ---- the copies the judgement replays on --------------------------------------------------

#[test]
fn a_copy_with_the_recent_record_is_the_same_board_and_takes_back_what_it_kept() {
    let mut pos = Position::startpos();
    for text in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        play(&mut pos, text);
    }
    let mut copy = pos.clone_with_recent(2);
    assert_eq!(copy.to_fen(), pos.to_fen());
    assert_eq!(copy.hash(), pos.hash());
    assert_eq!(copy.history().len(), 2);
    assert_eq!(copy.history()[0].hash, pos.history()[2].hash);
    copy.unmake_move();
    copy.unmake_move();
    pos.unmake_move();
    pos.unmake_move();
    assert_eq!(copy.to_fen(), pos.to_fen());
    assert_eq!(copy.hash(), pos.hash());
    assert!(copy.is_consistent());
    assert_eq!(
        pos.clone_with_recent(9).history().len(),
        2,
        "keeps at most all"
    );
    assert!(pos.clone_with_recent(0).history().is_empty());
}
