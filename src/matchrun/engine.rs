//! An engine child process and the protocol it speaks: UCI (Pikafish, ranks 0-9), UCI with
//! `UCI_Variant` (ranks 1-10) or UCCI (ElephantEye). Output is read by a thread that stamps
//! each line with its arrival time, so the runner can wait with deadlines and time moves.

use super::timecontrol::MoveLimits;
use crate::board::notation::RankBase;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    UciVariant,
    Ucci,
}

impl Protocol {
    pub fn parse(text: &str) -> Result<Protocol, String> {
        match text {
            "uci" => Ok(Protocol::Uci),
            "uci-variant" | "uci1" | "ucivariant" => Ok(Protocol::UciVariant),
            "ucci" => Ok(Protocol::Ucci),
            _ => Err(format!(
                "unknown protocol '{text}' (uci, uci-variant or ucci)"
            )),
        }
    }

    /// The name `proto=` takes.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::UciVariant => "uci-variant",
            Protocol::Ucci => "ucci",
        }
    }

    pub fn rank_base(self) -> RankBase {
        match self {
            Protocol::UciVariant => RankBase::One,
            Protocol::Uci | Protocol::Ucci => RankBase::Zero,
        }
    }
}

/// How to start and talk to one engine; built from `--engine key=value ...`.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<String>,
    pub proto: Protocol,
    pub options: Vec<(String, String)>,
    pub limits: MoveLimits,
}

impl EngineConfig {
    /// Parses `cmd=PATH [name=N] [arg=A]... [dir=D] [proto=uci|uci-variant|ucci]
    /// [option.NAME=VALUE]... [tc=..] [st=..] [depth=..] [nodes=..]`.
    pub fn parse(words: &[String]) -> Result<EngineConfig, String> {
        let mut config = EngineConfig {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            proto: Protocol::Uci,
            options: Vec::new(),
            limits: MoveLimits::default(),
        };
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("--engine: expected key=value, got '{word}'"))?;
            match key {
                "cmd" => config.cmd = value.to_string(),
                "name" => config.name = value.to_string(),
                "arg" => config.args.push(value.to_string()),
                "args" => config
                    .args
                    .extend(value.split_whitespace().map(String::from)),
                "dir" => config.dir = Some(value.to_string()),
                "proto" => config.proto = Protocol::parse(value)?,
                _ if key.starts_with("option.") => config
                    .options
                    .push((key["option.".len()..].to_string(), value.to_string())),
                _ => {
                    if !config.limits.set(key, value)? {
                        return Err(format!(
                            "--engine: unknown key '{key}' (cmd, name, arg, args, dir, proto, option.NAME, tc, st, depth, nodes)"
                        ));
                    }
                }
            }
        }
        if config.cmd.is_empty() {
            return Err(format!("--engine {}: cmd=... is required", words.join(" ")));
        }
        if config.name.is_empty() {
            config.name = std::path::Path::new(&config.cmd)
                .file_name()
                .map_or_else(|| config.cmd.clone(), |n| n.to_string_lossy().into_owned());
        }
        Ok(config)
    }
}

/// An option an engine offers in its handshake, as far as the runner checks values.
#[derive(Clone, Debug, PartialEq)]
pub struct Offered {
    pub name: String,
    pub kind: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
    /// A combo's choices.
    pub vars: Vec<String>,
}

