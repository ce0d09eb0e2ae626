//! Game-ending rules as the search sees them: the 60-move (120-ply) rule and repetitions.
//! Repetition is judged by one function so the full Asian rules can replace the plain
//! "a repeated position is a draw" below without touching the search.

use crate::position::Position;

/// 120 plies without a capture end the game in a draw.
pub const RULE60_PLIES: u16 = 120;

/// Score of the current position for the side to move if the rules end the game here through
/// repetition or the 60-move rule; `None` when play goes on.
#[inline]
pub fn rule_score(pos: &Position) -> Option<i32> {
    if pos.rule60_count() >= RULE60_PLIES {
        return Some(0);
    }
    repetition_score(pos)
}

/// Interim rule until `rules::repetition_verdict` lands: any repetition (within the
/// capture-free window, not across a null move) is a draw.
fn repetition_score(pos: &Position) -> Option<i32> {
    let history = pos.history();
    let window = (pos.rule60_count() as usize).min(history.len());
    let key = pos.hash();
    // The same side is to move two, four, ... plies back.
    let mut back = 2;
    while back <= window {
        let undo = &history[history.len() - back];
        if undo.mv.is_none() || history[history.len() - back + 1].mv.is_none() {
            return None;
        }
        if undo.hash == key {
            return Some(0);
        }
        back += 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_move, RankBase};

    fn play(pos: &mut Position, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = parse_move(pos, text, RankBase::Zero).expect("test move is legal");
            pos.make_move(mv);
        }
    }

    #[test]
    fn shuffling_horses_repeats() {
        let mut pos = Position::startpos();
        play(&mut pos, "b0c2 b9c7 c2b0");
        assert_eq!(rule_score(&pos), None);
        play(&mut pos, "c7b9");
        assert_eq!(rule_score(&pos), Some(0));
    }

    #[test]
    fn sixty_move_rule() {
        let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 80";
        let mut pos = Position::from_fen(fen).unwrap();
        assert_eq!(rule_score(&pos), None);
        play(&mut pos, "d0d1");
        assert_eq!(rule_score(&pos), Some(0));
    }
}
