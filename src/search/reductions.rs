//! The late-move reductions `build.rs` generated from the search's parameters (see
//! build/reductions.rs): `REDUCTIONS[depth][moves]` plies, both indices capped at 63.

include!(concat!(env!("OUT_DIR"), "/reductions.rs"));

#[cfg(test)]
mod tests {
    use super::REDUCTIONS;
    use crate::search::params::{LMR_DIVISOR, LMR_OFFSET};

    /// The generated table is the formula the parameters describe, entry by entry.
    #[test]
    fn the_table_follows_the_formula() {
        for (depth, row) in REDUCTIONS.iter().enumerate() {
            for (moves, &r) in row.iter().enumerate() {
                let expected = if depth == 0 || moves == 0 {
                    0
                } else {
                    (LMR_OFFSET + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR) as i32
                };
                assert_eq!(r, expected, "depth {depth}, move {moves}");
            }
        }
        assert!(REDUCTIONS[63][63] > REDUCTIONS[3][3]);
    }
}
