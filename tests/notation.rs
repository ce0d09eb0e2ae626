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

// WXF and Chinese notation: every legal move written, read back, and the same move.

mod wxf_and_chinese {
    use chariot::board::movegen::legal_moves;
    use chariot::notation::{parse_chinese, parse_pgn_move, parse_wxf, Notation};
    use chariot::Position;

    /// Positions with pawns in tandem, which random play seldom makes: three, four and five
    /// Red pawns on one file, pawns on two files (3 + 2 and 2 + 2), and the same for Black;
    /// two rooks, horses and cannons on one file; advisors and elephants sharing files.
    const TANDEM_FENS: &[&str] = &[
        "3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
        "3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
        "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1",
        "3k5/9/6P2/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
        "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1",
        "4k4/9/9/9/9/2p6/2p6/2p6/9/5K3 b - - 0 1",
        "4k4/9/9/9/9/2p3p2/2p3p2/2p6/9/5K3 b - - 0 1",
        "4k4/9/9/9/2p6/2p6/2p6/2p6/2p6/5K3 b - - 0 1",
        "2bak4/4a4/9/9/1Rb6/4H4/1R2C4/3AC4/4H4/3K1A3 w - - 0 1",
        "3k5/4a4/3a5/9/1r2n4/4n4/1r7/9/4c4/4cK3 b - - 0 1",
    ];

