//! The checks behind the fuzz targets, shared with `cargo test` (the differential tests and the
//! corpus replay) so that CI exercises the same logic. Each check panics with the FEN at fault.

use super::reference::{Board, RefMove};
use chariot::board::check_info::CheckInfo;
use chariot::board::movegen::{generate, is_lost, legal_moves};
use chariot::eval::Evaluator;
use chariot::{BoardObserver, Color, GenKind, Move, MoveList, Piece, PieceType, Position, Square};

fn pairs(moves: &MoveList) -> Vec<RefMove> {
    let mut v: Vec<RefMove> = moves
        .iter()
        .map(|m| (m.from().index(), m.to().index()))
        .collect();
    v.sort_unstable();
    v
}

fn generated(pos: &Position, kind: GenKind) -> Vec<RefMove> {
    let mut list = MoveList::new();
    generate(pos, kind, &mut list);
    pairs(&list)
}

fn to_move((from, to): RefMove) -> Move {
    Move::new(Square::new(from), Square::new(to))
}

/// A second board kept up to date only through the observer calls.
struct Mirror([Option<Piece>; 90]);

impl Mirror {
    fn of(pos: &Position) -> Mirror {
        Mirror(std::array::from_fn(|i| pos.piece_at(Square::new(i))))
    }
}

impl BoardObserver for Mirror {
    fn add_piece(&mut self, piece: Piece, sq: Square) {
        assert!(
            self.0[sq.index()].is_none(),
            "observer: add_piece onto occupied {sq}"
        );
        self.0[sq.index()] = Some(piece);
    }
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        assert_eq!(
            self.0[sq.index()],
            Some(piece),
            "observer: remove_piece of a piece not on {sq}"
        );
        self.0[sq.index()] = None;
    }
}

