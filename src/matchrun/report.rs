//! `--report FILE.html|FILE.svg`: one self-contained page, rewritten after every game: the
//! match's settings and engines, standings and crosstable, per pairing the figures, score and
//! Elo over games, the SPRT's LLR path, W/D/L by colour and endings, the time per move, and
//! the list of games with each game's PGN. Hand-written SVG charts; no script, nothing
//! fetched, so the file opens offline.

use super::game::GameRecord;
use super::output::PairingStats;
use super::sprt::Sprt;
use super::standings;
use super::stats::{signed, Wdl};
use crate::console::count;
use crate::output_file::OutputPath;
use crate::Color;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The state of one pairing after one of its games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// First engine's score, 0..1.
    pub score: f64,
    pub elo: f64,
    /// The 95% interval (infinite ends where every game so far was won or lost).
    pub low: f64,
    pub high: f64,
    pub llr: Option<f64>,
}

#[derive(Clone, Debug, Default)]
pub struct PairingSeries {
    pub first: String,
    pub second: String,
    /// One point per finished game of the pairing, in order.
    pub points: Vec<Point>,
    /// The first engine's results playing Red and playing Black.
    pub as_red: Wdl,
    pub as_black: Wdl,
    pub endings: BTreeMap<&'static str, u32>,
    pub summary: String,
    /// The two engines' indices.
    pub ids: (usize, usize),
    /// The summary's figures as (name, value) rows.
    pub figures: Vec<(String, String)>,
    /// The latest Elo interval as the console prints it.
    pub elo_text: String,
}

/// Time an engine used per move.
#[derive(Clone, Debug, Default)]
pub struct EngineTimes {
    pub name: String,
    /// Average milliseconds per move in each game it played, in order of finishing.
    pub per_game_ms: Vec<f64>,
    pub total_ms: f64,
    pub moves: u64,
    pub max_ms: f64,
}

/// One engine as the match runs it.
#[derive(Clone, Debug, Default)]
pub struct EngineRow {
    pub name: String,
    pub command: String,
    pub protocol: String,
    pub options: String,
    pub limits: String,
}

/// One finished game for the list.
#[derive(Clone, Debug, Default)]
pub struct GameRow {
    pub round: u64,
    pub red: String,
    pub black: String,
    pub opening: String,
    pub result: &'static str,
    pub ending: String,
    pub reason: String,
    pub plies: usize,
    pub pgn: String,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub title: String,
    /// Settings shown under the title: time control, date, runner version, ...
    pub info: Vec<(String, String)>,
    pub engine_rows: Vec<EngineRow>,
    pub game_rows: Vec<GameRow>,
    pub sprt: Option<Sprt>,
    pub pairings: Vec<PairingSeries>,
    pub engines: Vec<EngineTimes>,
    pub games: u64,
    /// Games planned, `None` when open-ended (SPRT).
    pub total: Option<u64>,
}

fn wdl_add(wdl: &mut Wdl, points: f64) {
    match points {
        p if p > 0.75 => wdl.wins += 1,
        p if p < 0.25 => wdl.losses += 1,
        _ => wdl.draws += 1,
    }
}

impl Report {
    pub fn new(title: &str, sprt: Option<Sprt>, engines: &[String], total: Option<u64>) -> Report {
        Report {
            title: title.to_string(),
            sprt,
            pairings: Vec::new(),
            engines: engines
                .iter()
                .map(|name| EngineTimes {
                    name: name.clone(),
                    ..Default::default()
                })
                .collect(),
            games: 0,
            total,
            ..Default::default()
        }
    }

