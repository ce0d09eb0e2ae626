//! Standings and the crosstable of a multi-engine match, from each pairing's W/D/L; the
//! console summary and the report print the same table.

use super::stats::{elo_from_score, Wdl};

/// One engine's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub engine: usize,
    pub wdl: Wdl,
}

impl Standing {
    pub fn points(&self) -> f64 {
        self.wdl.points()
    }

    /// Elo against the engines it met, from its score over all its games.
    pub fn elo(&self) -> Option<f64> {
        self.wdl.score().map(elo_from_score)
    }
}

/// Standings best first, and `cross[i][j]`: engine i's W/D/L against engine j.
#[derive(Clone, Debug)]
pub struct Table {
    pub rows: Vec<Standing>,
    pub cross: Vec<Vec<Option<Wdl>>>,
}

fn add(total: &mut Wdl, wdl: Wdl) {
    total.wins += wdl.wins;
    total.draws += wdl.draws;
    total.losses += wdl.losses;
}

fn flipped(wdl: Wdl) -> Wdl {
    Wdl {
        wins: wdl.losses,
        draws: wdl.draws,
        losses: wdl.wins,
    }
}

/// From the results of each pairing `(first, second)`, W/D/L from the first's side.
pub fn table(engines: usize, results: &[((usize, usize), Wdl)]) -> Table {
    let mut cross = vec![vec![None::<Wdl>; engines]; engines];
    let mut totals = vec![Wdl::default(); engines];
    for &((a, b), wdl) in results {
        add(cross[a][b].get_or_insert_with(Wdl::default), wdl);
        add(cross[b][a].get_or_insert_with(Wdl::default), flipped(wdl));
        add(&mut totals[a], wdl);
        add(&mut totals[b], flipped(wdl));
    }
    let mut rows: Vec<Standing> = totals
        .into_iter()
        .enumerate()
        .map(|(engine, wdl)| Standing { engine, wdl })
        .collect();
    // Points first, then the better score over fewer games (a gauntlet's side engines).
    rows.sort_by(|x, y| {
        y.points().total_cmp(&x.points()).then(
            y.wdl
                .score()
                .unwrap_or(0.0)
                .total_cmp(&x.wdl.score().unwrap_or(0.0)),
        )
    });
    Table { rows, cross }
}

/// The table as console text.
pub fn text(table: &Table, names: &[String]) -> String {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    let mut out = format!(
        "Standings:\n   #  {:<width$}  games  points   score   Elo\n",
        "engine"
    );
    for (rank, row) in table.rows.iter().enumerate() {
        out += &format!(
            "  {:>2}. {:<width$}  {:>5}  {:>6.1}  {:>5.1}%  {}\n",
            rank + 1,
            names[row.engine],
            row.wdl.games(),
            row.points(),
            100.0 * row.wdl.score().unwrap_or(0.0),
            row.elo().map_or("-".into(), super::stats::signed)
        );
    }
    out += "Crosstable (points of the row engine against the column engine / games):\n";
    out += &format!("  {:<width$}", "");
    for row in &table.rows {
        out += &format!(" {:>9}", abbreviate(&names[row.engine], 9));
    }
    out += "\n";
    for row in &table.rows {
        out += &format!("  {:<width$}", names[row.engine]);
        for col in &table.rows {
            let cell = table.cross[row.engine][col.engine]
                .map_or("-".to_string(), |w| format!("{}/{}", w.points(), w.games()));
            out += &format!(" {cell:>9}");
        }
        out += "\n";
    }
    out
}

fn abbreviate(name: &str, width: usize) -> String {
    name.chars().take(width).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gauntlet_ranks_by_points_and_the_crosstable_is_mirrored() {
        let wdl = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        // Engine 0 against 1 and 2; 1 and 2 never meet.
        let t = table(3, &[((0, 1), wdl(3, 1, 0)), ((0, 2), wdl(1, 0, 3))]);
        let order: Vec<usize> = t.rows.iter().map(|r| r.engine).collect();
        assert_eq!(order, [0, 2, 1]);
        assert_eq!(t.rows[0].points(), 4.5);
        assert_eq!(t.rows[0].wdl.games(), 8);
        assert_eq!(t.cross[1][0], Some(wdl(0, 1, 3)));
        assert_eq!(t.cross[1][2], None);
        let names = ["Lead".to_string(), "B".into(), "C".into()];
        let text = text(&t, &names);
        assert!(
            text.contains("   1. Lead        8     4.5   56.2%"),
            "{text}"
        );
        let b_row = text.lines().last().unwrap();
        assert!(
            b_row.starts_with("  B ") && b_row.contains("0.5/4"),
            "{text}"
        );
        assert_eq!(
            b_row.split_whitespace().filter(|c| *c == "-").count(),
            2,
            "{text}"
        );
    }
}
