//! Opening suites: FEN/EPD lines (a position, optionally `moves m1 m2 ...` in ICCS) or PGN
//! games (`[FEN]` and ICCS or WXF moves), played in file order or shuffled with a seed, and
//! optionally cut to their first N plies. The default suite, `data/openings.fen`, is built
//! into the binary.

use super::pgn::{parse_pgn_move, read_games};
use crate::board::notation::{parse_move, RankBase};
use crate::{Move, Position};

pub const DEFAULT_SUITE: &str = crate::data::OPENINGS;

#[derive(Clone, Debug)]
pub struct Opening {
    pub fen: String,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position the engines start thinking from (with the opening moves in its history,
    /// so repetition rules see them).
    pub fn position(&self) -> Position {
        let mut pos = Position::from_fen(&self.fen).expect("validated when loaded");
        for &mv in &self.moves {
            pos.make_move(mv);
        }
        pos
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One position a line (FEN or EPD), optionally followed by `moves ...`.
    Lines,
    Pgn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

/// `--openings FILE [format=fen|epd|pgn] [order=sequential|random] [seed=N] [plies=N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsSpec {
    /// `None`: the built-in suite.
    pub path: Option<String>,
    pub format: Format,
    pub order: Order,
    /// Seed of the shuffle; `None` picks one from the clock (and the runner prints it).
    pub seed: Option<u64>,
    /// Keep at most this many plies of each opening's moves.
    pub plies: Option<usize>,
}

impl Default for OpeningsSpec {
    fn default() -> Self {
        OpeningsSpec {
            path: None,
            format: Format::Lines,
            order: Order::Sequential,
            seed: None,
            plies: None,
        }
    }
}

impl OpeningsSpec {
    /// Parses the words of `--openings`: the file (`FILE` or `file=FILE`) and options.
    pub fn parse(words: &[String]) -> Result<OpeningsSpec, String> {
        let mut spec = OpeningsSpec::default();
        let mut format = None;
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                if spec.path.is_some() {
                    return Err(format!("--openings: a second file '{word}'"));
                }
                spec.path = Some(word.clone());
                continue;
            };
            let number = || {
                value
                    .parse::<u64>()
                    .map_err(|_| format!("--openings: {key}: '{value}' is not a number"))
            };
            match key {
                "file" => spec.path = Some(value.to_string()),
                "format" => {
                    format = Some(match value {
                        "fen" | "epd" => Format::Lines,
                        "pgn" => Format::Pgn,
                        _ => {
                            return Err(format!(
                                "--openings: unknown format '{value}' (fen, epd, pgn)"
                            ))
                        }
                    })
                }
                "order" => {
                    spec.order = match value {
                        "sequential" => Order::Sequential,
                        "random" => Order::Random,
                        _ => {
                            return Err(format!(
                                "--openings: unknown order '{value}' (sequential, random)"
                            ))
                        }
                    }
                }
                "seed" => spec.seed = Some(number()?),
                "plies" => spec.plies = Some(number()? as usize),
                _ => {
                    return Err(format!(
                        "--openings: unknown key '{key}' (file, format, order, seed, plies)"
                    ))
                }
            }
        }
        if spec.path.is_none() && format.is_some() {
            return Err("--openings: format= needs a file".into());
        }
        spec.format = format.unwrap_or_else(|| match &spec.path {
            Some(path) if path.to_ascii_lowercase().ends_with(".pgn") => Format::Pgn,
            _ => Format::Lines,
        });
        Ok(spec)
    }
}

/// Reads the position at the start of an FEN or EPD line: placement and side, then the
/// castling and en-passant fields (`-` in xiangqi) and the two counters where present; EPD
/// operations after them are ignored.
fn line_fen(text: &str) -> String {
    let mut fields = text.split_whitespace();
    let mut fen: Vec<&str> = fields.by_ref().take(2).collect();
    for field in fields {
        let wanted = match fen.len() {
            2 | 3 => field == "-",
            4 | 5 => field.parse::<u32>().is_ok(),
            _ => false,
        };
        if !wanted {
            break;
        }
        fen.push(field);
    }
    fen.join(" ")
}

/// Parses a suite of lines; errors name the line. Blank lines and `#` comments are skipped.
pub fn parse_suite(text: &str, source: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let where_ = || format!("{source}:{}", number + 1);
        let (position, moves_text) = match line.split_once(" moves ") {
            Some((fen, moves)) => (fen.trim(), moves),
            None => (line, ""),
        };
        let fen = line_fen(position.split(';').next().unwrap_or(""));
        let mut pos =
            Position::from_fen(&fen).map_err(|e| format!("{}: bad FEN: {e}", where_()))?;
        let mut moves = Vec::new();
        for text in moves_text
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
        {
            let mv =
                parse_move(&pos, text, RankBase::Zero).map_err(|e| format!("{}: {e}", where_()))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        openings.push(Opening { fen, moves });
    }
    if openings.is_empty() {
        return Err(format!("{source}: no openings found"));
    }
    Ok(openings)
}

/// Reads a PGN book: each game's start (`[FEN]` or the standard start) and its moves.
pub fn parse_pgn_suite(text: &str, source: &str) -> Result<Vec<Opening>, String> {
    let games = read_games(text).map_err(|e| format!("{source}: {e}"))?;
    let mut openings = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let where_ = || format!("{source}: game {}", index + 1);
        let mut pos = game.start().map_err(|e| format!("{}: {e}", where_()))?;
        let fen = pos.to_fen();
        let mut moves = Vec::new();
        for (i, text) in game.moves.iter().enumerate() {
            let mv = parse_pgn_move(&pos, text)
                .map_err(|e| format!("{}, move {}: {e}", where_(), i + 1))?;
            pos.make_move(mv);
            moves.push(mv);
        }
        openings.push(Opening { fen, moves });
    }
    if openings.is_empty() {
        return Err(format!("{source}: no games found"));
    }
    Ok(openings)
}