    /// Adds a finished game of pairing `pairing` (engines `ids`, first engine's `points`),
    /// with the pairing's statistics after it.
    pub fn add_game(
        &mut self,
        pairing: usize,
        ids: (usize, usize),
        stats: &PairingStats,
        first_points: f64,
        record: &GameRecord,
    ) {
        self.games += 1;
        while self.pairings.len() <= pairing {
            self.pairings.push(PairingSeries::default());
        }
        let series = &mut self.pairings[pairing];
        series.first = stats.first.clone();
        series.second = stats.second.clone();
        let estimate = stats.elo();
        series.points.push(Point {
            score: stats.wdl.score().unwrap_or(0.5),
            elo: estimate.map_or(0.0, |e| e.elo),
            low: estimate.map_or(f64::NAN, |e| e.low),
            high: estimate.map_or(f64::NAN, |e| e.high),
            llr: self.sprt.map(|s| s.llr(&stats.penta)),
        });
        let first_red = record.red == stats.first;
        wdl_add(
            if first_red {
                &mut series.as_red
            } else {
                &mut series.as_black
            },
            first_points,
        );
        *series.endings.entry(record.label).or_default() += 1;
        series.summary = stats.summary(self.sprt.as_ref());
        series.ids = ids;
        series.figures = figures(stats, self.sprt.as_ref());
        series.elo_text = stats.elo_text();
        let (red, black) = if first_red {
            (ids.0, ids.1)
        } else {
            (ids.1, ids.0)
        };
        for (engine, color) in [(red, Color::Red), (black, Color::Black)] {
            let times: Vec<f64> = record
                .moves
                .iter()
                .enumerate()
                .filter(|(_, m)| !m.book)
                .filter(|(i, _)| side_of_ply(record, *i) == color)
                .map(|(_, m)| m.time.as_secs_f64() * 1000.0)
                .collect();
            let e = &mut self.engines[engine];
            let sum: f64 = times.iter().sum();
            e.total_ms += sum;
            e.moves += times.len() as u64;
            e.max_ms = times.iter().copied().fold(e.max_ms, f64::max);
            e.per_game_ms.push(if times.is_empty() {
                0.0
            } else {
                sum / times.len() as f64
            });
        }
    }

    /// Adds a finished game to the list of games.
    pub fn list_game(&mut self, row: GameRow) {
        self.game_rows.push(row);
    }

