//! `chariot book build` (a book from PGN games: each move of their first plies, weighted by
//! how the games ended for the side that played it) and `chariot book probe` (a position's book
//! moves, for a person).

use super::{Book, Entry};
use crate::board::types::{Color, Move};
use crate::commands::position::PositionArgs;
use crate::console::{count, errln, outln};
use crate::notation::pgn::{parse_pgn_move, read_games, PgnGame};
use crate::output_file::{Existing, OutputPath};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const DEFAULT_DEPTH: usize = 20;
pub const DEFAULT_MIN_GAMES: u32 = 2;

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from PGN games (ICCS, WXF or Chinese moves): every move of their first
    /// plies, with a weight of 2 a win and 1 a draw for the side that played it.
    Build {
        /// PGN files to read.
        #[arg(long, num_args = 1.., required = true, value_name = "FILE")]
        pgn: Vec<PathBuf>,
        /// The book file to write.
        #[arg(long, value_name = "BOOK")]
        out: PathBuf,
        /// Replace an existing book file.
        #[arg(long)]
        force: bool,
        /// Plies of each game to take, from its start (at least 1).
        #[arg(long, default_value_t = DEFAULT_DEPTH, value_name = "PLIES")]
        depth: usize,
        /// Leave out moves played in fewer games than this (at least 1).
        #[arg(long, default_value_t = DEFAULT_MIN_GAMES, value_name = "N")]
        min_games: u32,
    },
    /// Show the book moves of a position (default: the start position) with their weights.
    Probe {
        /// The book file.
        book: PathBuf,
        #[command(flatten)]
        position: PositionArgs,
    },
}

pub fn run_book(args: &BookArgs) -> Result<(), String> {
    match &args.command {
        BookCommand::Build {
            pgn,
            out,
            force,
            depth,
            min_games,
        } => build(pgn, out, *force, *depth, *min_games),
        BookCommand::Probe { book, position } => probe(book, &position.position()?),
    }
}

/// Games and points (2 a win, 1 a draw) of one move from one position.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u32,
    points: u64,
}

/// Collects the moves of games, then makes the book.
pub struct Builder {
    depth: usize,
    tallies: HashMap<(u64, Move), Tally>,
    games: u64,
}

