//! FEN reading and writing: every validation problem from a concrete bad FEN, aliases, and no
//! panic on garbage.

mod common;

use chariot::{Color, FenProblems, Position};
use common::fuzz_checks::fen_parse;

const START: &str = Position::START_FEN;

/// Each problem flag, a FEN that has only that problem, and words the message must contain.
#[rustfmt::skip]
const BAD: &[(FenProblems, &str, &str)] = &[
    (FenProblems::SYNTAX, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1", "10 ranks"),
    (FenProblems::SYNTAX, "", "10 ranks"),
    (FenProblems::SYNTAX, "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "letter 'x'"),
    (FenProblems::SYNTAX, "rnbakabnr/9/1c5c1/p1p1p1p1p/91/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "not 9"),
    (FenProblems::SYNTAX, "rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "not 9"),
    (FenProblems::SIDE, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", "side to move"),
    (FenProblems::COUNTERS, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "clock"),
    (FenProblems::COUNTERS, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -3", "move number"),
    (FenProblems::COUNTERS, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 65535 1", "too large"),
    (FenProblems::MISSING_KING, "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "Black has no king"),
    (FenProblems::EXTRA_KING, "4k4/9/9/9/9/9/9/9/4K4/3K5 w - - 0 1", "Red has 2 kings"),
    (FenProblems::TOO_MANY_PIECES, "4k4/9/9/9/9/9/9/R8/R8/R2K5 w - - 0 1", "at most 2"),
    (FenProblems::TOO_MANY_PIECES, "3k5/9/9/PPPPPP3/9/9/9/9/9/4K4 w - - 0 1", "at most 5"),
    (FenProblems::BAD_SQUARE, "4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", "King cannot stand on a0"),
    (FenProblems::BAD_SQUARE, "4k4/9/9/9/9/9/9/9/9/3KA4 w - - 0 1", "Advisor cannot stand on e0"),
    (FenProblems::BAD_SQUARE, "4k4/9/9/9/9/9/9/9/9/3K1B3 w - - 0 1", "Elephant cannot stand on f0"),
    (FenProblems::BAD_SQUARE, "4k4/9/9/9/9/9/1P7/9/9/3K5 w - - 0 1", "Pawn cannot stand on b3"),
    (FenProblems::BAD_SQUARE, "4k4/p8/9/9/9/9/9/9/9/3K5 w - - 0 1", "Pawn cannot stand on a8"),
    (FenProblems::KINGS_FACING, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "face each other"),
    (FenProblems::OPPONENT_IN_CHECK, "4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "in check"),
];

#[test]
fn every_problem_is_reported_and_named() {
    let mut seen = FenProblems::empty();
    for &(problem, fen, words) in BAD {
        let err = Position::from_fen(fen).expect_err(fen);
        assert_eq!(err.problems, problem, "{fen}: {err}");
        let message = err.to_string();
        assert!(
            message.contains(words),
            "{fen}: message {message:?} should mention {words:?}"
        );
        seen |= problem;
    }
    assert_eq!(
        seen,
        FenProblems::all(),
        "some problem flag has no test FEN"
    );
}

#[test]
fn several_problems_at_once() {
    let err = Position::from_fen("4k4/9/9/9/9/9/9/9/RRR6/3KA4 x - - 0 1").unwrap_err();
    let expected = FenProblems::SIDE | FenProblems::TOO_MANY_PIECES | FenProblems::BAD_SQUARE;
    assert_eq!(err.problems, expected, "{err}");
}

#[test]
fn aliases_and_side_letters() {
    let aliased =
        Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1");
    assert_eq!(aliased.expect("H/E accepted").to_fen(), START);
    let placement = START.split(' ').next().unwrap();
    for (side, color) in [("w", Color::Red), ("r", Color::Red), ("b", Color::Black)] {
        let pos = Position::from_fen(&format!("{placement} {side} - - 0 1")).expect(side);
        assert_eq!(pos.side_to_move(), color, "side letter {side}");
    }
    // The fields after the placement are optional.
    let bare = Position::from_fen(placement).expect("placement alone");
    assert_eq!(bare.to_fen(), START);
}

#[test]
fn round_trip_keeps_counters_and_side() {
    for fen in [
        "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 17 42",
        START,
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

/// The counters are 16-bit and make_move increments them: the largest accepted values must
/// still be playable (a FEN with 65535 used to overflow on the first move).
#[test]
fn largest_counters_can_still_be_played() {
    let placement = START.split(' ').next().unwrap();
    let most = chariot::board::fen::MAX_COUNTER;
    for side in ["w", "b"] {
        let fen = format!("{placement} {side} - - {most} {most}");
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for _ in 0..4 {
            let mv = chariot::board::movegen::legal_moves(&pos).as_slice()[0];
            pos.make_move(mv);
        }
        (0..4).for_each(|_| pos.unmake_move());
        assert_eq!(pos.to_fen(), fen);
        let over = format!("{placement} {side} - - {} 1", most + 1);
        assert_eq!(
            Position::from_fen(&over).unwrap_err().problems,
            FenProblems::COUNTERS,
            "{over}"
        );
    }
}

/// Random text and mutations of good FENs: parsing never panics, and whatever parses
/// round-trips and agrees with the reference reader (`fen_parse` checks all of that).
#[test]
fn garbage_never_panics() {
    let mut rng = fastrand::Rng::with_seed(0xFE4);
    let alphabet: Vec<char> = "0123456789/ -kabnrcpheKABNRCPHEwrbx\t中\u{0}"
        .chars()
        .collect();
    let seeds = [
        START,
        "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
    ];
    for seed in seeds {
        // Every prefix (the seeds are ASCII, so every byte is a character boundary).
        for cut in 0..seed.len() {
            fen_parse(&seed.as_bytes()[..cut]);
        }
    }
    let mut parsed = 0;
    for round in 0..20_000 {
        let text: String = if round % 4 == 0 {
            (0..rng.usize(..80))
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect()
        } else {
            let mut chars: Vec<char> = seeds[round % 2].chars().collect();
            for _ in 0..rng.usize(1..4) {
                let at = rng.usize(..chars.len());
                match rng.u8(..3) {
                    0 => chars[at] = alphabet[rng.usize(..alphabet.len())],
                    1 => chars.insert(at, alphabet[rng.usize(..alphabet.len())]),
                    _ => {
                        chars.remove(at);
                    }
                }
            }
            chars.into_iter().collect()
        };
        fen_parse(text.as_bytes());
        parsed += Position::from_fen(&text).is_ok() as usize;
    }
    // The mutations must reach both outcomes, or the loop tests little.
    assert!(parsed > 100, "only {parsed} mutated FENs parsed");
    let bytes: Vec<u8> = (0..4096).map(|_| rng.u8(..)).collect();
    for chunk in bytes.chunks(97) {
        fen_parse(chunk);
    }
}