    /// The report as a standalone HTML page.
    pub fn html(&self) -> String {
        let mut out = String::new();
        let title = escape(&self.title);
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width\">\n<title>{title}</title>\n<style>\n{STYLE}</style>\n\
             </head>\n<body>\n<h1>{title}</h1>\n<p>{}</p>\n",
            self.progress_text()
        );
        out += "<div class=\"grid\">\n<div>\n<h2>Match</h2>\n<table class=\"info\">\n";
        out += &name_value_rows(&self.info);
        out += "</table>\n</div>\n<div>\n<h2>Engines</h2>\n";
        out += &self.engine_table();
        out += "</div>\n</div>\n";
        if self.engines.len() > 2 {
            out += &self.standings_html();
        }
        for (index, p) in self.pairings.iter().enumerate() {
            let _ = writeln!(
                out,
                "<h2>{} vs {}</h2>\n<div class=\"grid\">\n<div>",
                escape(&p.first),
                escape(&p.second)
            );
            out += "<table class=\"figures\">\n";
            out += &name_value_rows(&p.figures);
            out += "</table>\n";
            out += &colour_table(p);
            out += &endings_chart(p).svg();
            out += "</div>\n<div>\n";
            for chart in self.pairing_charts(index) {
                out += &chart.svg();
            }
            out += "</div>\n</div>\n";
        }
        out += "<h2>Time per move</h2>\n<div class=\"grid\">\n<div>";
        out += &self.time_table();
        out += "</div>\n<div>";
        out += &self.time_chart().svg();
        out += "</div>\n</div>\n";
        out += &self.games_html();
        out += "</body>\n</html>\n";
        out
    }

    fn engine_table(&self) -> String {
        let mut out = String::from(
            "<table class=\"engines\">\n<tr><th>engine</th><th>command</th><th>protocol</th>\
             <th>options</th><th>limits</th></tr>\n",
        );
        for e in &self.engine_rows {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&e.name),
                escape(&e.command),
                escape(&e.protocol),
                escape(&e.options),
                escape(&e.limits)
            );
        }
        out + "</table>\n"
    }

    fn standings(&self) -> standings::Table {
        let results: Vec<_> = self
            .pairings
            .iter()
            .map(|p| {
                let mut wdl = p.as_red;
                wdl.wins += p.as_black.wins;
                wdl.draws += p.as_black.draws;
                wdl.losses += p.as_black.losses;
                (p.ids, wdl)
            })
            .collect();
        standings::table(self.engines.len(), &results)
    }

    fn standings_html(&self) -> String {
        let table = self.standings();
        let name = |i: usize| escape(&self.engines[i].name);
        let mut out = String::from(
            "<h2>Standings</h2>\n<div class=\"grid\">\n<div>\n<table class=\"standings\">\n\
             <tr><th>#</th><th>engine</th><th>games</th><th>W</th><th>D</th><th>L</th>\
             <th>points</th><th>score</th><th>Elo</th></tr>\n",
        );
        for (rank, row) in table.rows.iter().enumerate() {
            let w = row.wdl;
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                 <td>{:.1}</td><td>{}</td><td>{}</td></tr>",
                rank + 1,
                name(row.engine),
                w.games(),
                w.wins,
                w.draws,
                w.losses,
                row.points(),
                w.score()
                    .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
                row.elo().map_or("-".into(), signed)
            );
        }
        out += "</table>\n</div>\n<div>\n<table class=\"crosstable\">\n<tr><th>points / games</th>";
        for col in &table.rows {
            let _ = write!(out, "<th>{}</th>", name(col.engine));
        }
        out += "</tr>\n";
        for row in &table.rows {
            let _ = write!(out, "<tr><th>{}</th>", name(row.engine));
            for col in &table.rows {
                let cell = table.cross[row.engine][col.engine]
                    .map_or("-".to_string(), |w| format!("{}/{}", w.points(), w.games()));
                let _ = write!(out, "<td>{cell}</td>");
            }
            out += "</tr>\n";
        }
        out + "</table>\n</div>\n</div>\n"
    }

    fn games_html(&self) -> String {
        let mut out = String::from(
            "<h2>Games</h2>\n<table class=\"games\">\n<tr><th>#</th><th>Red</th><th>Black</th>\
             <th>opening</th><th>result</th><th>ending</th><th>plies</th><th>PGN</th></tr>\n",
        );
        for g in &self.game_rows {
            let _ = writeln!(
                out,
                "<tr class=\"game\"><td>{0}</td><td>{1}</td><td>{2}</td><td>{3}</td><td>{4}</td>\
                 <td title=\"{5}\">{6}</td><td>{7}</td><td><a href=\"#pgn-{0}\">PGN</a></td></tr>",
                g.round,
                escape(&g.red),
                escape(&g.black),
                escape(&g.opening),
                g.result,
                escape(&g.reason),
                escape(&g.ending),
                g.plies
            );
        }
        out += "</table>\n<h2>PGN</h2>\n";
        for g in &self.game_rows {
            let _ = writeln!(
                out,
                "<details id=\"pgn-{}\"><summary>Game {}: {} vs {}, {}</summary><pre>{}</pre></details>",
                g.round,
                g.round,
                escape(&g.red),
                escape(&g.black),
                g.result,
                escape(&g.pgn)
            );
        }
        out
    }

    /// The report as one SVG image: the same charts stacked, with the numbers as text.
    pub fn svg(&self) -> String {
        let mut charts = vec![Chart::text_block(
            &std::iter::once(self.title.clone())
                .chain(std::iter::once(self.progress_text()))
                .collect::<Vec<_>>(),
        )];
        for (index, p) in self.pairings.iter().enumerate() {
            let mut lines = vec![format!("{} vs {}", p.first, p.second)];
            lines.extend(p.summary.lines().skip(1).map(|l| l.trim().to_string()));
            for (name, wdl) in [("as Red", p.as_red), ("as Black", p.as_black)] {
                lines.push(format!(
                    "{} {name}: +{} ={} -{}",
                    p.first, wdl.wins, wdl.draws, wdl.losses
                ));
            }
            charts.push(Chart::text_block(&lines));
            charts.extend(self.pairing_charts(index));
            charts.push(endings_chart(p));
        }
        let lines: Vec<String> = self
            .engines
            .iter()
            .map(|e| {
                format!(
                    "{}: {}, {:.1} ms per move, longest {:.1} ms",
                    e.name,
                    count(e.moves, "move"),
                    e.total_ms / e.moves.max(1) as f64,
                    e.max_ms
                )
            })
            .collect();
        charts.push(Chart::text_block(&lines));
        charts.push(self.time_chart());
        let height: f64 = charts.iter().map(|c| c.height + 10.0).sum();
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" \
             viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        );
        let mut y = 0.0;
        for chart in &charts {
            let _ = writeln!(out, "<g transform=\"translate(0,{y})\">{}</g>", chart.body);
            y += chart.height + 10.0;
        }
        out += "</svg>\n";
        out
    }

    fn progress_text(&self) -> String {
        let total = self
            .total
            .map_or("? games".to_string(), |t| count(t, "game"));
        format!("{} of {total} finished.", self.games)
    }

    fn pairing_charts(&self, index: usize) -> Vec<Chart> {
        let p = &self.pairings[index];
        let xs = |f: &dyn Fn(&Point) -> f64| -> Vec<(f64, f64)> {
            p.points
                .iter()
                .enumerate()
                .map(|(i, point)| ((i + 1) as f64, f(point)))
                .collect()
        };
        // The axis comes from the finite estimates and the latest interval: an infinite
        // estimate (all won or lost so far) is drawn at the edge, and the wide intervals of
        // the first games are clipped rather than squeezing the rest of the line flat.
        let latest = p.points.last().map_or([0.0; 2], |pt| [pt.low, pt.high]);
        let finite = p
            .points
            .iter()
            .map(|pt| pt.elo)
            .chain(latest)
            .filter(|v| v.is_finite())
            .map(|v| v.clamp(-ELO_CLIP, ELO_CLIP));
        let (mut low, mut high) = finite.fold((0.0f64, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        if high - low < 1.0 {
            (low, high) = (low - 100.0, high + 100.0);
        }
        let clip = |v: f64| v.clamp(low, high);
        let band: Vec<(f64, f64, f64)> = p
            .points
            .iter()
            .enumerate()
            .filter(|(_, point)| !point.low.is_nan() && !point.high.is_nan())
            .map(|(i, point)| ((i + 1) as f64, clip(point.low), clip(point.high)))
            .collect();
        // The score axis is centred on 50%, wide enough for every point.
        let score_reach = p
            .points
            .iter()
            .map(|pt| (100.0 * pt.score - 50.0).abs())
            .fold(10.0f64, f64::max)
            .min(50.0);
        let mut charts = vec![
            Chart::lines(
                &format!("Score of {} (%) after each game", p.first),
                &[Series::new(
                    "score",
                    "score %",
                    "#1f77b4",
                    xs(&|pt| 100.0 * pt.score),
                )],
                &[(50.0, "50%")],
                None,
                Axis {
                    range: Some((50.0 - score_reach, 50.0 + score_reach)),
                    unit: "%",
                },
            ),
            Chart::lines(
                &format!(
                    "Elo of {} with its 95% interval (while every game is won, or every game \
                     lost, the Elo has no finite value and is drawn at the chart's edge)",
                    p.first
                ),
                &[Series::new("elo", "Elo", "#d62728", xs(&|pt| clip(pt.elo)))
                    .with_last(p.elo_text.clone())],
                &[(0.0, "0")],
                Some(&band),
                Axis {
                    range: Some((low, high)),
                    unit: "",
                },
            ),
        ];
        if let Some(sprt) = self.sprt {
            let (lower, upper) = sprt.bounds();
            charts.push(Chart::lines(
                &format!(
                    "SPRT elo0={} elo1={}: log-likelihood ratio after each game",
                    sprt.elo0, sprt.elo1
                ),
                &[Series::new(
                    "llr",
                    "LLR",
                    "#2ca02c",
                    xs(&|pt| pt.llr.unwrap_or(0.0)),
                )],
                &[
                    (lower, &format!("H0 {lower:.2}")),
                    (upper, &format!("H1 {upper:.2}")),
                ],
                None,
                Axis::default(),
            ));
        }
        charts
    }

    fn time_table(&self) -> String {
        let mut out = String::from(
            "<table>\n<tr><th>engine</th><th>moves</th><th>ms per move</th><th>longest (ms)</th></tr>\n",
        );
        for e in &self.engines {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{:.1}</td><td>{:.1}</td></tr>",
                escape(&e.name),
                e.moves,
                e.total_ms / e.moves.max(1) as f64,
                e.max_ms
            );
        }
        out + "</table>\n"
    }

    fn time_chart(&self) -> Chart {
        let series: Vec<Series> = self
            .engines
            .iter()
            .enumerate()
            .map(|(i, e)| {
                Series::new(
                    &format!("time-{i}"),
                    &e.name,
                    PALETTE[i % PALETTE.len()],
                    e.per_game_ms
                        .iter()
                        .enumerate()
                        .map(|(g, ms)| ((g + 1) as f64, *ms))
                        .collect(),
                )
            })
            .collect();
        Chart::lines(
            "Average time per move in each game, by engine",
            &series,
            &[],
            None,
            Axis {
                range: None,
                unit: " ms",
            },
        )
    }

    /// Writes the report (HTML, or SVG for a `.svg` path) through a temporary file, so a
    /// browser reloading it never sees half a page.
    pub fn write(&self, path: &OutputPath) -> Result<(), String> {
        let text = if path.shown().to_ascii_lowercase().ends_with(".svg") {
            self.svg()
        } else {
            self.html()
        };
        path.write(text.as_bytes())
    }
}

