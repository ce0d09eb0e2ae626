//! PGN in: xiangqi games as other tools write them (tags, ICCS or WXF moves, comments,
//! variations skipped), for opening books, `--resume` and tests that replay what the match
//! runner wrote; and what Chariot's two PGN writers (the match runner's, the browser's) write
//! alike: the result, the date, ICCS moves.

use super::wxf::parse_wxf;
use crate::board::notation::{parse_move, RankBase};
use crate::board::position::Position;
use crate::board::types::{Color, Move};
use std::time::{SystemTime, UNIX_EPOCH};

/// One game read back from PGN.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    /// Moves as written (`H2-E2`).
    pub moves: Vec<String>,
    /// Comments in order; the last is the termination reason.
    pub comments: Vec<String>,
    pub result: String,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the `FEN` tag, or the standard start.
    pub fn start(&self) -> Result<Position, String> {
        match self.tag("FEN") {
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN tag: {e}")),
            None => Ok(Position::startpos()),
        }
    }

    /// Replays the moves from the start, checking each is legal.
    pub fn replay(&self) -> Result<Position, String> {
        let mut pos = self.start()?;
        for (i, text) in self.moves.iter().enumerate() {
            let mv = parse_pgn_move(&pos, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            pos.make_move(mv);
        }
        Ok(pos)
    }
}

/// One move as xiangqi PGN and Chariot's tools write it: ICCS (`H2-E2`, `h2e2`, ranks 0-9),
/// WXF (`C2=5`) or Chinese (`炮二平五`).
pub fn parse_pgn_move(pos: &Position, text: &str) -> Result<Move, String> {
    if !text.is_ascii() {
        return super::chinese::parse_chinese(pos, text);
    }
    let plain: String = text
        .chars()
        .filter(|c| *c != '-')
        .collect::<String>()
        .to_ascii_lowercase();
    let iccs = plain.len() == 4
        && plain.chars().enumerate().all(|(i, c)| match i % 2 {
            0 => ('a'..='i').contains(&c),
            _ => c.is_ascii_digit(),
        });
    if iccs {
        parse_move(pos, &plain, RankBase::Zero).map_err(|e| e.to_string())
    } else {
        parse_wxf(pos, text)
    }
}

/// Reads the tag `[Name "value"]` starting at byte `start`; returns it and the byte after it.
fn read_tag(text: &str, start: usize) -> Result<(String, String, usize), String> {
    let rest = &text[start + 1..];
    let name_end = rest.find(|c: char| c.is_whitespace()).ok_or("bad tag")?;
    let name = rest[..name_end].to_string();
    let after_name = rest[name_end..].trim_start();
    let body = after_name
        .strip_prefix('"')
        .ok_or_else(|| format!("tag {name}: value is not quoted"))?;
    let mut value = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => value.extend(chars.next().map(|(_, c)| c)),
            '"' => {
                let tail = &body[i + 1..];
                let close = tail
                    .find(']')
                    .ok_or_else(|| format!("tag {name}: no closing ]"))?;
                let end = text.len() - tail.len() + close + 1;
                return Ok((name, value, end));
            }
            _ => value.push(c),
        }
    }
    Err(format!("tag {name}: unterminated value"))
}

/// Reads every game of a PGN text.
pub fn read_games(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut chars = text.char_indices().peekable();
    let mut in_moves = false;
    while let Some(&(start, c)) = chars.peek() {
        match c {
            _ if c.is_whitespace() => {
                chars.next();
            }
            '[' if !in_moves => {
                let (name, value, end) = read_tag(text, start)?;
                game.tags.push((name, value));
                while chars.next_if(|&(i, _)| i < end).is_some() {}
            }
            '{' => {
                let end = text[start..].find('}').ok_or("unterminated comment")? + start;
                game.comments.push(text[start + 1..end].to_string());
                in_moves = true;
                while chars.next_if(|&(i, _)| i <= end).is_some() {}
            }
            // Rest-of-line comments and escaped lines.
            ';' | '%' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            // Variations are skipped: only the main line is kept.
            '(' => {
                let mut depth = 0;
                for (_, c) in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' if depth == 1 => break,
                        ')' => depth -= 1,
                        _ => {}
                    }
                }
            }
            _ => {
                let end = text[start..]
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .map_or(text.len(), |e| e + start);
                let token = &text[start..end];
                in_moves = true;
                // A move number may be glued to its move (`1.H2-E2`).
                let numbered = token.trim_start_matches(|c: char| c.is_ascii_digit());
                let bare = if numbered.len() < token.len() && numbered.starts_with('.') {
                    numbered.trim_start_matches('.')
                } else {
                    token
                };
                if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    game.result = token.to_string();
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                } else if !bare.is_empty() && !bare.starts_with('$') {
                    game.moves.push(bare.to_string());
                }
                while chars.next_if(|&(i, _)| i < end).is_some() {}
            }
        }
    }
    if !game.moves.is_empty() || !game.tags.is_empty() {
        return Err("the last game has no result".into());
    }
    Ok(games)
}

/// The result of a game `winner` won (drawn when `None`), as PGN writes it.
pub fn result_text(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Red) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// `h2e2` -> `H2-E2`, the ICCS form of Chinese PGN files.
pub fn pgn_iccs(mv: Move) -> String {
    let text = mv.to_string().to_ascii_uppercase();
    format!("{}-{}", &text[..2], &text[2..])
}

/// Today's UTC date as `YYYY.MM.DD` (days-to-civil conversion; no date crate needed).
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_rejects_bad_input() {
        assert!(read_games("[Event \"x\"]\n1. H2-E2").is_err());
        assert!(read_games("{never closed").is_err());
        let illegal = read_games("1. H2-H8 *").unwrap();
        assert!(illegal[0].replay().unwrap_err().contains("move 1"));
    }

    #[test]
    fn date_looks_like_a_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
    }

    #[test]
    fn books_from_other_tools_read() {
        // Glued move numbers, NAGs, variations, line comments, WXF moves.
        let text = "[Event \"book\"]\n[Format \"WXF\"]\n\n1.C2=5 $1 H8+7 (1... C8=5 2. H2+3) \
                    ; a line comment\n2. H2+3 {fine} R9=8 *\n";
        let games = read_games(text).unwrap();
        assert_eq!(games[0].moves, ["C2=5", "H8+7", "H2+3", "R9=8"]);
        let pos = games[0].replay().unwrap();
        let iccs: Vec<String> = pos
            .history()
            .iter()
            .map(|u| u.mv.unwrap().to_string())
            .collect();
        assert_eq!(iccs, ["h2e2", "h9g7", "h0g2", "i9h9"]);
    }
}
