//! A fake engine for the match runner's tests: speaks just enough UCI and UCCI to play random
//! legal moves, and can be told to misbehave after some moves of its own:
//! `chariot-fake-engine [--mode random|crash|hang|illegal|slow|spend|claim|shuffle] [--after N]
//! [--seed S] [--stateless] [--claim nobestmove|none|0000] [--claim-plies N] [--ucci-seconds]
//! [--think-us N]`. It offers one option, UCI's `Hash` (a spin, 1 to 1024) or UCCI's `hashsize`.
//! `spend` uses all the time it is given for a move, as ElephantEye does with `movestogo 1`.
//! `claim` claims the game is over on every move (a false claim unless it is); `shuffle` moves a
//! piece back and forth without capturing and claims as soon as the position repeats;
//! `--claim-plies N` claims once N plies have passed without capture. The claim is sent as
//! `nobestmove` (default), `bestmove (none)` or `bestmove 0000`.
//! Under UCCI it advertises `usemillisec` (unless `--ucci-seconds`) and exits with status 4 if
//! the host then gets the time unit wrong.
//! `--stateless` reseeds the move choice from the seed and the position at every move, so a
//! game depends only on its opening and not on the games the process played before.
//! `--think-us N` waits N microseconds before each answer to `go`.
//! `--peak P` (for the SPSA tuner's tests) also offers two spin options, `strength` and `inert`
//! (0 to 100, default 50): each move is a skilled one (a mate in one, else the most valuable
//! capture) with a chance of `1 - |strength - P| / 40` (none beyond 40 away), else any legal
//! move; `inert` changes nothing.
//! It is a bin target (not a test) so integration tests can start it as a child process.

use chariot::board::movegen::legal_moves;
use chariot::board::notation::{format_move, parse_move, RankBase};
use chariot::board::position::Position;
use chariot::rules::occurrences;
use chariot::{Move, PieceType};
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Random,
    Crash,
    Hang,
    Illegal,
    Slow,
    Spend,
    Claim,
    Shuffle,
}

/// xorshift64*: enough randomness for move choice; bins cannot use dev-dependencies.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let mode = match value("--mode").as_deref().unwrap_or("random") {
        "random" => Mode::Random,
        "crash" => Mode::Crash,
        "hang" => Mode::Hang,
        "illegal" => Mode::Illegal,
        "slow" => Mode::Slow,
        "spend" => Mode::Spend,
        "claim" => Mode::Claim,
        "shuffle" => Mode::Shuffle,
        other => {
            eprintln!("unknown mode {other}");
            std::process::exit(2);
        }
    };
    let after: u32 = value("--after").and_then(|v| v.parse().ok()).unwrap_or(0);
    let claim = match value("--claim").as_deref().unwrap_or("nobestmove") {
        "nobestmove" => "nobestmove",
        "none" => "bestmove (none)",
        "0000" => "bestmove 0000",
        other => {
            eprintln!("unknown claim {other}");
            std::process::exit(2);
        }
    };
    let claim_plies: Option<u16> = value("--claim-plies").and_then(|v| v.parse().ok());
    let seed = value("--seed")
        .and_then(|v| v.parse().ok())
        .unwrap_or(std::process::id() as u64);
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    // UCCI: without usemillisec the host must send seconds; with it, it must switch it on.
    let offers_millis = !args.iter().any(|a| a == "--ucci-seconds");
    let stateless = args.iter().any(|a| a == "--stateless");
    let think = Duration::from_micros(
        value("--think-us")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0),
    );
    let peak: Option<i64> = value("--peak").and_then(|v| v.parse().ok());
    let mut strength = 50i64;
    let mut ucci = false;
    let mut millis = false;
    let mut base = RankBase::Zero;
    let mut pos = Position::startpos();
    let mut game_moves: Vec<Move> = Vec::new();
    let mut moves_made = 0u32;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") if peak.is_some() => "id name FakeEngine\n\
                 option name Hash type spin default 16 min 1 max 1024\n\
                 option name strength type spin default 50 min 0 max 100\n\
                 option name inert type spin default 50 min 0 max 100\nuciok"
                .to_string(),
            Some("uci") => {
                "id name FakeEngine\noption name Hash type spin default 16 min 1 max 1024\nuciok"
                    .to_string()
            }
            Some("ucci") => {
                ucci = true;
                if offers_millis {
                    "id name FakeEngine\noption usemillisec type check default false\n\
                     option hashsize type spin min 1 max 1024 default 16\nucciok"
                        .to_string()
                } else {
                    "id name FakeEngine\noption hashsize type spin min 1 max 1024 default 16\nucciok"
                        .to_string()
                }
            }
            Some("setoption") if ucci && line.contains("usemillisec") => {
                if !offers_millis {
                    eprintln!("usemillisec was never offered: {line}");
                    std::process::exit(4);
                }
                millis = line.ends_with("true");
                continue;
            }
            Some("isready") => "readyok".to_string(),
            Some("setoption") if words.get(2) == Some(&"strength") => {
                strength = words
                    .get(4)
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(strength);
                continue;
            }
            Some("setoption") if line.contains("UCI_Variant") => {
                base = RankBase::One;
                continue;
            }
            Some("position") => {
                (pos, game_moves) = read_position(&words, base).unwrap_or_else(|| {
                    eprintln!("bad position: {line}");
                    std::process::exit(3);
                });
                continue;
            }
            Some("go") => {
                if ucci && offers_millis && !millis && words.contains(&"time") {
                    eprintln!("times in seconds although usemillisec was offered: {line}");
                    std::process::exit(4);
                }
                if stateless {
                    rng = Rng((seed ^ pos.hash()).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
                }
                let misbehave = moves_made >= after;
                moves_made += 1;
                std::thread::sleep(think);
                let moves = legal_moves(&pos);
                let list = moves.as_slice();
                // Prefer captures half the time so random games end sooner.
                let captures: Vec<_> = list
                    .iter()
                    .filter(|m| pos.piece_at(m.to()).is_some())
                    .collect();
                let chosen = if list.is_empty() {
                    "0000".to_string()
                } else if mode == Mode::Shuffle {
                    format_move(shuffle_move(&pos, list, &game_moves, &mut rng), base)
                } else if let Some(peak) = peak {
                    let skill = 40 - (strength - peak).abs().min(40);
                    let skilled = (rng.below(40) as i64) < skill;
                    let mv = skilled.then(|| skilled_move(&mut pos, list)).flatten();
                    format_move(mv.unwrap_or_else(|| list[rng.below(list.len())]), base)
                } else if !captures.is_empty() && rng.below(2) == 0 {
                    format_move(*captures[rng.below(captures.len())], base)
                } else {
                    format_move(list[rng.below(list.len())], base)
                };
                let repeated = mode == Mode::Shuffle && occurrences(&pos) >= 2;
                let long = claim_plies.is_some_and(|n| pos.rule60_count() >= n);
                if (misbehave && (mode == Mode::Claim || repeated)) || long {
                    let _ = writeln!(out, "{claim}");
                    let _ = out.flush();
                    continue;
                }
                match mode {
                    _ if !misbehave => {}
                    Mode::Random => {}
                    Mode::Crash => std::process::exit(1),
                    Mode::Hang => loop {
                        std::thread::sleep(Duration::from_secs(1));
                    },
                    Mode::Illegal => {
                        let _ = writeln!(
                            out,
                            "bestmove {}",
                            if base == RankBase::One {
                                "e1e10"
                            } else {
                                "e0e9"
                            }
                        );
                        let _ = out.flush();
                        continue;
                    }
                    Mode::Slow => {
                        let unit = if ucci && !millis { 1000 } else { 1 };
                        let allotted = allotted_ms(&words, &pos) * unit;
                        std::thread::sleep(Duration::from_millis(allotted + 500))
                    }
                    Mode::Spend => {
                        let unit = if ucci && !millis { 1000 } else { 1 };
                        std::thread::sleep(Duration::from_millis(allotted_ms(&words, &pos) * unit))
                    }
                    Mode::Claim | Mode::Shuffle => {}
                }
                format!(
                    "info depth 1 score cp {} nodes 1 pv {chosen}\nbestmove {chosen}",
                    rng.below(21) as i32 - 10
                )
            }
            Some("quit") => break,
            _ => continue,
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}