/// Which side made the `i`-th move of the record.
fn side_of_ply(record: &GameRecord, i: usize) -> Color {
    let black_first = record.fen.split_whitespace().nth(1) == Some("b");
    if (i % 2 == 1) != black_first {
        Color::Black
    } else {
        Color::Red
    }
}

/// One table row a pair: the name as its heading, then the value.
fn name_value_rows(rows: &[(String, String)]) -> String {
    let mut out = String::new();
    for (name, value) in rows {
        let _ = writeln!(
            out,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(name),
            escape(value)
        );
    }
    out
}

fn colour_table(p: &PairingSeries) -> String {
    let mut out = format!(
        "<table>\n<tr><th>{} playing</th><th>W</th><th>D</th><th>L</th><th>score</th></tr>\n",
        escape(&p.first)
    );
    for (name, wdl) in [("Red", p.as_red), ("Black", p.as_black)] {
        let _ = writeln!(
            out,
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            wdl.wins,
            wdl.draws,
            wdl.losses,
            wdl.score()
                .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s))
        );
    }
    out + "</table>\n"
}

fn endings_chart(p: &PairingSeries) -> Chart {
    let rows: Vec<(String, u32)> = p.endings.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    Chart::bars(
        &format!("Endings by reason ({} vs {})", p.first, p.second),
        &rows,
    )
}