/// Every property of one position: the fast generator against the reference, the split into
/// captures and quiets, check detection, make/unmake with hash and observer, null move, FEN.
pub fn check_position(pos: &mut Position) {
    let fen = pos.to_fen();
    let hash = pos.hash();
    let plies = pos.history().len();
    let reference = Board::from_fen(&fen).unwrap_or_else(|| panic!("reference cannot read {fen}"));
    assert!(pos.is_consistent(), "inconsistent: {fen}");
    assert_eq!(
        hash,
        pos.compute_hash(),
        "incremental hash differs from recomputed: {fen}"
    );

    // Legal moves, and their split into captures and quiets.
    let all = generated(pos, GenKind::All);
    let expected = reference.legal_moves();
    assert_eq!(
        all, expected,
        "legal moves differ from the reference in {fen}"
    );
    let captures = generated(pos, GenKind::Captures);
    let quiets = generated(pos, GenKind::Quiets);
    let mut union: Vec<RefMove> = captures.iter().chain(&quiets).copied().collect();
    union.sort_unstable();
    assert_eq!(
        union, all,
        "captures + quiets != all (or they overlap) in {fen}"
    );
    for &(_, to) in &captures {
        assert!(
            pos.piece_at(Square::new(to)).is_some(),
            "capture to an empty square in {fen}"
        );
    }
    for &(_, to) in &quiets {
        assert!(
            pos.piece_at(Square::new(to)).is_none(),
            "quiet move captures in {fen}"
        );
    }
    assert_eq!(is_lost(pos), all.is_empty(), "is_lost wrong in {fen}");
    assert_eq!(
        legal_moves(pos).len(),
        all.len(),
        "legal_moves disagrees with generate in {fen}"
    );

    // Check detection.
    assert_eq!(
        pos.in_check(),
        reference.in_check(),
        "in_check differs from the reference in {fen}"
    );
    let mut checkers: Vec<usize> = pos.checkers().into_iter().map(|s| s.index()).collect();
    checkers.sort_unstable();
    assert_eq!(
        checkers,
        reference.checkers_of(reference.red_to_move),
        "checkers differ in {fen}"
    );

    // is_legal on every from/to pair that starts on one of our pieces (even from == to) must
    // accept exactly the legal moves; from anywhere else nothing is legal.
    let ours = |sq: usize| {
        pos.piece_at(Square::new(sq))
            .is_some_and(|p| p.color() == reference_side(&reference))
    };
    for from in 0..90 {
        let targets: Vec<usize> = if ours(from) {
            (0..90).collect()
        } else {
            vec![(from + 1) % 90, (from + 9) % 90]
        };
        for to in targets {
            let mv = (from, to);
            let legal = all.binary_search(&mv).is_ok();
            assert_eq!(
                pos.is_legal(to_move(mv)),
                legal,
                "is_legal({}) in {fen}",
                to_move(mv)
            );
        }
    }

    // Every move: gives_check, make/unmake with an observer, hash and consistency.
    let mut mirror = Mirror::of(pos);
    let check_info = CheckInfo::new(pos);
    for &mv in &all {
        let m = to_move(mv);
        let gives_check = pos.gives_check(m);
        assert_eq!(
            check_info.gives_check(pos, m),
            gives_check,
            "CheckInfo disagrees on {m} in {fen}"
        );
        pos.make_move_with(m, &mut mirror);
        let after = pos.to_fen();
        assert!(pos.is_consistent(), "inconsistent after {m} from {fen}");
        assert_eq!(
            pos.hash(),
            pos.compute_hash(),
            "hash drifts after {m} from {fen}"
        );
        assert_eq!(
            gives_check,
            pos.in_check(),
            "gives_check({m}) wrong in {fen}"
        );
        assert_eq!(
            Mirror::of(pos).0,
            mirror.0,
            "observer lost track after {m} from {fen}"
        );
        let mut moved = reference.clone();
        moved.make(mv);
        assert_eq!(
            Board::from_fen(&after),
            Some(moved),
            "make({m}) from {fen} gave {after}"
        );
        pos.unmake_move_with(&mut mirror);
        assert_eq!(pos.to_fen(), fen, "unmake({m}) did not restore {fen}");
        assert_eq!(
            pos.hash(),
            hash,
            "unmake({m}) did not restore the hash of {fen}"
        );
        assert_eq!(
            Mirror::of(pos).0,
            mirror.0,
            "observer lost track after unmaking {m} in {fen}"
        );
    }
    assert!(pos.is_consistent(), "inconsistent after unmaking in {fen}");
    assert_eq!(
        pos.history().len(),
        plies,
        "history length not restored in {fen}"
    );

    // The null move (never used in check).
    if !pos.in_check() {
        pos.make_null_move();
        assert!(
            pos.is_consistent(),
            "inconsistent after a null move in {fen}"
        );
        assert_ne!(
            pos.hash(),
            hash,
            "null move left the hash unchanged in {fen}"
        );
        assert_eq!(
            pos.side_to_move(),
            !reference_side(&reference),
            "null move kept the side in {fen}"
        );
        pos.unmake_null_move();
        assert_eq!(
            (pos.to_fen(), pos.hash()),
            (fen.clone(), hash),
            "null move not undone in {fen}"
        );
    }

    // FEN round trip, and the mirror image has the mirrored moves.
    let reread = Position::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen} rejected: {e}"));
    assert_eq!(
        (reread.to_fen(), reread.hash()),
        (fen.clone(), hash),
        "FEN round trip of {fen}"
    );
    let mirror_file = |sq: usize| sq / 9 * 9 + 8 - sq % 9;
    let mut mirrored: Vec<RefMove> = all
        .iter()
        .map(|&(f, t)| (mirror_file(f), mirror_file(t)))
        .collect();
    mirrored.sort_unstable();
    assert_eq!(
        generated(&pos.mirrored(), GenKind::All),
        mirrored,
        "mirror image of {fen}"
    );
    let flip_rank = |sq: usize| (9 - sq / 9) * 9 + sq % 9;
    let mut flipped: Vec<RefMove> = all
        .iter()
        .map(|&(f, t)| (flip_rank(f), flip_rank(t)))
        .collect();
    flipped.sort_unstable();
    assert_eq!(
        generated(&pos.color_flipped(), GenKind::All),
        flipped,
        "colour flip of {fen}"
    );
}

