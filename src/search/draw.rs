//! Game-ending rules as the search sees them: the 60-move (120-ply) rule, dead-drawn material
//! and repetitions judged by the Asian rules of [`crate::rules`] (perpetual check or chase loses,
//! other repetitions draw). One repetition inside the tree is enough to judge it. A loss by rule
//! scores like being mated at that ply.

use super::score::{mate_in, mated_in};
use crate::board::position::Position;
use crate::eval::psqt;
use crate::rules::{self, Verdict, RULE60_PLIES};

/// Score of the current position, `ply` plies from the root, for the side to move if the rules
/// end the game here through repetition, the 60-move rule or material that cannot mate; `None`
/// when play goes on. `material` is the evaluator's material signature of the position.
#[inline]
pub fn rule_score(pos: &Position, ply: usize, material: u64) -> Option<i32> {
    // Both rules need a few reversible plies: one test passes over most nodes.
    const _: () = assert!(RULE60_PLIES >= 4);
    if pos.rule60_count() >= 4 {
        if pos.rule60_count() >= RULE60_PLIES {
            return Some(0);
        }
        if let Some(verdict) = rules::repetition_verdict(pos) {
            return Some(match verdict {
                Verdict::Draw => 0,
                Verdict::Loss(loser) if loser == pos.side_to_move() => mated_in(ply),
                Verdict::Loss(_) => mate_in(ply),
            });
        }
    }
    let insufficient = material & ATTACKER_FIELDS == 0;
    debug_assert_eq!(insufficient, rules::insufficient_material(pos));
    insufficient.then_some(0)
}

/// Both colours' rook, horse, cannon and pawn counts in the material signature: when all are
/// zero neither side can mate ([`rules::insufficient_material`]), read from one number instead
/// of eight piece sets.
const ATTACKER_FIELDS: u64 = psqt::ATTACKER_FIELDS | psqt::ATTACKER_FIELDS << 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::play;
    use crate::eval::psqt::Incremental;

    fn material(pos: &Position) -> u64 {
        Incremental::full_recount(pos).material
    }

    #[test]
    fn bare_material_is_a_draw() {
        let pos = Position::from_fen("3k5/4a4/4b4/9/9/9/9/4B4/4A4/4K4 w - - 0 1").unwrap();
        assert_eq!(rule_score(&pos, 3, material(&pos)), Some(0));
        let pos = Position::from_fen("3k5/4a4/4b4/9/9/9/9/4B4/4A4/4K3R w - - 0 1").unwrap();
        assert_eq!(rule_score(&pos, 3, material(&pos)), None);
    }

    #[test]
    fn shuffling_horses_repeats() {
        let mut pos = Position::startpos();
        play(&mut pos, "b0c2 b9c7 c2b0");
        assert_eq!(rule_score(&pos, 7, material(&pos)), None);
        play(&mut pos, "c7b9");
        assert_eq!(rule_score(&pos, 7, material(&pos)), Some(0));
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // Red's rook checks up and down; after one cycle the repetition is judged.
        let mut pos = Position::from_fen("9/4k4/9/9/9/9/9/9/R8/3K5 w - - 0 1").unwrap();
        play(&mut pos, "a1a8 e8e9 a8a9 e9e8");
        assert_eq!(rule_score(&pos, 7, material(&pos)), None);
        play(&mut pos, "a9a8");
        // Black to move after Red repeated by checking: Black wins by rule.
        assert_eq!(rule_score(&pos, 7, material(&pos)), Some(mate_in(7)));
        play(&mut pos, "e8e9");
        assert_eq!(rule_score(&pos, 7, material(&pos)), Some(mated_in(7)));
    }

    #[test]
    fn perpetual_chase_loses_for_the_chaser() {
        // Red's rook attacks Black's lone, unprotected horse from b1 and c1 in turn; the
        // horse hops c5-b7 and back. Each repetition is a loss for Red, scored as a mate at
        // the ply where it happens, for whichever side is to move.
        let mut pos = Position::from_fen("5k3/9/9/9/2n6/9/9/9/1R7/3K5 w - - 0 1").unwrap();
        play(&mut pos, "b1c1 c5b7 c1b1");
        assert_eq!(rule_score(&pos, 7, material(&pos)), None);
        play(&mut pos, "b7c5");
        assert_eq!(rule_score(&pos, 7, material(&pos)), Some(mated_in(7)));
        play(&mut pos, "b1c1");
        assert_eq!(rule_score(&pos, 8, material(&pos)), Some(mate_in(8)));
    }

    #[test]
    fn sixty_move_rule() {
        let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80";
        let mut pos = Position::from_fen(fen).unwrap();
        assert_eq!(rule_score(&pos, 7, material(&pos)), None);
        play(&mut pos, "d0d1");
        assert_eq!(rule_score(&pos, 7, material(&pos)), Some(0));
    }
}
