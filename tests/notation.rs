//! Move text: ICCS coordinates with ranks 0-9 or 1-10, syntax errors versus illegal moves.

use chariot::board::movegen::legal_moves;
use chariot::board::notation::{format_move, parse_move, MoveError, RankBase};
use chariot::{Move, Position, Square};

fn sq(name: &str) -> Square {
    let b = name.as_bytes();
    Square::from_coords((b[0] - b'a') as usize, name[1..].parse().unwrap()).unwrap()
}

fn mv(from: &str, to: &str) -> Move {
    Move::new(sq(from), sq(to))
}

fn black_to_move() -> Position {
    Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
        .unwrap()
}

#[test]
fn ranks_from_zero() {
    let pos = Position::startpos();
    assert_eq!(parse_move(&pos, "h2e2", RankBase::Zero), Ok(mv("h2", "e2")));
    assert_eq!(format_move(mv("h2", "e2"), RankBase::Zero), "h2e2");
    assert_eq!(
        parse_move(&black_to_move(), "b9c7", RankBase::Zero),
        Ok(mv("b9", "c7"))
    );
    assert_eq!(format_move(mv("i9", "i8"), RankBase::Zero), "i9i8");
}

#[test]
fn ranks_from_one_including_ten() {
    let pos = Position::startpos();
    assert_eq!(parse_move(&pos, "h3e3", RankBase::One), Ok(mv("h2", "e2")));
    assert_eq!(format_move(mv("h2", "e2"), RankBase::One), "h3e3");
    let black = black_to_move();
    assert_eq!(
        parse_move(&black, "a10a9", RankBase::One),
        Ok(mv("a9", "a8"))
    );
    assert_eq!(
        parse_move(&black, "b10c8", RankBase::One),
        Ok(mv("b9", "c7"))
    );
    assert_eq!(format_move(mv("a9", "a8"), RankBase::One), "a10a9");
    assert_eq!(format_move(mv("i8", "i9"), RankBase::One), "i9i10");
}

#[test]
fn every_legal_move_round_trips_in_both_bases() {
    let fens = [
        Position::START_FEN,
        "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        for &m in &legal_moves(&pos) {
            for base in [RankBase::Zero, RankBase::One] {
                let text = format_move(m, base);
                assert_eq!(parse_move(&pos, &text, base), Ok(m), "{text} in {fen}");
            }
            assert_eq!(format_move(m, RankBase::Zero), m.to_string());
        }
    }
}

#[test]
fn syntax_errors() {
    let pos = Position::startpos();
    let zero = [
        "",
        "h",
        "h2",
        "h2e",
        "z2e2",
        "j2e2",
        "h2e2x",
        "h2h2",
        "h10e2",
        "2he2",
        "h2e\u{0662}",
        "ｈ2e2",
    ];
    for text in zero {
        assert_eq!(
            parse_move(&pos, text, RankBase::Zero),
            Err(MoveError::Syntax(text.to_string())),
            "{text:?}"
        );
    }
    for text in ["a0a1", "a11a9", "a10", "h3e", "a1a12"] {
        assert_eq!(
            parse_move(&pos, text, RankBase::One),
            Err(MoveError::Syntax(text.to_string())),
            "{text:?}"
        );
    }
    let message = parse_move(&pos, "h2e", RankBase::Zero)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("'h2e'") && message.contains("not a move"),
        "{message}"
    );
}

#[test]
fn illegal_moves() {
    let pos = Position::startpos();
    // Blocked rook, king leaving the palace, empty from-square, an enemy piece, a capture of one's own.
    for text in ["a0a5", "e0e2", "a5a6", "a9a8", "a0b0"] {
        assert_eq!(
            parse_move(&pos, text, RankBase::Zero),
            Err(MoveError::Illegal(text.to_string())),
            "{text}"
        );
    }
    assert_eq!(
        parse_move(&pos, "a1a6", RankBase::One),
        Err(MoveError::Illegal("a1a6".to_string()))
    );
    let message = parse_move(&pos, "a0a5", RankBase::Zero)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("'a0a5'") && message.contains("not a legal move"),
        "{message}"
    );
}