fn reference_side(board: &Board) -> Color {
    if board.red_to_move {
        Color::Red
    } else {
        Color::Black
    }
}

/// Plays up to `choices.len()` moves, each picked by one byte, checking every position reached,
/// then takes them all back and checks the start is restored.
pub fn check_playout(pos: &mut Position, choices: &[u8]) {
    let fen = pos.to_fen();
    let hash = pos.hash();
    let mut made = 0;
    for &choice in choices {
        check_position(pos);
        let moves = legal_moves(pos);
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves.as_slice()[choice as usize % moves.len()]);
        made += 1;
    }
    check_position(pos);
    for _ in 0..made {
        pos.unmake_move();
    }
    assert_eq!(
        (pos.to_fen(), pos.hash()),
        (fen, hash),
        "playout not undone"
    );
}

/// The most pieces of each kind a side owns, and which pieces a builder may place.
const PLACEABLE: [(PieceType, u32); 6] = [
    (PieceType::Advisor, 2),
    (PieceType::Elephant, 2),
    (PieceType::Horse, 2),
    (PieceType::Rook, 2),
    (PieceType::Cannon, 2),
    (PieceType::Pawn, 5),
];

/// Builds a position from bytes: both kings somewhere in their palaces, then pieces as
/// (piece, square) byte pairs, skipping those that cannot stand there or are over the count.
/// Returns `None` when the result is not a legal position (kings facing, side not to move in
/// check) and the rest of the bytes.
pub fn position_from_bytes(data: &[u8]) -> Option<(Position, &[u8])> {
    let (&[side, red_king, black_king, count], rest) = data.split_first_chunk::<4>()?;
    let mut board: [Option<Piece>; 90] = [None; 90];
    let palace = |k: u8| ((k % 3) as usize + 3, (k / 3 % 3) as usize);
    let (f, r) = palace(red_king);
    board[r * 9 + f] = Some(Piece::new(Color::Red, PieceType::King));
    let (f, r) = palace(black_king);
    board[(9 - r) * 9 + f] = Some(Piece::new(Color::Black, PieceType::King));
    let count = (count as usize % 33).min(rest.len() / 2);
    let (pieces, rest) = rest.split_at(count * 2);
    let mut owned = [[0u32; 6]; 2];
    for pair in pieces.chunks_exact(2) {
        let color = if pair[0] & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let slot = (pair[0] >> 1) as usize % PLACEABLE.len();
        let (kind, most) = PLACEABLE[slot];
        let sq = pair[1] as usize % 90;
        let piece = Piece::new(color, kind);
        if board[sq].is_none()
            && owned[color.index()][slot] < most
            && chariot::board::fen::square_allowed(piece, Square::new(sq))
        {
            board[sq] = Some(piece);
            owned[color.index()][slot] += 1;
        }
    }
    let side = if side & 1 == 0 { 'w' } else { 'b' };
    let pos = Position::from_fen(&format!("{} {side} - - 0 1", placement_fen(&board))).ok()?;
    Some((pos, rest))
}

