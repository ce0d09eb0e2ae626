//! Score constants and their display: centipawns, mates counted in plies from the root, and
//! losses by repetition rules (kept below the mate range so they never print as mates).

pub const MAX_PLY: usize = 128;
pub const INFINITE: i32 = 32_000;
pub const MATE: i32 = 30_000;
/// Scores at or beyond this are mates found by search.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Score for the side that loses under Asian repetition rules (perpetual check or chase).
pub const RULE_WIN: i32 = 20_000;

pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Mates and wins by the repetition rules: no evaluation comes near them.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= RULE_WIN
}

/// How a score is reported to GUIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreText {
    Cp(i32),
    /// Moves (not plies) to mate; negative when the side to move is mated.
    Mate(i32),
}

pub fn describe(score: i32) -> ScoreText {
    if score >= MATE_BOUND {
        ScoreText::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        ScoreText::Mate(-(MATE + score) / 2)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_in_moves() {
        assert_eq!(describe(MATE - 1), ScoreText::Mate(1));
        assert_eq!(describe(MATE - 3), ScoreText::Mate(2));
        assert_eq!(describe(mated_in(2)), ScoreText::Mate(-1));
        assert_eq!(describe(mated_in(0)), ScoreText::Mate(0));
        assert_eq!(describe(RULE_WIN), ScoreText::Cp(RULE_WIN));
    }
}
