//! What a run prints: a line after every iteration, and at the end each parameter's move and
//! the lines for `src/search/params.rs`.

use super::state::State;
use super::tunables;
use crate::console::{count, out, outln};

/// `1h02m`, `12m05s`, `8.3s` or `41ms`.
pub fn duration_text(seconds: f64) -> String {
    let whole = seconds.round() as u64;
    match whole {
        _ if seconds < 1.0 => format!("{:.0}ms", seconds * 1000.0),
        0..60 => format!("{seconds:.1}s"),
        60..3600 => format!("{}m{:02}s", whole / 60, whole % 60),
        _ => format!("{}h{:02}m", whole / 3600, whole % 3600 / 60),
    }
}

/// How far each parameter has moved, in its own steps (c_end).
fn drift(state: &State) -> Vec<f64> {
    state
        .params
        .iter()
        .zip(&state.theta)
        .map(|(p, t)| (t - p.start) / p.c_end)
        .collect()
}

/// The progress line: the iteration, its result, the games so far, how far the values have
/// drifted (the root mean square in steps, and the three that moved most) and the time left.
pub fn progress(state: &State, total: u64, result: i64, per_iteration: f64) -> String {
    let drift = drift(state);
    let rms = (drift.iter().map(|d| d * d).sum::<f64>() / drift.len() as f64).sqrt();
    let mut order: Vec<usize> = (0..drift.len()).collect();
    order.sort_by(|&a, &b| drift[b].abs().total_cmp(&drift[a].abs()));
    let most: Vec<String> = order
        .iter()
        .take(3)
        .map(|&i| {
            let p = &state.params[i];
            format!("{} {} → {:.2}", p.name, p.start, state.theta[i])
        })
        .collect();
    let left = (total - state.iteration) as f64 * per_iteration;
    format!(
        "[{}/{total}] {result:+} | games {}: θ+ +{} ={} -{} | drift {rms:.2} steps; {} | {}/iteration, {} left",
        state.iteration,
        state.wins + state.draws + state.losses,
        state.wins,
        state.draws,
        state.losses,
        most.join(", "),
        duration_text(per_iteration),
        duration_text(left)
    )
}

/// The result of a finished (or resumed finished) run: each value and the lines for params.rs.
pub fn final_report(state: &State) {
    let games = state.wins + state.draws + state.losses;
    outln!(
        "\nSPSA done: {} and {} (θ+ +{} ={} -{}) in {} of play.",
        count(state.iteration, "iteration"),
        count(games, "game"),
        state.wins,
        state.draws,
        state.losses,
        duration_text(state.seconds)
    );
    outln!(
        "{:<24} {:>8} {:>10} {:>8}",
        "parameter",
        "start",
        "tuned",
        "steps"
    );
    for ((p, t), d) in state.params.iter().zip(&state.theta).zip(drift(state)) {
        outln!("{:<24} {:>8} {t:>10.2} {d:>+8.2}", p.name, p.start);
    }
    outln!(
        "\nThe tuned values as the tunables! block of src/search/params.rs declares them \
         (each line replaces the line of its name):"
    );
    out!("{}", tunables::params_rs_lines(&state.params, &state.theta));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration_text(0.0413), "41ms");
        assert_eq!(duration_text(8.26), "8.3s");
        assert_eq!(duration_text(725.0), "12m05s");
        assert_eq!(duration_text(3720.0), "1h02m");
    }
}