/// The time this move may take: the mover's clock, or the fixed move time.
fn allotted_ms(words: &[&str], pos: &Position) -> u64 {
    let get = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
    };
    let clock = if pos.side_to_move() == chariot::Color::Red {
        "wtime"
    } else {
        "btime"
    };
    get("movetime")
        .or_else(|| get(clock))
        .or_else(|| get("time"))
        .unwrap_or(0)
}

/// A mate in one if there is one, else a capture of the most valuable piece on offer.
fn skilled_move(pos: &mut Position, list: &[Move]) -> Option<Move> {
    let mate = list.iter().copied().find(|&mv| {
        pos.make_move(mv);
        let mated = legal_moves(pos).as_slice().is_empty();
        pos.unmake_move();
        mated
    });
    let value = |mv: &Move| match pos.piece_at(mv.to()).map(|p| p.kind()) {
        Some(PieceType::Rook) => 9,
        Some(PieceType::Horse | PieceType::Cannon) => 4,
        Some(PieceType::Advisor | PieceType::Elephant) => 2,
        Some(_) => 1,
        None => 0,
    };
    mate.or_else(|| {
        list.iter()
            .copied()
            .filter(|m| value(m) > 0)
            .max_by_key(value)
    })
}

/// Undoes this side's last move when it can, else any move that captures nothing and is not a
/// pawn's (pawns cannot go back).
fn shuffle_move(pos: &Position, list: &[Move], game: &[Move], rng: &mut Rng) -> Move {
    let back = game.len().checked_sub(2).map(|i| game[i]).and_then(|m| {
        list.iter()
            .find(|r| r.from() == m.to() && r.to() == m.from())
    });
    let quiet: Vec<&Move> = list
        .iter()
        .filter(|m| {
            pos.piece_at(m.to()).is_none()
                && pos.piece_at(m.from()).map(|p| p.kind()) != Some(PieceType::Pawn)
        })
        .collect();
    match back {
        Some(&mv) => mv,
        None if !quiet.is_empty() => *quiet[rng.below(quiet.len())],
        None => list[rng.below(list.len())],
    }
}

fn read_position(words: &[&str], base: RankBase) -> Option<(Position, Vec<Move>)> {
    let moves_at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let mut pos = match words.get(1).copied()? {
        "startpos" => Position::startpos(),
        "fen" => Position::from_fen(&words[2..moves_at].join(" ")).ok()?,
        _ => return None,
    };
    let mut moves = Vec::new();
    for text in words.iter().skip(moves_at + 1) {
        let mv = parse_move(&pos, text, base).ok()?;
        pos.make_move(mv);
        moves.push(mv);
    }
    Some((pos, moves))
}