impl Offered {
    /// Reads an `option` line: UCI's `option name NAME type T [default D] [min A] [max B]
    /// [var V]...` (a name may hold spaces) or UCCI's `option NAME type T ...`.
    pub fn parse(line: &str, ucci: bool) -> Option<Offered> {
        let rest = line.strip_prefix("option ")?;
        let rest = if ucci {
            rest
        } else {
            rest.trim_start().strip_prefix("name ")?
        };
        let at = rest.find(" type ")?;
        let mut offered = Offered {
            name: rest[..at].trim().to_string(),
            kind: String::new(),
            min: None,
            max: None,
            vars: Vec::new(),
        };
        // Each keyword's value runs to the next keyword.
        let mut key = "";
        let mut value: Vec<&str> = Vec::new();
        let mut finish = |key: &str, value: &mut Vec<&str>| {
            let text = value.join(" ");
            match key {
                "type" => offered.kind = text,
                "min" => offered.min = text.parse().ok(),
                "max" => offered.max = text.parse().ok(),
                "var" => offered.vars.push(text),
                _ => {}
            }
            value.clear();
        };
        for word in rest[at..].split_whitespace() {
            if matches!(word, "type" | "default" | "min" | "max" | "var") {
                finish(key, &mut value);
                key = word;
            } else {
                value.push(word);
            }
        }
        finish(key, &mut value);
        Some(offered)
    }
}

/// Checks `option.NAME=VALUE` against what the engine offers: the name (in any case of
/// letters), and the value by the option's type (a spin's range, a check's true or false, a
/// combo's choices).
pub fn check_option(offered: &[Offered], name: &str, value: &str) -> Result<(), String> {
    let setting = format!("option.{name}={value}");
    let Some(option) = offered.iter().find(|o| o.name.eq_ignore_ascii_case(name)) else {
        return Err(format!(
            "{setting}: the engine does not offer an option '{name}'"
        ));
    };
    let range = match (option.min, option.max) {
        (Some(min), Some(max)) => format!(" (the engine takes {min} to {max})"),
        _ => String::new(),
    };
    match option.kind.as_str() {
        "spin" => match value.trim().parse::<i64>() {
            Err(_) => Err(format!("{setting}: '{value}' is not a whole number{range}")),
            Ok(v) if option.min.is_some_and(|m| v < m) || option.max.is_some_and(|m| v > m) => {
                Err(format!("{setting}: out of range{range}"))
            }
            Ok(_) => Ok(()),
        },
        "check"
            if !["true", "false"]
                .iter()
                .any(|b| value.eq_ignore_ascii_case(b)) =>
        {
            Err(format!("{setting}: '{value}' is neither true nor false"))
        }
        "combo" if !option.vars.iter().any(|v| v.eq_ignore_ascii_case(value)) => Err(format!(
            "{setting}: '{value}' is not one of {}",
            option.vars.join(", ")
        )),
        _ => Ok(()),
    }
}

/// An evaluation reported in `info`, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportedScore {
    Cp(i32),
    /// Moves to mate; negative when the mover is mated.
    Mate(i32),
}

impl ReportedScore {
    /// Centipawns, with mates as huge values, for adjudication thresholds.
    pub fn as_cp(self) -> i32 {
        match self {
            ReportedScore::Cp(cp) => cp,
            ReportedScore::Mate(n) if n > 0 => 100_000 - n,
            ReportedScore::Mate(n) => -100_000 - n,
        }
    }
}

/// What an engine answered to `go`: a move, or a claim that the game is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The move as the engine wrote it.
    Move(String),
    /// `nobestmove` (UCCI), `bestmove (none)` or `bestmove 0000` (UCI): the engine says the
    /// game is over. Holds the line, for the record.
    Claim(String),
}

impl Answer {
    /// Reads a `bestmove` / `nobestmove` line.
    pub fn parse(line: &str) -> Result<Answer, Failure> {
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("nobestmove"), _) | (Some("bestmove"), Some("(none)" | "0000")) => {
                Ok(Answer::Claim(line.to_string()))
            }
            (Some("bestmove"), Some(mv)) => Ok(Answer::Move(mv.to_string())),
            _ => Err(Failure::Protocol(format!("no move given ('{line}')"))),
        }
    }
}

/// An engine's answer to `go`, with what it said about the position.
#[derive(Clone, Debug)]
pub struct Reply {
    pub answer: Answer,
    pub score: Option<ReportedScore>,
    pub depth: Option<u32>,
    pub elapsed: Duration,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process exited or closed its pipes.
    Crashed,
    /// No answer in time; `answered_stop` says whether it obeyed `stop` afterwards, and
    /// `took` how long the move then took in all.
    Timeout {
        answered_stop: bool,
        took: Option<Duration>,
    },
    /// It said something the protocol does not allow (or nothing to move).
    Protocol(String),
    /// The match is being stopped (Ctrl-C).
    Interrupted,
}