/// The placement field of a FEN, written independently of the crate's writer.
fn placement_fen(board: &[Option<Piece>; 90]) -> String {
    let ranks: Vec<String> = (0..10)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..9 {
                match board[rank * 9 + file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(p.letter());
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    ranks.join("/")
}

/// The positions a `movegen_diff` input may start from (besides built ones).
pub const START_FENS: [&str; 4] = [
    Position::START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
];

/// Fuzz target `movegen_diff`: the first byte chooses a start position or a built one; the
/// following bytes choose the moves of a playout that is checked at every ply.
pub fn movegen_diff(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (mut pos, choices) = if mode & 1 == 0 {
        let fen = START_FENS[(mode >> 1) as usize % START_FENS.len()];
        (Position::from_fen(fen).expect("start FENs are valid"), rest)
    } else {
        match position_from_bytes(rest) {
            Some(built) => built,
            None => return,
        }
    };
    // Long playouts add little; keep each input fast.
    check_playout(&mut pos, &choices[..choices.len().min(24)]);
}

/// Fuzz target `fen_parse`: any text either parses or is rejected with a named problem; what
/// parses writes back a FEN that reads back to the same position, agrees with the reference
/// reader, and survives making and taking back every legal move.
pub fn fen_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Position::from_fen(text) {
        Err(e) => {
            assert!(
                !e.problems.is_empty(),
                "error without a problem flag for {text:?}"
            );
            assert!(
                e.to_string().len() > "invalid FEN: ".len(),
                "empty error message for {text:?}"
            );
        }
        Ok(mut pos) => {
            let fen = pos.to_fen();
            assert!(pos.is_consistent(), "inconsistent after parsing {text:?}");
            let reread = Position::from_fen(&fen)
                .unwrap_or_else(|e| panic!("{fen} (from {text:?}) rejected: {e}"));
            assert_eq!(
                (reread.to_fen(), reread.hash()),
                (fen.clone(), pos.hash()),
                "round trip of {text:?}"
            );
            let ours = Board::from_fen(&fen);
            assert!(ours.is_some(), "reference cannot read {fen}");
            assert_eq!(
                Board::from_fen(text),
                ours,
                "reference reads {text:?} differently from {fen}"
            );
            for mv in legal_moves(&pos).iter().copied().collect::<Vec<_>>() {
                pos.make_move(mv);
                pos.unmake_move();
            }
            assert_eq!(pos.to_fen(), fen, "make/unmake changed {text:?}");
        }
    }
}

/// A seeded random network, built once (any weights serve to check the accumulators).
fn fuzz_network() -> Option<std::sync::Arc<chariot::nnue::Network>> {
    static NETWORK: std::sync::OnceLock<std::sync::Arc<chariot::nnue::Network>> =
        std::sync::OnceLock::new();
    Some(
        NETWORK
            .get_or_init(|| std::sync::Arc::new(chariot::nnue::Network::random(7)))
            .clone(),
    )
}

/// Fuzz target `eval_incremental`: the first byte chooses a start position (its top bit: the
/// network evaluates, else the classical evaluation), the following bytes a walk through a game
/// tree with the evaluator as the board's observer: a byte with its top bit set takes the last
/// move back, any other makes the move its low six bits choose, and a byte with bit 6 set checks
/// the node it leads to. The network's accumulators are brought up to date only where a node is
/// checked, so the checks see updates over several plies, after take-backs, and across general
/// moves that change the inputs' bucket. At every checked node the incremental material,
/// placement, phase and accumulators equal a recount, and the evaluation a fresh one.
pub fn eval_incremental(data: &[u8]) {
    let Some((&mode, choices)) = data.split_first() else {
        return;
    };
    let fen = START_FENS[(mode & 0x7f) as usize % START_FENS.len()];
    let network = if mode & 0x80 != 0 {
        fuzz_network()
    } else {
        None
    };
    let fresh = |pos: &Position| Evaluator::with_network(pos, Default::default(), network.clone());
    let mut pos = Position::from_fen(fen).expect("start FENs are valid");
    let mut eval = fresh(&pos);
    let mut made = 0;
    for &byte in choices.iter().take(400) {
        let moves = legal_moves(&pos);
        if byte & 0x80 != 0 && made > 0 {
            pos.unmake_move_with(&mut eval);
            made -= 1;
        } else if !moves.is_empty() {
            let mv = moves.as_slice()[(byte & 0x3f) as usize % moves.len()];
            pos.make_move_with(mv, &mut eval);
            made += 1;
        }
        if byte & 0x40 != 0 {
            assert!(eval.matches_full_recompute(&pos), "{}", pos.to_fen());
            assert_eq!(
                eval.evaluate(&pos),
                fresh(&pos).evaluate_uncached(&pos),
                "{}",
                pos.to_fen()
            );
        }
    }
    for _ in 0..made {
        pos.unmake_move_with(&mut eval);
    }
    assert!(
        eval.matches_full_recompute(&pos),
        "back at the start: {}",
        pos.to_fen()
    );
}
