//! The rules that end a game: mate and stalemate, repetition judged by the Asian rules
//! (perpetual check and perpetual chase lose), the 120-ply rule and insufficient material.
//! Search and the match runner both judge with this module, so they always agree.
//!
//! # Repetition
//!
//! A position *repeats* when the same placement with the same side to move occurred earlier
//! since the last capture (and, inside search, since the last null move). The moves between the
//! two occurrences form a *cycle*; the cycle is replayed on a copy of the position to learn what
//! every move in it did (only on repetitions, so it costs nothing in ordinary positions).
//!
//! * In search, one repetition is enough: [`repetition_verdict`] judges the cycle back to the
//!   nearest earlier occurrence.
//! * In a game, [`adjudicate`] waits for the third occurrence of the position and judges the
//!   whole span from the first of the three occurrences, so the offending side must have kept
//!   it up through both turns of the cycle.
//!
//! The judgement of a cycle ([`judge_cycle`]):
//!
//! 1. *Perpetual check*: if every move of one side in the cycle gave check and the other side's
//!    did not all give check, the checking side loses. If both sides checked on every move, it is
//!    a draw. Check beats chase: a side that checks perpetually loses even against a chaser.
//! 2. *Perpetual chase*: otherwise, if every move of one side chased the same enemy piece (see
//!    below) and the other side did not chase perpetually, the chasing side loses; both chasing
//!    is a draw.
//! 3. Anything else (idle shuffling, alternating check and chase, chasing different pieces) is a
//!    draw.
//!
//! # What counts as a chase
//!
//! A sound subset of the Asian rules ([`chased_by`]): a move *chases* an enemy piece when, after
//! the move,
//!
//! * one of the mover's advisors, elephants, horses, rooks or cannons could legally capture it
//!   (an attack by a king or a pawn is never a chase), and that attacker did not already attack
//!   the square before the move (so the attack is new: made by the moved piece or discovered by
//!   its departure; the old attack is taken without regard to pins, which errs towards "no chase");
//! * the piece is not a king, and not a pawn still on its own side of the river;
//! * the piece is *unprotected*: after the capture its side would have no legal recapture. A rook
//!   attacked by a horse or a cannon counts even when protected, since winning it for a weaker
//!   piece is a real gain;
//! * the piece cannot legally capture its attacker at once (attacking a like piece that can take
//!   back is an offer to trade; any other such attack only offers material).
//!
//! Not covered (judged a draw): alternating check and chase, chasing several pieces in turn,
//! "false protection" (a recapture that is legal but loses more), and the finer rules of the
//! Asian and Chinese rule books (for example for threats of mate).

mod chase;
mod cycle;

pub use chase::chased_by;
pub use cycle::{judge_cycle, CycleJudgement};

use crate::board::movegen::is_lost;
use crate::board::position::Position;
use crate::board::types::{Color, PieceType};

/// Plies without capture after which the game is drawn (the "60-move rule").
pub const RULE60_PLIES: u16 = 120;

/// How a repetition is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw,
    /// `Loss(c)`: colour `c` loses (it checked or chased perpetually).
    Loss(Color),
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Checkmate,
    Stalemate,
    PerpetualCheck,
    PerpetualChase,
    Repetition,
    Rule60,
    InsufficientMaterial,
}

impl Reason {
    /// Human text for PGN comments and match reports.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual check",
            Reason::PerpetualChase => "perpetual chase",
            Reason::Repetition => "draw by repetition",
            Reason::Rule60 => "draw by the 60-move rule (120 plies without capture)",
            Reason::InsufficientMaterial => "draw by insufficient material",
        }
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    pub winner: Option<Color>,
    pub reason: Reason,
}

/// Distances in plies back to the earlier occurrences of the current position, nearest first.
/// Only positions since the last capture and the last null move are searched, and only those
/// with the same side to move; the loop touches nothing but the history's hashes.
pub fn earlier_occurrences(pos: &Position) -> impl Iterator<Item = usize> + '_ {
    let history = pos.history();
    let n = history.len();
    let window = n.min(pos.rule60_count() as usize);
    let hash = pos.hash();
    // Two plies per step: only positions with the same side to move can be equal. The scan
    // compares hashes alone; the moves since the last occurrence found are looked at for a null
    // move only at a match (rare), and one among them ends the search as meeting it would have.
    let mut k = 0;
    std::iter::from_fn(move || {
        let searched = k;
        while k + 2 <= window {
            k += 2;
            if history[n - k].hash == hash {
                if history[n - k..n - searched]
                    .iter()
                    .any(|undo| undo.mv.is_none())
                {
                    k = window;
                    return None;
                }
                return Some(k);
            }
        }
        None
    })
}

/// How often the current position has occurred, counting this time (1 = no repetition).
pub fn occurrences(pos: &Position) -> usize {
    1 + earlier_occurrences(pos).count()
}

/// `None` unless the current position repeats an earlier one since the last capture; then the
/// verdict on the cycle back to the nearest earlier occurrence. For search: one repetition counts.
pub fn repetition_verdict(pos: &Position) -> Option<Verdict> {
    let plies = earlier_occurrences(pos).next()?;
    judge_cycle(pos, plies).map(|j| j.verdict)
}

/// Neither side has a piece that can cross the river (rook, horse, cannon or pawn): no mate is
/// possible any more.
pub fn insufficient_material(pos: &Position) -> bool {
    const ATTACKERS: [PieceType; 4] = [
        PieceType::Rook,
        PieceType::Horse,
        PieceType::Cannon,
        PieceType::Pawn,
    ];
    Color::BOTH
        .iter()
        .all(|&c| ATTACKERS.iter().all(|&k| pos.pieces(c, k).is_empty()))
}

/// Is the game over in this position? Checked in order: no legal move (checkmate or stalemate:
/// the side to move loses), third occurrence of the position (judged by [`judge_cycle`] over the
/// span since the first occurrence), 120 plies without capture (draw), insufficient material
/// (draw).
pub fn adjudicate(pos: &Position) -> Option<GameOutcome> {
    let us = pos.side_to_move();
    if is_lost(pos) {
        let reason = if pos.in_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        return Some(GameOutcome {
            winner: Some(!us),
            reason,
        });
    }
    if let Some(span) = earlier_occurrences(pos).nth(1) {
        if let Some(judgement) = judge_cycle(pos, span) {
            return Some(judgement.outcome());
        }
    }
    if pos.rule60_count() >= RULE60_PLIES {
        return Some(GameOutcome {
            winner: None,
            reason: Reason::Rule60,
        });
    }
    if insufficient_material(pos) {
        return Some(GameOutcome {
            winner: None,
            reason: Reason::InsufficientMaterial,
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::play;

    #[test]
    fn no_occurrence_is_found_past_a_null_move() {
        let mut pos = Position::startpos();
        // Both sides pass once on the way back: the start position recurs six plies on.
        play(&mut pos, "b0c2 b9c7 null c7b9 c2b0 null");
        assert_eq!(pos.hash(), Position::startpos().hash());
        assert_eq!(earlier_occurrences(&pos).count(), 0);
        // A recurrence after the passes counts; the one before them still does not.
        play(&mut pos, "b0c2 b9c7 c2b0 c7b9");
        assert_eq!(earlier_occurrences(&pos).collect::<Vec<_>>(), [4]);
    }
}