/// How long a stopped engine may take to send its `bestmove`.
const STOP_GRACE: Duration = Duration::from_millis(1000);
/// How often waits look at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    pub config: EngineConfig,
    /// A UCCI engine that offered `usemillisec` was switched to milliseconds; other UCCI
    /// engines take their times in seconds.
    pub ucci_millis: bool,
    /// The `option ...` lines of the handshake, as the engine sent them.
    pub offered: Vec<String>,
}

impl EngineProcess {
    /// Starts the engine and completes the handshake within `timeout`.
    pub fn start(
        config: &EngineConfig,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<EngineProcess, String> {
        let mut command = Command::new(&config.cmd);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            command.current_dir(dir);
        }
        // Own process group: a Ctrl-C meant for the runner must not kill the engines before
        // the runner has stopped them and saved its results.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start {} ({}): {e}", config.name, config.cmd))?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            config: config.clone(),
            ucci_millis: false,
            offered: Vec::new(),
        };
        let failed = |f: Failure| format!("{} failed to start: {}", config.name, describe(&f));
        let offered = engine.hello(timeout, stop).map_err(failed)?;
        for (name, value) in &config.options {
            check_option(&offered, name, value).map_err(|e| format!("{}: {e}", config.name))?;
        }
        engine.configure(&offered, timeout, stop).map_err(failed)?;
        Ok(engine)
    }

    /// Sends `uci` or `ucci` and collects the options the engine offers, up to its `uciok`.
    fn hello(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<Vec<Offered>, Failure> {
        let (hello, ok) = match self.config.proto {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci | Protocol::UciVariant => ("uci", "uciok"),
        };
        self.send(hello)?;
        let mut offered = Vec::new();
        let mut lines = Vec::new();
        let ucci = self.config.proto == Protocol::Ucci;
        self.wait_with(
            |l| l == ok,
            |l| {
                offered.extend(Offered::parse(l, ucci));
                if l.starts_with("option ") {
                    lines.push(l.to_string());
                }
            },
            timeout,
            stop,
        )?;
        self.offered = lines;
        Ok(offered)
    }

    /// Sets the options and waits until the engine is ready.
    fn configure(
        &mut self,
        offered: &[Offered],
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<(), Failure> {
        let offers_millis = offered.iter().any(|o| o.name == "usemillisec");
        if self.config.proto == Protocol::Ucci && offers_millis {
            self.send("setoption usemillisec true")?;
            self.ucci_millis = true;
        }
        let mut options = self.config.options.clone();
        if self.config.proto == Protocol::UciVariant {
            options.insert(0, ("UCI_Variant".into(), "xiangqi".into()));
        }
        self.set_options(&options, timeout, stop)
    }

    /// Sends `setoption` for each (name, value) and waits until the engine is ready.
    pub fn set_options(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<(), Failure> {
        for (name, value) in options {
            let line = match self.config.proto {
                Protocol::Ucci => format!("setoption {name} {value}"),
                _ => format!("setoption name {name} value {value}"),
            };
            self.send(&line)?;
        }
        self.sync(timeout, stop)
    }

    /// `isready`/`readyok`, throwing away anything the engine said before.
    pub fn sync(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", timeout, stop).map(|_| ())
    }

    pub fn new_game(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), Failure> {
        if self.config.proto != Protocol::Ucci {
            self.send("ucinewgame")?;
        }
        self.sync(timeout, stop)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Failure::Crashed)
    }

    /// Waits for a line satisfying `want`, passing every line to `seen`.
    fn wait_with(
        &mut self,
        want: impl Fn(&str) -> bool,
        mut seen: impl FnMut(&str),
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<(Instant, String), Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(Failure::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout {
                    answered_stop: false,
                    took: None,
                });
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok((at, line)) => {
                    let line = line.trim();
                    seen(line);
                    if want(line) {
                        return Ok((at, line.to_string()));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Crashed),
            }
        }
    }

    fn wait_for(
        &mut self,
        want: impl Fn(&str) -> bool,
        timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<String, Failure> {
        self.wait_with(want, |_| {}, timeout, stop)
            .map(|(_, line)| line)
    }

    /// Sends the position and `go`, and waits up to `deadline` for the move. On a timeout the
    /// engine is told to stop and given a short grace to answer, so it can be reused.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Duration,
        stop: &AtomicBool,
    ) -> Result<Reply, Failure> {
        self.send(position)?;
        self.send(go)?;
        let start = Instant::now();
        let mut score = None;
        let mut depth = None;
        let is_answer = |l: &str| l.starts_with("bestmove") || l.starts_with("nobestmove");
        let result = self.wait_with(
            is_answer,
            |line| {
                if line.starts_with("info") {
                    let (s, d) = parse_info(line);
                    score = s.or(score);
                    depth = d.or(depth);
                }
            },
            deadline,
            stop,
        );
        match result {
            Ok((at, line)) => Ok(Reply {
                answer: Answer::parse(&line)?,
                score,
                depth,
                elapsed: at.saturating_duration_since(start),
            }),
            Err(Failure::Timeout { .. }) => {
                let _ = self.send("stop");
                match self.wait_with(is_answer, |_| {}, STOP_GRACE, stop) {
                    // The reader thread stamped the answer in time; the waiting thread merely
                    // woke first. Judge by the stamp, not by which runner thread ran.
                    Ok((at, line)) if at.saturating_duration_since(start) <= deadline => {
                        Ok(Reply {
                            answer: Answer::parse(&line)?,
                            score,
                            depth,
                            elapsed: at.saturating_duration_since(start),
                        })
                    }
                    Ok((at, _)) => Err(Failure::Timeout {
                        answered_stop: true,
                        took: Some(at.saturating_duration_since(start)),
                    }),
                    Err(_) => Err(Failure::Timeout {
                        answered_stop: false,
                        took: None,
                    }),
                }
            }
            Err(other) => Err(other),
        }
    }

    /// Asks the engine to quit, killing it if it does not within a moment.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Reads `score cp N` / `score mate N` (UCI) or `score N` (UCCI), and `depth N`, from an
/// `info` line. Bound scores count too: only the last one before `bestmove` is kept.
pub fn parse_info(line: &str) -> (Option<ReportedScore>, Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (mut score, mut depth) = (None, None);
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => depth = words.get(i + 1).and_then(|w| w.parse().ok()),
            "score" => {
                score = match words.get(i + 1).copied() {
                    Some("cp") => words
                        .get(i + 2)
                        .and_then(|w| w.parse().ok())
                        .map(ReportedScore::Cp),
                    Some("mate") => words
                        .get(i + 2)
                        .and_then(|w| w.parse().ok())
                        .map(ReportedScore::Mate),
                    Some(w) => w.parse().ok().map(ReportedScore::Cp),
                    None => None,
                }
            }
            // The rest of the line is moves or free text.
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
    (score, depth)
}

/// Words for a failure, used in PGN reasons.
pub fn describe(failure: &Failure) -> String {
    match failure {
        Failure::Crashed => "the engine process exited".into(),
        Failure::Timeout {
            answered_stop: true,
            ..
        } => "no answer in time".into(),
        Failure::Timeout {
            answered_stop: false,
            ..
        } => "no answer in time, and none to stop".into(),
        Failure::Protocol(what) => format!("protocol error: {what}"),
        Failure::Interrupted => "interrupted".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_engine_settings() {
        let c = EngineConfig::parse(&words(
            "cmd=/bin/eng name=E proto=ucci option.Hash=16 arg=-x depth=3",
        ))
        .unwrap();
        assert_eq!((c.name.as_str(), c.proto), ("E", Protocol::Ucci));
        assert_eq!(c.options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(c.args, vec!["-x"]);
        assert_eq!(c.limits.depth, Some(3));
        assert_eq!(
            EngineConfig::parse(&words("cmd=/usr/bin/foo"))
                .unwrap()
                .name,
            "foo"
        );
        assert!(EngineConfig::parse(&words("name=x"))
            .unwrap_err()
            .contains("cmd"));
        assert!(EngineConfig::parse(&words("cmd=x colour=red"))
            .unwrap_err()
            .contains("unknown key"));
        assert!(EngineConfig::parse(&words("cmd=x proto=xboard"))
            .unwrap_err()
            .contains("protocol"));
    }

    #[test]
    fn parses_info_lines() {
        assert_eq!(
            parse_info("info depth 7 seldepth 9 score cp -35 nodes 10 pv h2e2"),
            (Some(ReportedScore::Cp(-35)), Some(7))
        );
        assert_eq!(
            parse_info("info depth 12 score mate -3 pv a0a1"),
            (Some(ReportedScore::Mate(-3)), Some(12))
        );
        assert_eq!(
            parse_info("info depth 5 score 42 pv h2e2 h9g7"),
            (Some(ReportedScore::Cp(42)), Some(5))
        );
        assert_eq!(parse_info("info string score cp 100"), (None, None));
        assert!(
            ReportedScore::Mate(2).as_cp() > 10_000 && ReportedScore::Mate(-2).as_cp() < -10_000
        );
    }

    #[test]
    fn claims_are_told_apart_from_moves() {
        for line in [
            "nobestmove",
            "bestmove (none)",
            "bestmove 0000",
            "nobestmove draw",
        ] {
            assert_eq!(Answer::parse(line), Ok(Answer::Claim(line.into())));
        }
        assert_eq!(
            Answer::parse("bestmove h2e2 ponder h9g7"),
            Ok(Answer::Move("h2e2".into()))
        );
        assert!(matches!(
            Answer::parse("bestmove"),
            Err(Failure::Protocol(_))
        ));
    }

    #[test]
    fn offered_options_are_read_and_values_checked() {
        let uci = [
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Clear Hash type button",
            "option name UCI_ShowWDL type check default false",
            "option name Style type combo default Normal var Solid var Normal var Risky Play",
        ];
        let offered: Vec<Offered> = uci
            .iter()
            .filter_map(|l| Offered::parse(l, false))
            .collect();
        assert_eq!(offered.len(), 4);
        assert_eq!((offered[0].min, offered[0].max), (Some(1), Some(33554432)));
        assert_eq!(offered[1].name, "Clear Hash");
        assert_eq!(offered[3].vars, ["Solid", "Normal", "Risky Play"]);
        let ucci = Offered::parse("option hashsize type spin min 16 max 1024 default 16", true);
        assert_eq!(ucci.unwrap().max, Some(1024));
        for (name, value) in [
            ("hash", "64"),
            ("Clear Hash", ""),
            ("UCI_ShowWDL", "TRUE"),
            ("style", "risky play"),
        ] {
            assert_eq!(
                check_option(&offered, name, value),
                Ok(()),
                "{name}={value}"
            );
        }
        for (name, value, words) in [
            ("Bogus", "1", "does not offer"),
            (
                "Hash",
                "abc",
                "not a whole number (the engine takes 1 to 33554432)",
            ),
            ("Hash", "0", "out of range"),
            ("UCI_ShowWDL", "yes", "neither true nor false"),
            ("Style", "Wild", "not one of Solid, Normal, Risky Play"),
        ] {
            let error = check_option(&offered, name, value).unwrap_err();
            assert!(error.contains(words), "{name}={value}: {error}");
        }
    }

    #[test]
    fn a_missing_program_is_a_clear_error() {
        let config = EngineConfig::parse(&words("cmd=/nonexistent/engine name=ghost")).unwrap();
        let err = EngineProcess::start(&config, Duration::from_secs(1), &AtomicBool::new(false))
            .err()
            .unwrap();
        assert!(err.contains("cannot start ghost"), "{err}");
    }
}
