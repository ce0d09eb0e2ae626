//! The text protocols GUIs speak: UCI (Pikafish conventions) and UCCI (ElephantEye
//! conventions). The first command chooses: `uci` or `ucci`; anything else starts UCI quietly
//! so a person can type `go depth 8` straight away.

pub mod engine;
pub mod options;
mod ucci;
mod uci;

use crate::search::Limits;
use engine::{Dialect, Engine};
use std::io::BufRead;
use std::sync::{Arc, Mutex};

/// Reads commands from `input` until `quit` or end of input, answering on standard output.
pub fn run_loop(mut input: impl BufRead) {
    let mut session = Session::new(Output::stdout());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if session.command_bytes(&line) == Outcome::Quit {
            break;
        }
    }
    // End of input: finish any search so its bestmove is not lost.
    session.finish();
}

/// What one command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Carried out (or an empty line).
    Done,
    /// Refused with `info string error: <message>`; the state is as it was.
    Rejected(String),
    /// `quit`: the caller stops reading.
    Quit,
}

/// Where a protocol's output goes: standard output, or a buffer a test or fuzz harness reads.
/// The search thread writes through a clone, so its lines and the commands' interleave in the
/// order they happen.
#[derive(Clone)]
pub struct Output(Option<Arc<Mutex<Vec<String>>>>);

impl Output {
    pub fn stdout() -> Output {
        Output(None)
    }

    pub fn capture() -> Output {
        Output(Some(Arc::default()))
    }

    /// Writes `text` (one or more lines, without the final newline).
    pub fn line(&self, text: &str) {
        match &self.0 {
            None => {
                use std::io::Write;
                // A GUI that closed its end of the pipe is gone; nothing is left to tell.
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{text}").and_then(|_| out.flush());
            }
            Some(buffer) => buffer
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(text.lines().map(str::to_string)),
        }
    }

    /// The captured lines so far, removed from the buffer (empty for standard output).
    pub fn take(&self) -> Vec<String> {
        match &self.0 {
            None => Vec::new(),
            Some(buffer) => std::mem::take(&mut *buffer.lock().unwrap_or_else(|e| e.into_inner())),
        }
    }
}

/// Bounds a harness puts on what commands may ask for, so arbitrary input can neither allocate
/// gigabytes nor search for long: the table never exceeds `hash_mb`, searches use at most
/// `threads` threads and `nodes` nodes (then wait for `stop` as usual if infinite or
/// pondering). The options still read and report what the GUI set. The binary has no caps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Caps {
    pub hash_mb: Option<usize>,
    pub threads: Option<usize>,
    pub nodes: Option<u64>,
}

/// One conversation with a GUI: the engine is created by the first command, which also
/// chooses the protocol.
pub struct Session {
    engine: Option<Engine>,
    out: Output,
    caps: Caps,
}

impl Session {
    pub fn new(out: Output) -> Session {
        Session::with_caps(out, Caps::default())
    }

    pub fn with_caps(out: Output, caps: Caps) -> Session {
        Session {
            engine: None,
            out,
            caps,
        }
    }

    /// The engine, once the first command has created it.
    pub fn engine(&self) -> Option<&Engine> {
        self.engine.as_ref()
    }

    /// One line of input as bytes: invalid UTF-8 is replaced (and then refused by the command
    /// that meets it) rather than ending the conversation.
    pub fn command_bytes(&mut self, line: &[u8]) -> Outcome {
        self.command(&String::from_utf8_lossy(line))
    }

    /// One line of input; surrounding whitespace and the line ending are ignored.
    pub fn command(&mut self, line: &str) -> Outcome {
        let line = line.trim();
        if line.is_empty() {
            return Outcome::Done;
        }
        let (out, caps) = (&self.out, self.caps);
        let engine = self.engine.get_or_insert_with(|| {
            let dialect = if line.split_whitespace().next() == Some("ucci") {
                Dialect::Ucci
            } else {
                Dialect::Uci
            };
            Engine::with_caps(dialect, out.clone(), caps)
        });
        let result = match engine.dialect {
            Dialect::Uci => uci::handle(engine, line),
            Dialect::Ucci => ucci::handle(engine, line),
        };
        match result {
            Ok(Flow::Continue) => Outcome::Done,
            Ok(Flow::Quit) => Outcome::Quit,
            Err(message) => {
                let message = shortened(&message);
                self.out.line(&format!("info string error: {message}"));
                Outcome::Rejected(message)
            }
        }
    }

    /// Lets a search that ends by itself finish (see `Engine::wait`).
    pub fn wait(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.wait();
        }
    }

    /// Ends any running search; its `bestmove` is written first.
    pub fn finish(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.stop();
        }
    }
}

/// Whether the conversation goes on after a command.
enum Flow {
    Continue,
    Quit,
}

/// The words of a `go` command, read one parameter at a time. A parameter's value is the next
/// word unless that word names a parameter itself, so a missing value does not take the next
/// parameter with it.
struct GoWords<'a> {
    words: std::iter::Peekable<std::str::SplitWhitespace<'a>>,
    /// Every parameter name of the dialect.
    names: &'static [&'static str],
}

impl<'a> GoWords<'a> {
    fn new(args: &'a str, names: &'static [&'static str]) -> GoWords<'a> {
        GoWords {
            words: args.split_whitespace().peekable(),
            names,
        }
    }

    fn next_name(&mut self) -> Option<&'a str> {
        self.words.next()
    }

    fn value(&mut self) -> Option<&'a str> {
        let names = self.names;
        self.words.next_if(|w| !names.contains(w))
    }

    fn number<T: std::str::FromStr>(&mut self, name: &str) -> Result<T, String> {
        let text = self
            .value()
            .ok_or_else(|| format!("go: '{name}' needs a value"))?;
        text.parse()
            .map_err(|_| format!("go: '{text}' is not a valid number for '{name}'"))
    }

    /// The error for an unknown parameter, whose values (up to the next parameter) go with it.
    fn unknown(&mut self, name: &str) -> String {
        while self.value().is_some() {}
        format!("go: unknown parameter '{name}'")
    }
}

/// Starts the search of a `go` whose parameters that could not be read are `errors`. A `go`
/// is never refused, since a GUI waits for its `bestmove`: each error is reported with
/// `info string error: ...` and that parameter left out. When what is left sets no limit at
/// all (a bad `depth` or `movetime` alone), the search stops after depth 1 rather than run
/// until a `stop` that may never come.
fn start_go(engine: &mut Engine, mut limits: Limits, ponder: bool, errors: &[String]) {
    engine.stop();
    for error in errors {
        engine.out.line(&format!("info string error: {error}"));
    }
    let unlimited = limits.time.is_none()
        && limits.movetime.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.mate.is_none()
        && !limits.infinite;
    if !errors.is_empty() && unlimited {
        limits.depth = Some(1);
    }
    engine.go(limits, ponder);
}

/// Longest error message sent back: input echoed in it (a junk line of megabytes, a long
/// move list) is cut, with its length said.
const MAX_ERROR: usize = 200;

/// `message`, cut to [`MAX_ERROR`] bytes at a character boundary when longer.
fn shortened(message: &str) -> String {
    if message.len() <= MAX_ERROR {
        return message.to_string();
    }
    let mut end = MAX_ERROR;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &message[..end], message.len())
}
