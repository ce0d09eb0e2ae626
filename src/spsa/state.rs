//! A run's checkpoint: its settings, the random generator, the iterations and games played and
//! every parameter's current value, as lines of text rewritten (through a temporary file and
//! a rename) after every iteration, so a run that stops goes on from its last iteration.

use super::tunables::SpsaParam;
use std::io::Write;

const HEADER: &str = "# chariot spsa run checkpoint, rewritten after every iteration; \
                      `chariot spsa run --resume FILE` goes on";
const FORMAT: &str = "format 1";

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The run's settings as `chariot spsa run` words, read again on `--resume`.
    pub args: Vec<String>,
    /// The seed the run started from (for the record) and the generator's state now.
    pub seed: u64,
    pub rng: u64,
    /// Iterations done.
    pub iteration: u64,
    /// θ+'s wins, draws and losses over every game.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Seconds spent playing, over every session.
    pub seconds: f64,
    pub params: Vec<SpsaParam>,
    /// Each parameter's current value.
    pub theta: Vec<f64>,
}

impl State {
    pub fn to_text(&self) -> String {
        let mut text = format!("{HEADER}\n{FORMAT}\n");
        for arg in &self.args {
            text += &format!("arg {arg}\n");
        }
        text += &format!(
            "seed {}\nrng {}\niteration {}\nresults {} {} {}\nseconds {}\n",
            self.seed, self.rng, self.iteration, self.wins, self.draws, self.losses, self.seconds
        );
        text += "# param name value start min max c_end r_end\n";
        for (p, t) in self.params.iter().zip(&self.theta) {
            text += &format!(
                "param {} {t} {} {} {} {} {}\n",
                p.name, p.start, p.min, p.max, p.c_end, p.r_end
            );
        }
        text
    }

    pub fn parse(text: &str, source: &str) -> Result<State, String> {
        let mut lines = text.lines().filter(|l| !l.starts_with('#'));
        if lines.next() != Some(FORMAT) {
            return Err(format!("{source}: not a chariot spsa checkpoint"));
        }
        let mut state = State {
            args: Vec::new(),
            seed: 0,
            rng: 0,
            iteration: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            seconds: 0.0,
            params: Vec::new(),
            theta: Vec::new(),
        };
        let mut seen = Vec::new();
        for line in lines {
            let bad = || format!("{source}: cannot read '{line}'");
            let (key, rest) = line.split_once(' ').ok_or_else(bad)?;
            let whole = |n| numbers::<u64>(rest, n).ok_or_else(bad);
            match key {
                "arg" => state.args.push(rest.to_string()),
                "seed" => state.seed = whole(1)?[0],
                "rng" => state.rng = whole(1)?[0],
                "iteration" => state.iteration = whole(1)?[0],
                "results" => {
                    let r = whole(3)?;
                    (state.wins, state.draws, state.losses) = (r[0], r[1], r[2]);
                }
                "seconds" => state.seconds = numbers(rest, 1).ok_or_else(bad)?[0],
                "param" => {
                    let (name, values) = rest.split_once(' ').ok_or_else(bad)?;
                    let Some([theta, start, min, max, c_end, r_end]) =
                        numbers::<f64>(values, 6).and_then(|v| <[f64; 6]>::try_from(v).ok())
                    else {
                        return Err(bad());
                    };
                    let in_range = min <= theta && theta <= max;
                    if !in_range || min.fract() != 0.0 || max.fract() != 0.0 {
                        return Err(bad());
                    }
                    state.params.push(SpsaParam {
                        name: name.to_string(),
                        start,
                        min: min as i32,
                        max: max as i32,
                        c_end,
                        r_end,
                    });
                    state.theta.push(theta);
                }
                _ => return Err(bad()),
            }
            seen.push(key);
        }
        for key in ["seed", "rng", "iteration", "results", "seconds", "param"] {
            if !seen.contains(&key) {
                return Err(format!("{source}: no '{key}' line (a damaged checkpoint?)"));
            }
        }
        Ok(state)
    }

    /// Writes the checkpoint beside `path` and renames it into place, so a run killed while
    /// writing keeps the previous one whole.
    pub fn save(&self, path: &str) -> Result<(), String> {
        let temporary = format!("{path}.tmp");
        let write = || -> std::io::Result<()> {
            let mut file = std::fs::File::create(&temporary)?;
            file.write_all(self.to_text().as_bytes())?;
            file.sync_all()?;
            std::fs::rename(&temporary, path)
        };
        write().map_err(|e| format!("cannot write the checkpoint {path}: {e}"))
    }

    pub fn load(path: &str) -> Result<State, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the checkpoint {path}: {e}"))?;
        State::parse(&text, path)
    }
}

/// `n` numbers separated by single spaces.
fn numbers<T: std::str::FromStr>(text: &str, n: usize) -> Option<Vec<T>> {
    let values: Vec<T> = text
        .split(' ')
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    (values.len() == n).then_some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        State {
            args: vec![
                "--engine".into(),
                "cmd=/a path/chariot".into(),
                "arg=x".into(),
            ],
            seed: 17,
            rng: u64::MAX - 3,
            iteration: 12,
            wins: 7,
            draws: 10,
            losses: 7,
            seconds: 12.25,
            params: vec![SpsaParam {
                name: "rfp_margin".into(),
                start: 80.0,
                min: 30,
                max: 200,
                c_end: 8.0,
                r_end: 0.002,
            }],
            theta: vec![83.123_456_789_012_34],
        }
    }

    #[test]
    fn a_checkpoint_reads_back_exactly() {
        let state = state();
        assert_eq!(State::parse(&state.to_text(), "t").unwrap(), state);
    }

    #[test]
    fn a_damaged_checkpoint_is_refused() {
        let text = state().to_text();
        let cut = &text[..text.find("param").unwrap()];
        assert!(State::parse(cut, "t")
            .unwrap_err()
            .contains("no 'param' line"));
        let outside = text.replace("param rfp_margin 83.", "param rfp_margin 283.");
        assert!(State::parse(&outside, "t").is_err());
        assert!(State::parse("hello", "t")
            .unwrap_err()
            .contains("not a chariot spsa"));
    }

    #[test]
    fn saving_replaces_the_file_whole() {
        let path = std::env::temp_dir().join(format!("chariot-spsa-{}.state", std::process::id()));
        let path = path.to_str().unwrap();
        let mut state = state();
        state.save(path).unwrap();
        state.iteration = 13;
        state.save(path).unwrap();
        assert_eq!(State::load(path).unwrap(), state);
        assert!(!std::path::Path::new(&format!("{path}.tmp")).exists());
        std::fs::remove_file(path).unwrap();
    }
}