/// Loads the suite `spec` names, cut and ordered as it says; returns the openings and the
/// seed used to shuffle them (if they were).
pub fn load(spec: &OpeningsSpec) -> Result<(Vec<Opening>, Option<u64>), String> {
    let mut openings = match &spec.path {
        None => parse_suite(DEFAULT_SUITE, "built-in openings")?,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings file {path}: {e}"))?;
            match spec.format {
                Format::Lines => parse_suite(&text, path)?,
                Format::Pgn => parse_pgn_suite(&text, path)?,
            }
        }
    };
    if let Some(plies) = spec.plies {
        for opening in &mut openings {
            opening.moves.truncate(plies);
        }
    }
    let seed = match spec.order {
        Order::Sequential => None,
        Order::Random => {
            let seed = spec.seed.unwrap_or_else(|| fastrand::Rng::new().u64(..));
            fastrand::Rng::with_seed(seed).shuffle(&mut openings);
            Some(seed)
        }
    };
    Ok((openings, seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn default_suite_loads() {
        let (suite, seed) = load(&OpeningsSpec::default()).unwrap();
        assert!(suite.len() >= 100, "{}", suite.len());
        assert_eq!(seed, None);
    }

    /// The screening suite must give a 1,000-game pairing distinct games: at least 500
    /// different boards, each legal.
    #[test]
    fn screening_suite_loads_with_distinct_boards() {
        let suite = parse_suite(&crate::data::read("screen.fen"), "screen.fen").unwrap();
        // The Zobrist key: the board and the side to move, not the move counters.
        let mut boards: Vec<u64> = suite.iter().map(|o| o.position().hash()).collect();
        boards.sort();
        boards.dedup();
        assert_eq!(boards.len(), suite.len(), "a board comes twice");
        assert!(suite.len() >= 500, "{} openings", suite.len());
    }

    #[test]
    fn fen_with_moves_is_replayed() {
        let text = format!("# comment\n\n{} moves h2e2 h9g7\n", Position::START_FEN);
        let suite = parse_suite(&text, "t").unwrap();
        assert_eq!(suite[0].moves.len(), 2);
        assert_eq!(suite[0].position().history().len(), 2);
    }

    #[test]
    fn epd_lines_drop_their_operations() {
        let text = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; id \"x\";\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b\n";
        let suite = parse_suite(text, "t.epd").unwrap();
        assert_eq!(
            suite[0].fen,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - -"
        );
        assert_eq!(suite[1].position().side_to_move(), crate::Color::Black);
    }

    #[test]
    fn pgn_books_with_fen_iccs_and_wxf() {
        let text =
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\
                    [Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 *\n\n\
                    [Format \"WXF\"]\n\n1. C2=5 C8=5 *\n";
        let suite = parse_pgn_suite(text, "b.pgn").unwrap();
        assert_eq!(suite.len(), 2);
        let iccs: Vec<String> = suite[0].moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(iccs, ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(suite[1].fen, Position::startpos().to_fen());
        assert_eq!(suite[1].moves[1].to_string(), "h7e7");
        let err = parse_pgn_suite("1. C2=5 R1+5 *", "b.pgn").unwrap_err();
        assert!(err.contains("game 1, move 2"), "{err}");
    }

    #[test]
    fn options_order_seed_and_plies() {
        let path =
            std::env::temp_dir().join(format!("chariot-openings-{}.fen", std::process::id()));
        let lines: String = (0..20)
            .map(|_| format!("{} moves h2e2 h9g7 h0g2\n", Position::START_FEN))
            .enumerate()
            .map(|(i, line)| {
                if i % 2 == 0 {
                    line
                } else {
                    line.replace("h2e2", "b2e2")
                }
            })
            .collect();
        std::fs::write(&path, lines).unwrap();
        let file = path.to_str().unwrap();
        let spec =
            OpeningsSpec::parse(&words(&format!("{file} order=random seed=7 plies=2"))).unwrap();
        assert_eq!(
            (spec.order, spec.seed, spec.plies),
            (Order::Random, Some(7), Some(2))
        );
        let (a, seed) = load(&spec).unwrap();
        let (b, _) = load(&spec).unwrap();
        assert_eq!(seed, Some(7));
        assert!(a.iter().all(|o| o.moves.len() == 2));
        let firsts = |v: &[Opening]| v.iter().map(|o| o.moves[0]).collect::<Vec<_>>();
        assert_eq!(firsts(&a), firsts(&b), "the same seed gives the same order");
        let (sequential, _) =
            load(&OpeningsSpec::parse(&words(&format!("file={file}"))).unwrap()).unwrap();
        assert_ne!(firsts(&a), firsts(&sequential), "shuffled");
        let _ = std::fs::remove_file(&path);
        for (bad, message) in [
            ("f order=sideways", "unknown order"),
            ("f seed=x", "not a number"),
            ("f colour=red", "unknown key"),
            ("f g", "second file"),
            ("format=pgn", "needs a file"),
        ] {
            let err = OpeningsSpec::parse(&words(bad)).unwrap_err();
            assert!(err.contains(message), "{bad}: {err}");
        }
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse_suite("\nnot a fen\n", "f.fen").unwrap_err();
        assert!(err.starts_with("f.fen:2: bad FEN"), "{err}");
        let err = parse_suite(&format!("{} moves h2h8", Position::START_FEN), "f").unwrap_err();
        assert!(err.contains("f:1") && err.contains("h2h8"), "{err}");
        assert!(parse_suite("# nothing\n", "e")
            .unwrap_err()
            .contains("no openings"));
    }
}
