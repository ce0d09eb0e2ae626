//! Reads the tunable weights out of `params.rs` and writes new values back into the same text:
//! only the numbers change, right-aligned in their columns, so a tuning run is an ordinary
//! reviewable diff of the file `build.rs` packs.

use crate::eval::params::{self, weight};

/// A weight pair per index of [`weight`], as integers.
pub type IntWeights = Vec<[i32; 2]>;

#[derive(Clone, Copy)]
enum Shape {
    /// `(mg, eg)`, or an array of n such pairs.
    Pairs(usize),
    /// A 90-entry table, one half (0 mg, 1 eg) of the pairs from `base`.
    Table(usize),
}

/// The piece-square tables' names by piece type, before `_MG`/`_EG`.
const TABLES: [&str; 7] = [
    "KING", "ADVISOR", "ELEPHANT", "HORSE", "ROOK", "CANNON", "PAWN",
];

/// Every tunable constant of `params.rs`, its shape and its first weight index: the linear
/// weights as `weights!` lists them, then the piece-square tables.
fn constants() -> Vec<(String, Shape, usize)> {
    let mut out = Vec::new();
    let mut base = 0;
    for &(name, pairs) in params::LINEAR_WEIGHTS {
        out.push((name.to_string(), Shape::Pairs(pairs), base));
        base += pairs;
    }
    debug_assert_eq!(base, weight::PST);
    for (kind, table) in TABLES.iter().enumerate() {
        for (half, suffix) in ["MG", "EG"].iter().enumerate() {
            let name = format!("{table}_{suffix}");
            out.push((name, Shape::Table(half), weight::PST + kind * 90));
        }
    }
    out
}

/// The slot of the n-th number of a constant: (weight index, half).
fn slot(shape: Shape, base: usize, n: usize) -> (usize, usize) {
    match shape {
        Shape::Pairs(_) => (base + n / 2, n % 2),
        Shape::Table(half) => (base + n, half),
    }
}

fn count(shape: Shape) -> usize {
    match shape {
        Shape::Pairs(pairs) => 2 * pairs,
        Shape::Table(_) => 90,
    }
}

/// A number literal in the text: byte range, and the blank run before it.
struct Literal {
    start: usize,
    end: usize,
    blanks: usize,
    value: i32,
}

/// The number literals of constant `name`'s initializer (between `=` and `;`).
fn literals(text: &str, name: &str) -> Result<Vec<Literal>, String> {
    let key = format!("pub const {name}:");
    let at = text
        .find(&key)
        .ok_or_else(|| format!("params.rs: no `{key}`"))?;
    let eq = at + text[at..].find('=').ok_or("params.rs: no `=`")? + 1;
    let end = eq + text[eq..].find(';').ok_or("params.rs: no `;`")?;
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = eq;
    while i < end {
        let negative = bytes[i] == b'-' && i + 1 < end && bytes[i + 1].is_ascii_digit();
        if bytes[i].is_ascii_digit() || negative {
            let start = i;
            i += 1;
            while i < end && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let value = text[start..i]
                .parse()
                .map_err(|_| format!("params.rs: bad number in {name}"))?;
            let blanks = text[..start].len() - text[..start].trim_end_matches(' ').len();
            out.push(Literal {
                start,
                end: i,
                blanks,
                value,
            });
        } else {
            i += 1;
        }
    }
    Ok(out)
}

/// The tunable weights written in `text` (a `params.rs`).
pub fn parse(text: &str) -> Result<IntWeights, String> {
    let mut w = vec![[0; 2]; weight::COUNT];
    for (name, shape, base) in constants() {
        let found = literals(text, &name)?;
        if found.len() != count(shape) {
            return Err(format!(
                "params.rs: {name} has {} numbers, expected {}",
                found.len(),
                count(shape)
            ));
        }
        for (n, lit) in found.iter().enumerate() {
            let (index, half) = slot(shape, base, n);
            w[index][half] = lit.value;
        }
    }
    Ok(w)
}

