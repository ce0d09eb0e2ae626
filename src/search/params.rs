//! The search's tuning numbers, each declared once with its default, the range a tuner may
//! try and the step it starts with. Depths are in plies, scores in centipawns.
//!
//! In a normal build each number is a `const fn` returning its default, so the search reads a
//! constant. Built with `--features spsa`, each is a UCI spin option of the same name (set
//! between searches with `setoption`), which `chariot spsa run` tunes. `chariot spsa params`
//! prints the lines SPSA tuners read (OpenBench's `name, int, value, min, max, step, lr`, or
//! fishtest's `name,value,min,max,c_end,r_end`).

/// One tunable number: its name (the UCI option's), default, range and SPSA step. The engine
/// alone (without the tools and the `spsa` feature) reads only the range, in the compile-time
/// check below.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(any(feature = "spsa", feature = "tools", test)), allow(dead_code))]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

/// The learning rate printed in SPSA lines (OpenBench's `lr`, fishtest's `r_end`).
#[cfg(any(feature = "spsa", feature = "tools", test))]
pub const SPSA_LEARNING_RATE: f64 = 0.002;

/// Declares each tunable once: `name: default, min..=max, step;` with its doc comment.
/// Yields `name()` for the search, `range::name` for compile-time checks on the range, and
/// [`TUNABLES`]; under the `spsa` feature, also [`set`].
macro_rules! tunables {
    ($($(#[doc = $doc:literal])* $name:ident: $default:literal, $min:literal..=$max:literal, $step:literal;)*) => {
        /// Every tunable, in declaration order.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
        }),*];

        /// Each tunable's range, for checks at compile time that hold whatever a tuner sets.
        #[allow(non_upper_case_globals, dead_code)]
        pub mod range {
            $(pub const $name: std::ops::RangeInclusive<i32> = $min..=$max;)*
        }

        $(
            $(#[doc = $doc])*
            #[cfg(not(feature = "spsa"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])*
            #[cfg(feature = "spsa")]
            #[inline(always)]
            pub fn $name() -> i32 {
                values::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// The values a tuner has set (relaxed atomics: a plain load in the search).
        #[cfg(feature = "spsa")]
        #[allow(non_upper_case_globals)]
        mod values {
            use std::sync::atomic::AtomicI32;
            $(pub static $name: AtomicI32 = AtomicI32::new($default);)*
        }

        /// Sets tunable `index` of [`TUNABLES`] (the caller has checked the range).
        #[cfg(feature = "spsa")]
        pub fn set(index: usize, value: i32) {
            let cells = [$(&values::$name),*];
            cells[index].store(value, std::sync::atomic::Ordering::Relaxed);
            super::reductions::build();
        }
    };
}

/// The lines SPSA tuners read, one per tunable: OpenBench's `name, int, value, min, max,
/// step, lr`, or with `fishtest` fishtest's `name,value,min,max,c_end,r_end`.
#[cfg(any(feature = "spsa", feature = "tools", test))]
pub fn spsa_lines(fishtest: bool) -> String {
    let lr = SPSA_LEARNING_RATE;
    TUNABLES
        .iter()
        .map(|t| {
            let Tunable {
                name,
                default,
                min,
                max,
                step,
            } = *t;
            if fishtest {
                format!("{name},{default},{min},{max},{step},{lr}\n")
            } else {
                format!("{name}, int, {default}, {min}, {max}, {step}, {lr}\n")
            }
        })
        .collect()
}

const _: () = {
    let mut i = 0;
    while i < TUNABLES.len() {
        let t = &TUNABLES[i];
        assert!(t.min <= t.default && t.default <= t.max && t.step > 0);
        i += 1;
    }
};

tunables! {
    /// Aspiration windows start at this half-width around the last score, from
    /// `aspiration_min_depth` on.
    aspiration_delta: 25, 5..=100, 5;
    aspiration_min_depth: 5, 2..=10, 1;

    /// A side this far behind on the evaluation (more than a rook) has lost on material, so
    /// null move and reverse futility are not tried for it.
    hopeless: 1008, 600..=2000, 50;

    /// Reverse futility: at depth <= `rfp_max_depth`, a static evaluation `rfp_margin * (depth
    /// - improving)` above beta returns at once.
    rfp_max_depth: 4, 3..=12, 1;
    rfp_margin: 73, 30..=200, 8;

    /// Null move: from `nmp_min_depth`, reduced by `nmp_base + depth / nmp_depth_div +
    /// min((eval - beta) / nmp_eval_div, nmp_eval_max)`.
    nmp_min_depth: 3, 1..=6, 1;
    nmp_base: 4, 1..=6, 1;
    nmp_depth_div: 4, 2..=8, 1;
    nmp_eval_div: 199, 50..=400, 20;
    nmp_eval_max: 2, 1..=6, 1;

    /// Internal iterative reduction: from this depth, a PV or cut node without a hash move
    /// loses a ply.
    iir_min_depth: 4, 2..=8, 1;

    /// Shallow pruning (late-move pruning, futility, SEE) applies at depth <= this.
    shallow_max_depth: 6, 3..=10, 1;
    /// Late-move pruning: after `(lmp_base + depth^2) / (2 - improving)` quiets, the rest are
    /// pruned.
    lmp_base: 4, 0..=10, 1;
    /// Futility: quiets are pruned when the static evaluation plus `futility_base +
    /// futility_per_depth * depth` does not reach alpha.
    futility_base: 94, 20..=250, 10;
    futility_per_depth: 90, 20..=250, 10;
    /// Captures losing more than `see_capture_margin * depth` by exchange are pruned.
    see_capture_margin: -121, -300..=-20, 10;
    /// Quiets losing more than `see_quiet_margin * depth^2` by exchange are pruned.
    see_quiet_margin: -24, -100..=-5, 4;

    /// Late-move reductions: from `lmr_min_depth`; the base table is `lmr_offset / 100 +
    /// ln(depth) ln(moves) / (lmr_divisor / 100)` (`reductions.rs`), and every
    /// `lmr_history_div` of history (butterfly plus continuation) is one ply less.
    lmr_min_depth: 4, 2..=5, 1;
    lmr_offset: 47, -50..=150, 10;
    lmr_divisor: 221, 150..=400, 15;
    lmr_history_div: 16355, 4096..=32768, 1024;
    /// A reduced move that beat alpha is searched again a ply deeper than full depth when it
    /// beat the best score so far (or alpha) by `lmr_deeper_margin + lmr_deeper_per_depth *
    /// depth`, a ply shallower when by less than `lmr_shallower_margin`.
    lmr_deeper_margin: 61, 0..=200, 10;
    lmr_deeper_per_depth: 2, 0..=10, 1;
    lmr_shallower_margin: 10, 0..=50, 3;

    /// Singular extensions: from `se_min_depth`, a hash move whose bound (at most 3 plies
    /// shallower) is a lower or exact one is searched a ply deeper when every other move,
    /// searched to half the depth, fails low against `hash score - se_margin * depth / 16`.
    se_min_depth: 8, 4..=12, 1;
    se_margin: 64, 8..=96, 4;

    /// History bonus of a quiet cut move: `history_bonus_per_depth2 * depth^2`, at most
    /// `history_bonus_max`.
    history_bonus_per_depth2: 15, 4..=48, 2;
    history_bonus_max: 2011, 500..=4000, 100;

    /// Quiescence skips captures that leave the score this far below alpha even after winning
    /// the victim outright (positional swings rarely exceed it).
    delta_margin: 214, 50..=500, 20;

    /// Lazy evaluation: a node without a stored or cached evaluation stands on the
    /// incremental part alone (material and placement) when that lies this far beyond what
    /// would cut the node. Fitted on `chariot bench`'s searches: at 500 the full evaluation
    /// fell on the other side of the bound in 0.08% of the quiescence nodes that could be cut,
    /// at 300 in about 0.9%.
    lazy_eval_margin: 504, 200..=1000, 25;

    /// Correction history: an entry's correction stays within `correction_max` centipawns,
    /// and a search of depth d moves an entry `min(d + 1, correction_weight_max) / 64` of the
    /// way to what it found.
    correction_max: 127, 32..=128, 8;
    correction_weight_max: 17, 4..=63, 2;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spsa_lines_in_both_formats() {
        let openbench = spsa_lines(false);
        let fishtest = spsa_lines(true);
        assert_eq!(openbench.lines().count(), TUNABLES.len());
        let rfp = TUNABLES.iter().find(|t| t.name == "rfp_margin").unwrap();
        let value = rfp.default;
        assert!(openbench.contains(&format!("rfp_margin, int, {value}, 30, 200, 8, 0.002\n")));
        assert!(fishtest.contains(&format!("rfp_margin,{value},30,200,8,0.002\n")));
    }
}