const WIDTH: f64 = 760.0;
/// Chart text sizes, in the chart's units: a chart is never drawn wider than `WIDTH` pixels
/// (see `STYLE`), so these are the smallest sizes shown on a wide screen, and a narrow one
/// (a two-column layout's 540 pixels) still shows ticks at 10 pixels.
const TICK_FONT: u32 = 14;
const TEXT_FONT: u32 = 14;
const TITLE_FONT: u32 = 16;

/// Full page width: two columns of charts on a wide screen, one on a narrow one; charts
/// scale with their column.
const STYLE: &str = "body{font-family:sans-serif;margin:1em 2em;color:#222}\n\
h1{margin:0.2em 0}h2{margin:1em 0 0.3em;border-bottom:1px solid #ddd}\n\
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(540px,1fr));gap:0.5em 2em;\
align-items:start}.grid>div{min-width:0;overflow-x:auto}\n\
code{word-break:break-all}\n\
table{border-collapse:collapse;margin:0.5em 0 1em}\n\
td,th{border:1px solid #bbb;padding:0.2em 0.6em;text-align:right}\n\
th{background:#eee}td:first-child,th:first-child{text-align:left}\n\
table.info th,table.figures th{text-align:left}table.info td,table.figures td,\
table.engines td{text-align:left}table.games{width:100%}\n\
table.games td,table.games th{text-align:left}table.games td:nth-child(7){text-align:right}\n\
svg{display:block;width:100%;max-width:760px;height:auto;margin:0.5em 0}\n\
details pre{background:#f6f6f6;padding:0.6em;white-space:pre-wrap}\n";
const ELO_CLIP: f64 = 1000.0;
const PALETTE: [&str; 6] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The pairing's figures as the console summary gives them.
fn figures(stats: &PairingStats, sprt: Option<&Sprt>) -> Vec<(String, String)> {
    let w = stats.wdl;
    let p = stats.penta.0;
    let mut rows = vec![
        (
            "games".to_string(),
            format!(
                "{} ({})",
                w.games(),
                count(stats.penta.pairs().into(), "pair")
            ),
        ),
        (
            "W/D/L".into(),
            format!("{} / {} / {}", w.wins, w.draws, w.losses),
        ),
        (
            "score".into(),
            format!("{:.1}%", 100.0 * w.score().unwrap_or(0.5)),
        ),
        ("Elo".into(), stats.elo_text()),
        ("LOS".into(), format!("{:.1}%", 100.0 * w.los())),
        (
            "draw ratio".into(),
            format!("{:.1}%", 100.0 * w.draw_ratio().unwrap_or(0.0)),
        ),
        (
            "pentanomial [0, 0.5, 1, 1.5, 2]".into(),
            format!("[{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]),
        ),
    ];
    if let Some(sprt) = sprt {
        rows.push(("SPRT".into(), stats.sprt_text(sprt)));
    }
    rows
}

/// One polyline: `id` names it in the SVG (`data-series`), `label` in the legend.
struct Series {
    id: String,
    label: String,
    color: &'static str,
    points: Vec<(f64, f64)>,
    /// The latest value as the legend shows it.
    last: String,
}

impl Series {
    fn new(id: &str, label: &str, color: &'static str, points: Vec<(f64, f64)>) -> Series {
        let last = points.last().map_or("-".into(), |p| short(p.1));
        Series {
            id: id.to_string(),
            label: label.to_string(),
            color,
            points,
            last,
        }
    }

    /// Shows `text` as the latest value (for a series plotted clipped).
    fn with_last(mut self, text: String) -> Series {
        self.last = text;
        self
    }
}

/// How a line chart's value axis is drawn: a fixed range (else the data's) and a unit.
#[derive(Clone, Copy, Default)]
struct Axis {
    range: Option<(f64, f64)>,
    unit: &'static str,
}

/// An SVG fragment of known height (width is `WIDTH`).
struct Chart {
    body: String,
    height: f64,
}

impl Chart {
    fn svg(&self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{}\" \
             viewBox=\"0 0 {WIDTH} {}\" font-family=\"sans-serif\">{}</svg>\n",
            self.height, self.height, self.body
        )
    }

    fn text_block(lines: &[String]) -> Chart {
        let mut body = String::new();
        for (i, line) in lines.iter().enumerate() {
            let _ = write!(
                body,
                "<text x=\"10\" y=\"{}\" font-size=\"13\" font-family=\"monospace\" \
                 xml:space=\"preserve\">{}</text>",
                18 + 17 * i,
                escape(line)
            );
        }
        Chart {
            body,
            height: 10.0 + 17.0 * lines.len() as f64,
        }
    }

    /// Line chart over x = 1..n with optional horizontal reference lines and a band
    /// (x, low, high).
    fn lines(
        title: &str,
        series: &[Series],
        references: &[(f64, &str)],
        band: Option<&[(f64, f64, f64)]>,
        axis: Axis,
    ) -> Chart {
        let (height, left, right, top, bottom) = (240.0, 60.0, WIDTH - 20.0, 30.0, 240.0 - 30.0);
        let values = series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .chain(references.iter().map(|r| r.0))
            .chain(band.into_iter().flatten().flat_map(|b| [b.1, b.2]))
            .filter(|v| v.is_finite());
        let (mut lo, mut hi) = values.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        if lo > hi {
            (lo, hi) = (0.0, 1.0);
        }
        if let Some(range) = axis.range {
            (lo, hi) = range;
        }
        if hi - lo < 1e-9 {
            (lo, hi) = (lo - 1.0, hi + 1.0);
        }
        let pad = 0.05 * (hi - lo);
        (lo, hi) = (lo - pad, hi + pad);
        let n = series
            .iter()
            .map(|s| s.points.len())
            .max()
            .unwrap_or(0)
            .max(2) as f64;
        let x = |v: f64| left + (v - 1.0) / (n - 1.0) * (right - left);
        let y = |v: f64| bottom - (v - lo) / (hi - lo) * (bottom - top);
        let mut body = format!(
            "<text x=\"{left}\" y=\"18\" font-size=\"{TITLE_FONT}\" font-weight=\"bold\">{}</text>\
             <rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>",
            escape(title),
            right - left,
            bottom - top
        );
        // Labelled ticks at round steps (1, 2 or 5 times a power of ten), with light grid lines.
        let (step, decimals) = tick_step((hi - lo - 2.0 * pad) / 4.0);
        let mut k = (lo / step).ceil();
        while k * step <= hi {
            let value = k * step;
            let _ = write!(
                body,
                "<line x1=\"{left}\" x2=\"{right}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#eee\"/>\
                 <text x=\"{1}\" y=\"{2:.1}\" font-size=\"{TICK_FONT}\" text-anchor=\"end\">{3:.4$}{5}</text>",
                y(value),
                left - 4.0,
                y(value) + 4.0,
                value + 0.0, // no "-0"
                decimals,
                axis.unit
            );
            k += 1.0;
        }
        let _ = write!(
            body,
            "<text x=\"{left}\" y=\"{}\" font-size=\"{TICK_FONT}\">1</text>\
             <text x=\"{right}\" y=\"{}\" font-size=\"{TICK_FONT}\" text-anchor=\"end\">{}</text>",
            bottom + 14.0,
            bottom + 14.0,
            count(n as u64, "game")
        );
        if let Some(band) = band.filter(|b| !b.is_empty()) {
            let upper = band.iter().map(|b| format!("{:.1},{:.1}", x(b.0), y(b.2)));
            let lower = band
                .iter()
                .rev()
                .map(|b| format!("{:.1},{:.1}", x(b.0), y(b.1)));
            let _ = write!(
                body,
                "<polygon data-band=\"{}\" points=\"{}\" fill=\"#d62728\" fill-opacity=\"0.15\" stroke=\"none\"/>",
                band.len(),
                upper.chain(lower).collect::<Vec<_>>().join(" ")
            );
        }
        for (value, text) in references {
            let _ = write!(
                body,
                "<line x1=\"{left}\" x2=\"{right}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#888\" \
                 stroke-dasharray=\"4 3\"/><text x=\"{1}\" y=\"{2:.1}\" font-size=\"{TICK_FONT}\">{3}</text>",
                y(*value),
                right + 2.0 - 40.0,
                y(*value) - 3.0,
                escape(text)
            );
        }
        for (i, s) in series.iter().enumerate() {
            let points: Vec<String> = s
                .points
                .iter()
                .map(|p| format!("{:.1},{:.1}", x(p.0), y(p.1)))
                .collect();
            let _ = write!(
                body,
                "<polyline data-series=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\
                 <text x=\"{}\" y=\"{}\" font-size=\"{TEXT_FONT}\" fill=\"{}\">{}: {}</text>",
                escape(&s.id),
                s.color,
                points.join(" "),
                left + 6.0 + 190.0 * i as f64,
                top + 14.0,
                s.color,
                escape(&s.label),
                escape(&s.last)
            );
        }
        Chart { body, height }
    }

    /// Horizontal bars with their counts.
    fn bars(title: &str, rows: &[(String, u32)]) -> Chart {
        let max = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1) as f64;
        let (left, width) = (190.0, WIDTH - 190.0 - 60.0);
        let mut body = format!(
            "<text x=\"10\" y=\"18\" font-size=\"{TITLE_FONT}\" font-weight=\"bold\">{}</text>",
            escape(title)
        );
        for (i, (label, count)) in rows.iter().enumerate() {
            let y = 30.0 + 22.0 * i as f64;
            let _ = write!(
                body,
                "<text x=\"{}\" y=\"{}\" font-size=\"{TEXT_FONT}\" text-anchor=\"end\">{}</text>\
                 <rect data-ending=\"{}\" data-count=\"{count}\" x=\"{left}\" y=\"{y}\" width=\"{:.1}\" height=\"16\" fill=\"#1f77b4\"/>\
                 <text x=\"{:.1}\" y=\"{}\" font-size=\"{TEXT_FONT}\">{count}</text>",
                left - 6.0,
                y + 12.0,
                escape(label),
                escape(label),
                width * *count as f64 / max,
                left + width * *count as f64 / max + 4.0,
                y + 12.0
            );
        }
        Chart {
            body,
            height: 40.0 + 22.0 * rows.len() as f64,
        }
    }
}

