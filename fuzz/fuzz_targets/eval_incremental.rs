//! Plays the moves the fuzzer's bytes pick from the start position with the evaluator as the
//! board's observer: after every make and unmake its incremental material, placement and
//! phase must equal a recount, and the cached score a fresh evaluation.
#![no_main]

use chariot::eval::Evaluator;
use chariot::movegen::legal_moves;
use chariot::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut pos = Position::startpos();
    let mut eval = Evaluator::new(&pos);
    let mut made = 0;
    for &byte in data.iter().take(400) {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        let mv = moves.as_slice()[byte as usize % moves.len()];
        pos.make_move_with(mv, &mut eval);
        made += 1;
        assert!(
            eval.matches_full_recompute(&pos),
            "after {mv}: {}",
            pos.to_fen()
        );
        assert_eq!(
            eval.evaluate(&pos),
            Evaluator::new(&pos).evaluate_uncached(&pos),
            "{}",
            pos.to_fen()
        );
    }
    for _ in 0..made {
        pos.unmake_move_with(&mut eval);
        assert!(
            eval.matches_full_recompute(&pos),
            "after unmake: {}",
            pos.to_fen()
        );
    }
});
