//! Score constants and their display: centipawns, and mates counted in plies from the root. A
//! game the repetition rules end (perpetual check or chase) scores like a mate at the ply where
//! the rules end it, so a sooner ending of either kind is preferred and both print as `mate N`.

pub const MAX_PLY: usize = 128;
pub const INFINITE: i32 = 32_000;
pub const MATE: i32 = 30_000;
/// Scores at or beyond this are mates (or rule endings) found by search.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The score of the side that is mated, or loses by rule, `ply` plies from the root.
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of the side that mates, or wins by rule, `ply` plies from the root.
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Mates and wins by the repetition rules: no evaluation comes near them.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Plies from the root to the mate or rule ending a mate score stands for.
pub fn mate_plies(score: i32) -> i32 {
    MATE - score.abs()
}

/// How a score is reported to GUIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreText {
    Cp(i32),
    /// Moves (not plies) of the side to move until it mates or wins by rule; negative when
    /// it is mated or loses by rule, counting its own moves until then.
    Mate(i32),
}

pub fn describe(score: i32) -> ScoreText {
    if score >= MATE_BOUND {
        ScoreText::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        // A rule loss comes right after the loser's own move (odd plies); a mate after the
        // winner's (even plies). Either way: the loser's moves until the end.
        ScoreText::Mate(-(MATE + score + 1) / 2)
    } else {
        ScoreText::Cp(score)
    }
}

impl std::fmt::Display for ScoreText {
    /// UCI form: `cp 34` or `mate -3`.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            ScoreText::Cp(cp) => write!(f, "cp {cp}"),
            ScoreText::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Score text for people (`chariot analyse`, the browser page): `+1.25` or `mate 3`.
pub fn human_score(score: i32) -> String {
    match describe(score) {
        ScoreText::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        ScoreText::Mate(n) => format!("mate {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_in_moves() {
        assert_eq!(describe(MATE - 1), ScoreText::Mate(1));
        assert_eq!(describe(MATE - 3), ScoreText::Mate(2));
        assert_eq!(describe(mated_in(2)), ScoreText::Mate(-1));
        assert_eq!(describe(mated_in(0)), ScoreText::Mate(0));
        // Rule endings: the loser's repeating move completes the cycle, the winner need not
        // move again.
        assert_eq!(describe(mated_in(1)), ScoreText::Mate(-1));
        assert_eq!(describe(mated_in(3)), ScoreText::Mate(-2));
        assert_eq!(describe(mate_in(2)), ScoreText::Mate(1));
        assert_eq!(describe(mate_in(4)), ScoreText::Mate(2));
        assert_eq!(describe(MATE_BOUND - 1), ScoreText::Cp(MATE_BOUND - 1));
    }
}