/// A round step near `rough` (1, 2 or 5 times a power of ten) and the decimals it needs.
fn tick_step(rough: f64) -> (f64, usize) {
    if !(rough.is_finite() && rough > 0.0) {
        return (1.0, 0);
    }
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= rough * 0.999)
        .unwrap_or(10.0 * power);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    (step, decimals)
}

/// A value for an axis or legend: whole numbers when large, one decimal otherwise.
fn short(v: f64) -> String {
    if !v.is_finite() {
        signed(v)
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_coords, RankBase};
    use crate::matchrun::game::{PlayedMove, Termination};

    fn record(
        red: &str,
        black: &str,
        fen: &str,
        times: &[(u64, bool)],
        winner: Option<Color>,
    ) -> GameRecord {
        GameRecord {
            red: red.into(),
            black: black.into(),
            fen: fen.into(),
            moves: times
                .iter()
                .map(|&(ms, book)| PlayedMove {
                    mv: parse_coords("h2e2", RankBase::Zero).unwrap(),
                    score: None,
                    depth: None,
                    time: std::time::Duration::from_millis(ms),
                    book,
                })
                .collect(),
            winner,
            termination: Termination::Normal,
            reason: "x".into(),
            label: "checkmate",
            restart: [false; 2],
        }
    }

    /// A two-game report of A against B, and their empty pairing.
    fn a_against_b() -> (Report, PairingStats) {
        let names = ["A".to_string(), "B".to_string()];
        let stats = PairingStats {
            first: "A".into(),
            second: "B".into(),
            ..Default::default()
        };
        (Report::new("t", None, &names, Some(2)), stats)
    }

    /// After a lost first game (Elo -inf) and a won second one, the Elo axis spans the
    /// latest interval, not the clip.
    #[test]
    fn the_elo_axis_comes_from_finite_values() {
        let (mut report, mut stats) = a_against_b();
        let fen = "9/9/9/9/9/9/9/9/9/9 w - - 0 1";
        stats.record(0.0, "checkmate");
        let lost = record("A", "B", fen, &[(5, false)], Some(Color::Black));
        report.add_game(0, (0, 1), &stats, 0.0, &lost);
        assert_eq!(report.pairings[0].points[0].elo, f64::NEG_INFINITY);
        stats.record(1.0, "checkmate");
        stats.penta.add_pair(0.0, 1.0);
        let won = record("B", "A", fen, &[(5, false)], Some(Color::Black));
        report.add_game(0, (0, 1), &stats, 1.0, &won);
        let html = report.html();
        let chart = html
            .split("<svg")
            .find(|c| c.contains("data-series=\"elo\""))
            .unwrap();
        let ticks: Vec<&str> = chart
            .split("text-anchor=\"end\">")
            .skip(1)
            .map(|t| &t[..t.find('<').unwrap()])
            .take(5)
            .collect();
        // +1 -1: Wilson's interval, -392.5 to +392.5.
        assert_eq!(ticks, ["-400", "-200", "0", "200", "400"]);
        assert!(html.contains("Wilson score interval"));
        // Said in words; text no smaller than 14 units, charts never scaled up past them.
        assert!(!html.contains("±inf") && html.contains("drawn at the chart's edge"));
        assert!(!html.contains("font-size=\"11\"") && !html.contains("font-size=\"12\""));
        assert!(html.contains("max-width:760px"));
    }

    #[test]
    fn games_feed_the_series_by_colour_and_engine() {
        let (mut report, mut stats) = a_against_b();
        let red_first = "9/9/9/9/9/9/9/9/9/9 w - - 0 1";
        // A (Red) wins; Red moves 0 and 2 (100, 300 ms), Black moves 1 and 3 (20, 40 ms),
        // the first move is a book move and does not count.
        let game = record(
            "A",
            "B",
            red_first,
            &[
                (0, true),
                (20, false),
                (100, false),
                (40, false),
                (300, false),
            ],
            Some(Color::Red),
        );
        stats.record(1.0, "checkmate");
        report.add_game(0, (0, 1), &stats, 1.0, &game);
        // Black to move first: B is Red and moves second.
        let black_first = "9/9/9/9/9/9/9/9/9/9 b - - 0 1";
        let game = record("B", "A", black_first, &[(10, false), (70, false)], None);
        stats.record(0.5, "checkmate");
        report.add_game(0, (0, 1), &stats, 0.5, &game);
        let p = &report.pairings[0];
        assert_eq!(p.points.len(), 2);
        assert_eq!(p.points[1].score, 0.75);
        assert_eq!((p.as_red.wins, p.as_black.draws), (1, 1));
        assert_eq!(p.endings["checkmate"], 2);
        let [a, b] = [&report.engines[0], &report.engines[1]];
        // A: 100 and 300 ms as Red, then 10 ms as Black (it moved first from the Black FEN).
        assert_eq!(a.per_game_ms, [200.0, 10.0]);
        assert_eq!((a.total_ms, a.moves, a.max_ms), (410.0, 3, 300.0));
        assert_eq!(b.per_game_ms, [30.0, 70.0]);
        let html = report.html();
        assert!(
            html.contains("<td>A</td><td>3</td><td>136.7</td><td>300.0</td>"),
            "{html}"
        );
    }
}
