//! Stand-in for `crate::rules` (being written on the rules branch) with the same contract,
//! covering only what needs no chase detection: no legal move, 120 quiet plies, and
//! threefold repetition as a draw. Replaced by the real module when it lands on main.

use crate::movegen::is_lost;
use crate::position::Position;
use crate::types::Color;

pub struct GameOutcome {
    pub winner: Option<Color>,
    pub reason: Reason,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    Repetition,
    Rule60,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "draw by repetition",
            Reason::Rule60 => "draw by the 60-move rule (120 plies without capture)",
        }
    }
}

pub fn adjudicate(pos: &Position) -> Option<GameOutcome> {
    let side = pos.side_to_move();
    if is_lost(pos) {
        let reason = if pos.in_check() { Reason::Checkmate } else { Reason::Stalemate };
        return Some(GameOutcome { winner: Some(!side), reason });
    }
    if pos.rule60_count() >= 120 {
        return Some(GameOutcome { winner: None, reason: Reason::Rule60 });
    }
    let seen = pos.history().iter().rev().take(pos.rule60_count() as usize).filter(|u| u.hash == pos.hash()).count();
    (seen >= 2).then_some(GameOutcome { winner: None, reason: Reason::Repetition })
}
