//! The parameters a run tunes (name, start, range, last perturbation `c_end` and last learning
//! rate `r_end`): the search's own table or tuner lines from a file, checked against the spin
//! options the engine offers, and written back as `src/search/params.rs` declares them.

use crate::search::params::{Tunable, SPSA_LEARNING_RATE};

#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    pub name: String,
    pub start: f64,
    pub min: i32,
    pub max: i32,
    /// The perturbation at the last iteration (fishtest's `c_end`, OpenBench's step).
    pub c_end: f64,
    /// The learning rate at the last iteration (`r_end`, OpenBench's `lr`).
    pub r_end: f64,
}

impl SpsaParam {
    fn check(&self) -> Result<(), String> {
        let name = &self.name;
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ',') {
            return Err(format!(
                "'{name}' is not a parameter name (no spaces or commas)"
            ));
        }
        if !(self.start.is_finite()
            && self.min as f64 <= self.start
            && self.start <= self.max as f64)
        {
            return Err(format!(
                "{name}: start {} is not within {}..{}",
                self.start, self.min, self.max
            ));
        }
        if !(self.c_end.is_finite() && self.c_end > 0.0) {
            return Err(format!("{name}: the step must be positive"));
        }
        if !(self.r_end.is_finite() && self.r_end >= 0.0) {
            return Err(format!("{name}: the learning rate must not be negative"));
        }
        Ok(())
    }
}

/// The search's parameters as SPSA starts them: at their defaults, with their steps and the
/// usual learning rate.
pub fn from_table(table: &[Tunable]) -> Vec<SpsaParam> {
    table
        .iter()
        .map(|t| SpsaParam {
            name: t.name.to_string(),
            start: t.default.into(),
            min: t.min,
            max: t.max,
            c_end: t.step.into(),
            r_end: SPSA_LEARNING_RATE,
        })
        .collect()
}

/// Reads tuner lines, as `chariot spsa params` prints them: OpenBench's `name, int, value,
/// min, max, step, lr` or fishtest's `name,value,min,max,c_end,r_end`. Blank lines and `#`
/// comments are skipped; errors name the line.
pub fn parse_lines(text: &str, source: &str) -> Result<Vec<SpsaParam>, String> {
    let mut params: Vec<SpsaParam> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("{source}:{}: {e}", number + 1);
        let mut fields: Vec<&str> = line.split(',').map(str::trim).collect();
        match fields.len() {
            7 if fields[1] == "int" => {
                fields.remove(1);
            }
            7 => {
                return Err(at(format!(
                    "type '{}': only int parameters can be tuned",
                    fields[1]
                )))
            }
            6 => {}
            n => {
                return Err(at(format!(
                    "{n} fields; expected `name, int, value, min, max, step, lr` or \
                     `name,value,min,max,c_end,r_end`"
                )))
            }
        }
        let number = |i: usize, what: &str| {
            fields[i]
                .parse::<f64>()
                .map_err(|_| at(format!("{what} '{}' is not a number", fields[i])))
        };
        let integer = |i: usize, what: &str| {
            fields[i]
                .parse::<i32>()
                .map_err(|_| at(format!("{what} '{}' is not an integer", fields[i])))
        };
        let param = SpsaParam {
            name: fields[0].to_string(),
            start: number(1, "value")?,
            min: integer(2, "min")?,
            max: integer(3, "max")?,
            c_end: number(4, "step")?,
            r_end: number(5, "learning rate")?,
        };
        param.check().map_err(at)?;
        if params.iter().any(|p| p.name == param.name) {
            return Err(at(format!("{} is given twice", param.name)));
        }
        params.push(param);
    }
    if params.is_empty() {
        return Err(format!("{source}: no parameters"));
    }
    Ok(params)
}

/// The parameters named in `names` (all when empty), in the order of `params`.
pub fn select(params: Vec<SpsaParam>, names: &[String]) -> Result<Vec<SpsaParam>, String> {
    if let Some(unknown) = names.iter().find(|n| !params.iter().any(|p| &p.name == *n)) {
        let known: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
        return Err(format!(
            "--tune: no parameter '{unknown}' (there are {})",
            known.join(", ")
        ));
    }
    Ok(params
        .into_iter()
        .filter(|p| names.is_empty() || names.contains(&p.name))
        .collect())
}

/// The range of a spin option as the engine's handshake offers it (`option name NAME type spin
/// default D min A max B` in UCI, `option NAME type spin ...` in UCCI), with its name.
fn offered_spin(line: &str) -> Option<(&str, Option<(i64, i64)>)> {
    let rest = line.strip_prefix("option ")?;
    let rest = rest.strip_prefix("name ").unwrap_or(rest);
    let (name, rest) = rest.split_once(" type ")?;
    let mut words = rest.split_whitespace();
    if words.next() != Some("spin") {
        return Some((name, None));
    }
    let (mut min, mut max) = (None, None);
    while let (Some(key), Some(value)) = (words.next(), words.next()) {
        match key {
            "min" => min = value.parse().ok(),
            "max" => max = value.parse().ok(),
            _ => {}
        }
    }
    Some((name, min.zip(max)))
}