    /// The positions of seeded random games, every ply of them, and the tandem positions.
    fn positions() -> Vec<Position> {
        let mut rng = fastrand::Rng::with_seed(45);
        let mut all: Vec<Position> = TANDEM_FENS
            .iter()
            .map(|fen| Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}")))
            .collect();
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                all.push(pos.clone());
                pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
            }
        }
        all
    }

    #[test]
    fn every_legal_move_round_trips_in_each_notation() {
        let positions = positions();
        let mut moves = 0;
        for pos in &positions {
            for &mv in legal_moves(pos).iter() {
                moves += 1;
                for notation in [Notation::Iccs, Notation::Wxf, Notation::Chinese] {
                    let text = notation.format(pos, mv);
                    assert_eq!(
                        parse_pgn_move(pos, &text),
                        Ok(mv),
                        "{notation:?} '{text}' for {mv} in {}",
                        pos.to_fen()
                    );
                }
                let wxf = Notation::Wxf.format(pos, mv);
                assert_eq!(wxf.chars().count(), 4, "{wxf}");
                assert_eq!(parse_wxf(pos, &wxf.replace('=', ".")), Ok(mv), "{wxf}");
                let chinese = Notation::Chinese.format(pos, mv);
                assert_eq!(chinese.chars().count(), 4, "{chinese}");
            }
        }
        assert!(positions.len() > 5000 && moves > 150_000, "{moves} moves");
    }

    fn check(fen: &str, iccs: &str, wxf: &str, chinese: &str) {
        let pos = Position::from_fen(fen).unwrap();
        let mv = parse_pgn_move(&pos, iccs).unwrap();
        assert_eq!(Notation::Wxf.format(&pos, mv), wxf, "{iccs} in {fen}");
        assert_eq!(
            Notation::Chinese.format(&pos, mv),
            chinese,
            "{iccs} in {fen}"
        );
        assert_eq!(parse_wxf(&pos, wxf), Ok(mv));
        assert_eq!(parse_chinese(&pos, chinese), Ok(mv));
    }

    #[test]
    fn opening_moves_as_books_print_them() {
        // The central cannon and the screen horse defence, as in any opening book:
        // 1. 炮二平五 马８进７ 2. 马二进三 车９平８ (C2=5 H8+7 H2+3 R9=8).
        let start = Position::START_FEN;
        let black = start.replace(" w ", " b ");
        check(start, "h2e2", "C2=5", "炮二平五");
        check(&black, "h9g7", "H8+7", "马８进７");
        check(start, "h0g2", "H2+3", "马二进三");
        let horse_out = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
        check(horse_out, "i9h9", "R9=8", "车９平８");
        check(start, "c3c4", "P7+1", "兵七进一");
        check(start, "g0e2", "E3+5", "相三进五");
        check(&black, "d9e8", "A4+5", "士４进５");
        check(start, "b2b9", "C8+7", "炮八进七");
        let pos = Position::from_fen(&black).unwrap();
        // Other ways of writing them are read too: ASCII digits, traditional characters, `.`.
        for text in ["马8进7", "馬８進７", "H8.7", "h8+7", "N8+7"] {
            let found = parse_pgn_move(&pos, text);
            let expected = parse_pgn_move(&pos, "h9g7");
            if text.contains('.') {
                assert!(found.is_err(), "{text}: a horse cannot move sideways");
            } else {
                assert_eq!(found, expected, "{text}");
            }
        }
        let start = Position::startpos();
        assert_eq!(
            parse_pgn_move(&start, "傌二進三"),
            parse_pgn_move(&start, "h0g2")
        );
    }

    #[test]
    fn tandem_pieces_and_pawns_follow_the_wxf_standard() {
        // The WXF standard's own examples (http://www.wxf.org/xq/computer/wxf_notation.html,
        // "Tandem Positions" and "Special Cases for Tandem Pawns"), with `=` for its `.`; the
        // Chinese forms are those the standard's examples translate (车前平三 is its R+.3).
        let rooks = "3k5/9/9/9/9/9/6R2/9/6R2/4K4 w - - 0 1";
        check(rooks, "g3f3", "R+=4", "前车平四");
        check(rooks, "g1g0", "R--1", "后车退一");
        // Three pawns on the 3rd file go to the 4th: P+.4, P3.4, P-.4.
        let three = TANDEM_FENS[0];
        check(three, "g7f7", "P+=4", "前兵平四");
        check(three, "g6f6", "P3=4", "中兵平四");
        check(three, "g5f5", "P-=4", "后兵平四");
        // Five: ++.4, P+.4, P3.4, P-.4, --.4 (Chinese: 一兵 to 五兵 from the front).
        let five = TANDEM_FENS[2];
        check(five, "g9f9", "++=4", "一兵平四");
        check(five, "g8f8", "P+=4", "二兵平四");
        check(five, "g7f7", "P3=4", "三兵平四");
        check(five, "g6f6", "P-=4", "四兵平四");
        check(five, "g5f5", "--=4", "五兵平四");
        // Four: ++, P+, P-, -- (no middle pawn).
        let four = TANDEM_FENS[1];
        check(four, "g8f8", "++=4", "一兵平四");
        check(four, "g7f7", "P+=4", "二兵平四");
        check(four, "g6f6", "P-=4", "三兵平四");
        check(four, "g5f5", "--=4", "四兵平四");
        // Three on the 3rd file and two on the 7th: 3+.4, 33.4, 3-.4, 7+.6, 7-.6.
        let two_files = TANDEM_FENS[3];
        check(two_files, "g7f7", "3+=4", "前三平四");
        check(two_files, "g6f6", "33=4", "中三平四");
        check(two_files, "g5f5", "3-=4", "后三平四");
        check(two_files, "c6d6", "7+=6", "前七平六");
        check(two_files, "c5d5", "7-=6", "后七平六");
        // Black counts files from its own right, and its front is towards Red.
        let black = TANDEM_FENS[5];
        check(black, "c2d2", "P+=4", "前卒平４");
        check(black, "c3b3", "P3=2", "中卒平２");
        check(black, "c4d4", "P-=4", "后卒平４");
        // Black's horses on one file: the front one is nearer Red.
        let black_pieces = TANDEM_FENS[9];
        check(black_pieces, "e4c3", "H++3", "前马进３");
        check(black_pieces, "e5c6", "H--3", "后马退３");
    }

    #[test]
    fn nonsense_and_illegal_text_is_refused() {
        let pos = Position::startpos();
        for text in [
            "炮二平",
            "炮二平五五",
            "炮十平五",
            "马二平三",
            "炮二退五",
            "兵五进二",
            "xyz",
            "C2=0",
        ] {
            assert!(parse_pgn_move(&pos, text).is_err(), "{text}");
        }
    }

    /// The principal variation of the depth-5 line of `chariot analyse` in `notation`, and the
    /// FEN it prints, after `moves`.
    fn analysed(notation: &str, moves: &[&str]) -> (Vec<String>, String) {
        let mut args = vec!["analyse", "--depth", "5", "--notation", notation];
        if !moves.is_empty() {
            args.push("--moves");
            args.extend(moves);
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
            .args(&args)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{args:?}: {text}");
        let fen = text
            .lines()
            .find_map(|l| l.strip_prefix("FEN: "))
            .unwrap()
            .to_string();
        let pv = text
            .lines()
            .find(|l| l.trim_start().starts_with("5/"))
            .and_then(|l| l.split_once("s  "))
            .map(|(_, pv)| pv.split_whitespace().map(str::to_string).collect())
            .unwrap_or_else(|| panic!("no depth-5 line: {text}"));
        (pv, fen)
    }

    #[test]
    fn analyse_writes_each_notation_and_moves_reads_it_back() {
        let opening = ["炮二平五", "H8+7"];
        let (iccs, fen) = analysed("iccs", &opening);
        let start = Position::from_fen(&fen).unwrap();
        assert!(iccs.len() >= 2, "{iccs:?}");
        for notation in ["wxf", "chinese"] {
            let (pv, same_fen) = analysed(notation, &opening);
            assert_eq!(same_fen, fen);
            // The same search, written differently: each move reads back as the ICCS one.
            let mut pos = start.clone();
            for (text, expected) in pv.iter().zip(&iccs) {
                let mv = parse_pgn_move(&pos, text).unwrap();
                assert_eq!(&mv.to_string(), expected, "{notation} {pv:?}");
                pos.make_move(mv);
            }
            // And `--moves` takes what `analyse` printed.
            let mut line: Vec<&str> = opening.to_vec();
            line.extend(pv.iter().map(String::as_str));
            let (_, after) = analysed("iccs", &line);
            assert_eq!(after, pos.to_fen(), "{notation} {line:?}");
        }
    }
}