/// `text` with every tunable number replaced by its value in `w`. A number after a run of
/// blanks keeps the width of blanks + number (the aligned tables), down to one blank.
pub fn write(text: &str, w: &IntWeights) -> Result<String, String> {
    let mut edits = Vec::new();
    for (name, shape, base) in constants() {
        let found = literals(text, &name)?;
        if found.len() != count(shape) {
            return Err(format!("params.rs: {name} has the wrong shape"));
        }
        let values: Vec<i32> = (0..found.len())
            .map(|n| {
                let (index, half) = slot(shape, base, n);
                w[index][half]
            })
            .collect();
        // A table whose numbers grew wider widens every column alike, so it stays aligned.
        let widest = |lens: &mut dyn Iterator<Item = usize>| lens.max().unwrap_or(0);
        let old_width = widest(&mut found.iter().map(|l| l.end - l.start));
        let new_width = widest(&mut values.iter().map(|v| v.to_string().len()));
        // None: not an aligned table.
        let extra = match shape {
            Shape::Table(_) => Some(new_width.saturating_sub(old_width)),
            _ => None,
        };
        for (lit, value) in found.into_iter().zip(values) {
            edits.push((lit, value, extra));
        }
    }
    edits.sort_by_key(|(lit, _, _)| lit.start);
    let mut out = String::with_capacity(text.len() + 256);
    let mut copied = 0;
    for (lit, value, extra) in edits {
        let number = value.to_string();
        let blank_start = lit.start - lit.blanks;
        out.push_str(&text[copied..blank_start]);
        let blanks = if lit.blanks > 1 || extra.is_some() {
            (lit.blanks + extra.unwrap_or(0) + (lit.end - lit.start))
                .saturating_sub(number.len())
                .max(1)
        } else {
            lit.blanks
        };
        out.extend(std::iter::repeat_n(' ', blanks));
        out.push_str(&number);
        copied = lit.end;
    }
    out.push_str(&text[copied..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params;

    const PARAMS: &str = include_str!("../eval/params.rs");

    #[test]
    fn parse_reads_the_compiled_weights() {
        let w = parse(PARAMS).unwrap();
        assert_eq!(
            w[weight::PIECE_VALUE + 4],
            [params::PIECE_VALUE[4].0, params::PIECE_VALUE[4].1]
        );
        assert_eq!(w[weight::TEMPO], [params::TEMPO.0, params::TEMPO.1]);
        assert_eq!(
            w[weight::CONNECTED_PAWNS],
            [params::CONNECTED_PAWNS.0, params::CONNECTED_PAWNS.1]
        );
        for kind in 0..7 {
            for e in 0..90 {
                let pair = w[weight::PST + kind * 90 + e];
                assert_eq!(pair, [params::PST_MG[kind][e], params::PST_EG[kind][e]]);
            }
        }
        for kind in 0..7 {
            let m = params::MOBILITY[kind];
            assert_eq!(w[weight::MOBILITY + kind], [m.0, m.1]);
            let h = params::OUTNUMBERED[kind];
            assert_eq!(w[weight::OUTNUMBERED + kind], [h.0, h.1]);
        }
    }

    /// The writer's constants, derived from `weights!`'s list and the tables, give every
    /// weight index both halves exactly once.
    #[test]
    fn every_weight_has_one_place_in_the_text() {
        let mut seen = vec![[0; 2]; weight::COUNT];
        for (name, shape, base) in constants() {
            for n in 0..count(shape) {
                let (index, half) = slot(shape, base, n);
                seen[index][half] += 1;
            }
            assert!(PARAMS.contains(&format!("pub const {name}:")), "{name}");
        }
        assert!(seen.iter().all(|s| *s == [1, 1]));
    }

    #[test]
    fn round_trip_gives_the_same_text() {
        let w = parse(PARAMS).unwrap();
        assert_eq!(write(PARAMS, &w).unwrap(), PARAMS);
    }

    #[test]
    fn written_values_read_back_and_tables_stay_aligned() {
        let mut w = parse(PARAMS).unwrap();
        for (i, pair) in w.iter_mut().enumerate() {
            pair[0] = pair[0] * 3 / 2 - (i as i32 % 7);
            pair[1] = -pair[1] + 5;
        }
        let text = write(PARAMS, &w).unwrap();
        assert_eq!(parse(&text).unwrap(), w);
        // Table rows keep their width while numbers fit in three characters.
        let key = "pub const HORSE_MG: [i32; 90] = [\n";
        let row_of = |t: &str| {
            let at = t.find(key).unwrap() + key.len();
            t[at..].lines().next().unwrap().to_string()
        };
        let (old, new) = (row_of(PARAMS), row_of(&text));
        assert_ne!(old, new);
        if new.split(',').all(|cell| cell.trim().len() <= 3) {
            assert_eq!(old.len(), new.len(), "{old}\n{new}");
        }
        assert!(parse("pub const TEMPO: MgEg = (1, 2);").is_err());
    }

    #[test]
    fn a_table_with_wider_numbers_widens_all_its_columns() {
        let mut w = parse(PARAMS).unwrap();
        w[weight::PST + 3 * 90 + 40][0] = -1234;
        let text = write(PARAMS, &w).unwrap();
        assert_eq!(parse(&text).unwrap(), w);
        let key = "pub const HORSE_MG: [i32; 90] = [\n";
        let at = text.find(key).unwrap() + key.len();
        let rows: Vec<&str> = text[at..].lines().take(10).collect();
        assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{rows:#?}");
        assert!(rows[4].contains("-1234"));
    }
}
