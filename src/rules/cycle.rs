//! Judging a repetition cycle: per side, whether every move between two occurrences of a
//! position checked (on record in the position's history) and whether every move chased one and
//! the same enemy piece (the moves replayed on a copy of the board).

use super::chase::chased_by_legal;
use super::{GameOutcome, Reason, Verdict};
use crate::board::position::{Position, Undo};
use crate::board::types::{Color, Move};

/// The verdict on a cycle and the reason behind it: `PerpetualCheck` or `PerpetualChase` for a
/// loss, `Repetition` for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleJudgement {
    pub verdict: Verdict,
    pub reason: Reason,
}

impl CycleJudgement {
    /// The same judgement as the end of a game.
    pub fn outcome(self) -> GameOutcome {
        let winner = match self.verdict {
            Verdict::Draw => None,
            Verdict::Loss(loser) => Some(!loser),
        };
        GameOutcome {
            winner,
            reason: self.reason,
        }
    }
}

/// Judges the last `plies` moves, which must lead from an earlier occurrence of the current
/// position back to it (see the module docs for the rules). `None` when they do not: `plies`
/// odd, zero or longer than the history, a null move among them, or a different position then.
pub fn judge_cycle(pos: &Position, plies: usize) -> Option<CycleJudgement> {
    let history = pos.history();
    let n = history.len();
    if plies == 0 || plies % 2 != 0 || plies > n || history[n - plies].hash != pos.hash() {
        return None;
    }
    let cycle = &history[n - plies..];
    if cycle.iter().any(|undo| undo.mv.is_none()) {
        return None;
    }
    let moves = cycle.iter().filter_map(|undo| undo.mv);

    let judged = |verdict, reason| Some(CycleJudgement { verdict, reason });
    let perpetual = |flags: [bool; 2], reason| match flags {
        [true, false] => judged(Verdict::Loss(Color::Red), reason),
        [false, true] => judged(Verdict::Loss(Color::Black), reason),
        _ => None,
    };
    let checks = every_move_checks(pos, cycle);
    if checks == [true, true] {
        return judged(Verdict::Draw, Reason::Repetition);
    }
    if let Some(judgement) = perpetual(checks, Reason::PerpetualCheck) {
        return Some(judgement);
    }
    // A copy of the board, taken back to the cycle's start, walks it forwards: it needs the
    // cycle's records only.
    let mut board = pos.clone_with_recent(plies);
    (0..plies).for_each(|_| board.unmake_move());
    let chases = every_move_chases(&mut board, moves);
    perpetual(chases, Reason::PerpetualChase).or(judged(Verdict::Draw, Reason::Repetition))
}

/// Per colour: did each of its moves in `cycle` (the position's last moves, an even number)
/// give check? Read from the record, without playing them: the checkers each move left are
/// in the next move's undo record, and the last move's in the position.
fn every_move_checks(pos: &Position, cycle: &[Undo]) -> [bool; 2] {
    let mut checks = [true; 2];
    // With an even number of plies, the side to move now made the first move.
    let mut mover = pos.side_to_move();
    let left = cycle.iter().skip(1).map(|undo| undo.checkers);
    for checkers in left.chain([pos.checkers()]) {
        checks[mover.index()] &= checkers.any();
        mover = !mover;
    }
    checks
}

/// Per colour: did each of its moves in the cycle chase one and the same enemy piece? Plays the
/// moves on `pos`.
fn every_move_chases(pos: &mut Position, moves: impl Iterator<Item = Move>) -> [bool; 2] {
    const NONE: u8 = u8::MAX;
    // Pieces are told apart by an id, since the chased piece may itself move in the cycle.
    let mut ids = [NONE; 90];
    for (id, sq) in pos.occupied().into_iter().enumerate() {
        ids[sq.index()] = id as u8;
    }
    // Per colour, the ids of the enemy pieces chased by every move so far.
    let mut still_chased = [u64::MAX; 2];
    for mv in moves {
        // Once neither side chases one piece throughout, the rest of the cycle changes nothing.
        if still_chased == [0; 2] {
            break;
        }
        let mover = pos.side_to_move().index();
        if still_chased[mover] != 0 {
            let chased = chased_by_legal(pos, mv)
                .into_iter()
                .map(|sq| ids[sq.index()])
                .filter(|&id| id < 64)
                .fold(0u64, |set, id| set | 1 << id);
            still_chased[mover] &= chased;
        }
        ids[mv.to().index()] = ids[mv.from().index()];
        ids[mv.from().index()] = NONE;
        pos.make_move(mv);
    }
    still_chased.map(|set| set != 0)
}