impl Builder {
    /// A builder taking the first `depth` plies of each game.
    pub fn new(depth: usize) -> Builder {
        Builder {
            depth,
            tallies: HashMap::new(),
            games: 0,
        }
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Adds one game. A game without a result (`*`) or with a move that cannot be read adds
    /// nothing; the error says why. A move that comes back to a position is counted once.
    pub fn add_game(&mut self, game: &PgnGame) -> Result<(), String> {
        let red_points = match game.result.as_str() {
            "1-0" => 2,
            "1/2-1/2" => 1,
            "0-1" => 0,
            other => return Err(format!("result '{other}' is not a finished game")),
        };
        let mut pos = game.start()?;
        let mut seen: Vec<((u64, Move), u64)> = Vec::new();
        for (i, text) in game.moves.iter().take(self.depth).enumerate() {
            let mv = parse_pgn_move(&pos, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            let points = match pos.side_to_move() {
                Color::Red => red_points,
                Color::Black => 2 - red_points,
            };
            let key = (pos.hash(), mv);
            if !seen.iter().any(|(k, _)| *k == key) {
                seen.push((key, points));
            }
            pos.make_move(mv);
        }
        for (key, points) in seen {
            let tally = self.tallies.entry(key).or_default();
            tally.games += 1;
            tally.points += points;
        }
        self.games += 1;
        Ok(())
    }

    /// The book of the moves played in at least `min_games` games that scored at least a
    /// draw once (a weight of 0 would never be played). Weights are the points, scaled down
    /// within a position if its largest does not fit in 16 bits.
    pub fn finish(self, min_games: u32) -> Book {
        let mut by_key: HashMap<u64, Vec<(Move, Tally)>> = HashMap::new();
        for ((key, mv), tally) in self.tallies {
            if tally.games >= min_games && tally.points > 0 {
                by_key.entry(key).or_default().push((mv, tally));
            }
        }
        let mut entries = Vec::new();
        for (key, moves) in by_key {
            let most = moves.iter().map(|(_, t)| t.points).max().unwrap_or(1);
            let scale = most.div_ceil(u64::from(u16::MAX)).max(1);
            for (mv, tally) in moves {
                entries.push(Entry {
                    key,
                    mv,
                    weight: (tally.points / scale).clamp(1, u64::from(u16::MAX)) as u16,
                    games: tally.games,
                });
            }
        }
        Book::from_entries(entries)
    }
}

/// A bar over one file's games when standard error is a terminal; nothing otherwise (the line
/// per file says how it went).
fn games_bar(len: usize, file: &Path) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} games, ETA {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(file.display().to_string());
    bar
}

fn build(
    pgn: &[PathBuf],
    out: &Path,
    force: bool,
    depth: usize,
    min_games: u32,
) -> Result<(), String> {
    if depth == 0 || min_games == 0 {
        return Err(format!(
            "--{} must be at least 1",
            if depth == 0 { "depth" } else { "min-games" }
        ));
    }
    if pgn.iter().any(|p| p == out) {
        return Err(format!("--out {} is one of the PGN files", out.display()));
    }
    let output = OutputPath::check(out, "--out", Existing::replace_if(force))?;
    let start = Instant::now();
    let mut builder = Builder::new(depth);
    for file in pgn {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let games = read_games(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let bar = games_bar(games.len(), file);
        let mut skipped = 0;
        for (i, game) in games.iter().enumerate() {
            if let Err(e) = builder.add_game(game) {
                skipped += 1;
                // The first few reasons; the count says how many more.
                if skipped <= 3 {
                    bar.suspend(|| errln!("{}: game {} left out: {e}", file.display(), i + 1));
                }
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        outln!(
            "{}: {} read, {} left out",
            file.display(),
            count(games.len() as u64, "game"),
            skipped
        );
    }
    let games = builder.games();
    let book = builder.finish(min_games);
    if book.entries().is_empty() {
        return Err(format!(
            "no move was played in at least {} (of {} read); nothing written",
            count(u64::from(min_games), "game"),
            count(games, "game")
        ));
    }
    output.write(&book.to_bytes())?;
    outln!(
        "{} in {} from {} (first {} plies, moves of at least {}) written to {}: {} bytes in {:.2}s",
        count(book.entries().len() as u64, "move"),
        count(book.positions() as u64, "position"),
        count(games, "game"),
        depth,
        count(u64::from(min_games), "game"),
        out.display(),
        super::HEADER_BYTES + book.entries().len() * super::ENTRY_BYTES,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn probe(path: &Path, pos: &crate::Position) -> Result<(), String> {
    let book = Book::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
    outln!("FEN: {}", pos.to_fen());
    let moves = book.moves(pos);
    if moves.is_empty() {
        outln!("no book move for this position");
        return Ok(());
    }
    let total: u64 = moves.iter().map(|e| u64::from(e.weight)).sum();
    outln!(
        "{:<6} {:>7} {:>6} {:>7}",
        "move",
        "weight",
        "share",
        "games"
    );
    for e in moves {
        outln!(
            "{:<6} {:>7} {:>5.1}% {:>7}",
            e.mv.to_string(),
            e.weight,
            100.0 * f64::from(e.weight) / total.max(1) as f64,
            e.games
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move, RankBase};
    use crate::Position;

    const GAMES: &str = "\
[Event \"a\"]\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n\n\
[Event \"b\"]\n1. H2-E2 H9-G7 2. H0-G2 H7-I7 1/2-1/2\n\n\
[Event \"c\"]\n1. C2=5 C8=5 0-1\n\n\
[Event \"d\"]\n1. c3c4 h9g7 1-0\n\n\
[Event \"e\"]\n1. h2e2 h9g7 *\n\n\
[Event \"f\"]\n1. h2e2 h2h9 1-0\n";

    fn built(depth: usize, min_games: u32) -> (Book, Vec<String>) {
        let mut builder = Builder::new(depth);
        let errors = read_games(GAMES)
            .unwrap()
            .iter()
            .filter_map(|g| builder.add_game(g).err())
            .collect();
        (builder.finish(min_games), errors)
    }

    fn weights(book: &Book, moves: &[&str]) -> Vec<(String, u16, u32)> {
        let mut pos = Position::startpos();
        for m in moves {
            pos.make_move(parse_move(&pos, m, RankBase::Zero).unwrap());
        }
        let mut found: Vec<(String, u16, u32)> = book
            .moves(&pos)
            .iter()
            .map(|e| (e.mv.to_string(), e.weight, e.games))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn moves_are_weighted_by_results_for_the_side_that_played_them() {
        let (book, errors) = built(20, 1);
        // Game e has no result, game f an illegal second move: both left out whole.
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].contains("'*'") && errors[1].contains("move 2"));
        // h2e2: a win, a draw and a loss for Red (games a, b, c; c in WXF); c3c4: one win.
        assert_eq!(
            weights(&book, &[]),
            [("c3c4".into(), 2, 1), ("h2e2".into(), 3, 3)]
        );
        // After h2e2, Black's h9g7 drew once and lost once; h7e7 won.
        assert_eq!(
            weights(&book, &["h2e2"]),
            [("h7e7".into(), 2, 1), ("h9g7".into(), 1, 2)]
        );
        // Black's i9h9 lost its only game: a weight of 0 is left out.
        assert_eq!(
            weights(&book, &["h2e2", "h9g7", "h0g2"]),
            [("h7i7".into(), 1, 1)]
        );
    }

    #[test]
    fn depth_and_min_games_limit_the_book() {
        let (shallow, _) = built(1, 1);
        assert_eq!(shallow.positions(), 1);
        assert!(weights(&shallow, &["h2e2"]).is_empty());
        let (common, _) = built(20, 2);
        assert_eq!(weights(&common, &[]), [("h2e2".into(), 3, 3)]);
        assert_eq!(weights(&common, &["h2e2"]), [("h9g7".into(), 1, 2)]);
        assert_eq!(weights(&common, &["h2e2", "h9g7"]), [("h0g2".into(), 3, 2)]);
        assert_eq!(common.positions(), 3);
    }
}