/// Checks that the engine offers every parameter as a spin option whose range holds the one
/// tuned, so no value the tuner sends is ignored or refused.
pub fn check_offered(params: &[SpsaParam], offered: &[String], engine: &str) -> Result<(), String> {
    for p in params {
        let found = offered
            .iter()
            .filter_map(|line| offered_spin(line))
            .find(|(name, _)| name.eq_ignore_ascii_case(&p.name));
        match found {
            None => {
                return Err(format!(
                    "{engine} offers no option {} (a chariot built with `--features spsa` \
                     offers every search parameter)",
                    p.name
                ))
            }
            Some((_, None)) => return Err(format!("{engine}: option {} is not a spin", p.name)),
            Some((_, Some((min, max)))) if i64::from(p.min) < min || i64::from(p.max) > max => {
                return Err(format!(
                    "{engine} takes {} in {min}..{max}, the run tunes it in {}..{}",
                    p.name, p.min, p.max
                ))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The lines of the `tunables!` block of `src/search/params.rs` with the tuned values
/// (`    name: value, min..=max, step;`), to replace the lines of the same names.
pub fn params_rs_lines(params: &[SpsaParam], theta: &[f64]) -> String {
    params
        .iter()
        .zip(theta)
        .map(|(p, t)| {
            format!(
                "    {}: {}, {}..={}, {};\n",
                p.name,
                t.round() as i64,
                p.min,
                p.max,
                p.c_end.round() as i64
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::{spsa_lines, TUNABLES};

    #[test]
    fn both_line_forms_read_back_the_table() {
        let table = from_table(TUNABLES);
        for fishtest in [false, true] {
            let read = parse_lines(&spsa_lines(fishtest), "lines").unwrap();
            assert_eq!(read, table, "fishtest: {fishtest}");
        }
    }

    #[test]
    fn bad_lines_are_refused_with_their_line() {
        let cases = [
            ("a, float, 1.5, 0, 3, 1, 0.002", "only int"),
            ("a, int, 5, 0, 3, 1, 0.002", "start 5 is not within 0..3"),
            ("a,1,0,3,0,0.002", "step must be positive"),
            ("a,1,0,3,1", "5 fields"),
            ("a,x,0,3,1,0.002", "value 'x'"),
            ("a,1,0,3,1,0.002\na,2,0,3,1,0.002", "given twice"),
        ];
        for (text, expected) in cases {
            let error = parse_lines(text, "f").unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
            assert!(error.starts_with("f:"), "{error}");
        }
        assert!(parse_lines("# nothing\n\n", "f").is_err());
    }

    #[test]
    fn a_subset_keeps_the_table_order() {
        let table = from_table(TUNABLES);
        let names = [TUNABLES[3].name.to_string(), TUNABLES[1].name.to_string()];
        let chosen = select(table.clone(), &names).unwrap();
        assert_eq!(chosen, vec![table[1].clone(), table[3].clone()]);
        assert!(select(table, &["nonsense".into()]).is_err());
    }

    #[test]
    fn the_engine_must_offer_each_parameter_within_its_range() {
        let params = parse_lines("rfp_margin,80,30,200,8,0.002", "f").unwrap();
        let uci = |line: &str| {
            vec![
                "option name Hash type spin default 16 min 1 max 64".into(),
                line.into(),
            ]
        };
        let ok = uci("option name rfp_margin type spin default 80 min 30 max 200");
        assert!(check_offered(&params, &ok, "e").is_ok());
        let ucci = vec!["option rfp_margin type spin min 0 max 300 default 80".to_string()];
        assert!(check_offered(&params, &ucci, "e").is_ok());
        let narrow = uci("option name rfp_margin type spin default 80 min 40 max 200");
        assert!(check_offered(&params, &narrow, "e")
            .unwrap_err()
            .contains("40..200"));
        let check = uci("option name rfp_margin type check default false");
        assert!(check_offered(&params, &check, "e")
            .unwrap_err()
            .contains("not a spin"));
        let missing = uci("option name other type spin default 1 min 0 max 2");
        assert!(check_offered(&params, &missing, "e")
            .unwrap_err()
            .contains("no option rfp_margin"));
    }

    #[test]
    fn params_rs_lines_round_the_values() {
        let params = parse_lines("rfp_margin,80,30,200,8,0.002", "f").unwrap();
        assert_eq!(
            params_rs_lines(&params, &[83.6]),
            "    rfp_margin: 84, 30..=200, 8;\n"
        );
    }
}
