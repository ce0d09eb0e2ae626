//! Every engine option, stated once: its UCI and UCCI names, type, default and range. Both
//! protocols print their option lists from this table and check `setoption` values against it;
//! `Engine::apply` then does what the checked value asks.

use crate::search::tt::TranspositionTable;
use crate::search::MAX_THREADS;

/// What an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    Hash,
    Threads,
    MultiPv,
    Ponder,
    ClearHash,
    MoveOverhead,
    UciVariant,
    UseMillisec,
    NewGame,
    UseNnue,
    EvalFile,
    OwnBook,
    BookFile,
    /// A search parameter, by its index in `search::params::TUNABLES` (`spsa` builds only).
    #[cfg(feature = "spsa")]
    Tunable(usize),
    ShowWdl,
    LimitStrength,
    Elo,
}

/// An option's type, with its default and allowed values.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    Combo {
        default: &'static str,
        choices: &'static [&'static str],
    },
    /// Free text (a file path).
    Text {
        default: &'static str,
    },
}

/// A checked `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Spin(i64),
    Check(bool),
    Button,
    Combo(&'static str),
    Text(String),
}

/// One option: the name each protocol knows it by (`None`: not offered there).
#[derive(Debug)]
pub struct EngineOption {
    pub setting: Setting,
    pub uci: Option<&'static str>,
    pub ucci: Option<&'static str>,
    pub kind: Kind,
}

pub const MAX_HASH_MB: i64 = 1 << 16;

pub const OPTIONS: &[EngineOption] = &[
    EngineOption {
        setting: Setting::Hash,
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        kind: Kind::Spin {
            default: TranspositionTable::DEFAULT_MB as i64,
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    EngineOption {
        setting: Setting::Threads,
        uci: Some("Threads"),
        ucci: Some("threads"),
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
    },
    EngineOption {
        setting: Setting::MultiPv,
        uci: Some("MultiPV"),
        ucci: None,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 128,
        },
    },
    // Accepted; pondering itself follows `go ponder` / `ponderhit`.
    EngineOption {
        setting: Setting::Ponder,
        uci: Some("Ponder"),
        ucci: None,
        kind: Kind::Check { default: false },
    },
    EngineOption {
        setting: Setting::ClearHash,
        uci: Some("Clear Hash"),
        ucci: None,
        kind: Kind::Button,
    },
    EngineOption {
        setting: Setting::MoveOverhead,
        uci: Some("Move Overhead"),
        ucci: None,
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 5000,
        },
    },
    // Once a GUI sets it, moves are read and written with ranks 1-10.
    EngineOption {
        setting: Setting::UciVariant,
        uci: Some("UCI_Variant"),
        ucci: None,
        kind: Kind::Combo {
            default: "xiangqi",
            choices: &["xiangqi"],
        },
    },
    // UCCI `go` times are seconds unless the host switches this on.
    EngineOption {
        setting: Setting::UseMillisec,
        uci: None,
        ucci: Some("usemillisec"),
        kind: Kind::Check { default: false },
    },
    EngineOption {
        setting: Setting::NewGame,
        uci: None,
        ucci: Some("newgame"),
        kind: Kind::Button,
    },
    // The network evaluates instead of the classical evaluation (Stockfish's name).
    EngineOption {
        setting: Setting::UseNnue,
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        kind: Kind::Check {
            default: crate::nnue::USE_BY_DEFAULT,
        },
    },
    // A network file to load instead of the embedded one; `<embedded>` goes back to it.
    EngineOption {
        setting: Setting::EvalFile,
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        kind: Kind::Text {
            default: crate::nnue::EMBEDDED_NAME,
        },
    },
    // Answer `go` from the opening book when it holds the position (not when pondering, nor
    // for `go infinite` or `go mate`). ElephantEye's UCCI names.
    EngineOption {
        setting: Setting::OwnBook,
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        kind: Kind::Check { default: false },
    },
    // The book file (`chariot book build`); `<empty>` for none.
    EngineOption {
        setting: Setting::BookFile,
        uci: Some("BookFile"),
        ucci: Some("bookfiles"),
        kind: Kind::Text {
            default: crate::book::NO_BOOK,
        },
    },
    // `wdl W D L` after each `info` score (UCCI's `info` has no such field).
    EngineOption {
        setting: Setting::ShowWdl,
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        kind: Kind::Check { default: false },
    },
    // Weaker play (`crate::strength`). UCCI defines no such option; ElephantEye-style hosts
    // list these two from the handshake like any other.
    EngineOption {
        setting: Setting::LimitStrength,
        uci: Some("UCI_LimitStrength"),
        ucci: Some("limitstrength"),
        kind: Kind::Check { default: false },
    },
    EngineOption {
        setting: Setting::Elo,
        uci: Some("UCI_Elo"),
        ucci: Some("elo"),
        kind: Kind::Spin {
            default: crate::strength::MAX_ELO,
            min: crate::strength::MIN_ELO,
            max: crate::strength::MAX_ELO,
        },
    },
];

/// ElephantEye's options with no meaning here: UCCI hosts may send them, and they are accepted
/// and ignored rather than reported as errors.
pub const UCCI_IGNORED: &[&str] = &[
    "batch",
    "debug",
    "ponder",
    "evalapi",
    "promotion",
    "idle",
    "pruning",
    "knowledge",
    "randomness",
    "style",
    "loadbook",
];

/// The options UCI offers: [`OPTIONS`], and in `spsa` builds every search parameter as a
/// spin option of its own name, with its tuning range.
pub fn uci_options() -> impl Iterator<Item = &'static EngineOption> {
    OPTIONS.iter().chain(tunable_options())
}

#[cfg(not(feature = "spsa"))]
fn tunable_options() -> &'static [EngineOption] {
    &[]
}

#[cfg(feature = "spsa")]
fn tunable_options() -> &'static [EngineOption] {
    use crate::search::params::TUNABLES;
    use std::sync::LazyLock;
    static TABLE: LazyLock<Vec<EngineOption>> = LazyLock::new(|| {
        TUNABLES
            .iter()
            .enumerate()
            .map(|(i, t)| EngineOption {
                setting: Setting::Tunable(i),
                uci: Some(t.name),
                ucci: None,
                kind: Kind::Spin {
                    default: t.default.into(),
                    min: t.min.into(),
                    max: t.max.into(),
                },
            })
            .collect()
    });
    &TABLE
}

/// The option a UCI GUI calls `name` (case-insensitive, as UCI asks).
pub fn find_uci(name: &str) -> Option<&'static EngineOption> {
    uci_options().find(|o| o.uci.is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

/// The option a UCCI host calls `name` (case-insensitive).
pub fn find_ucci(name: &str) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| o.ucci.is_some_and(|n| n.eq_ignore_ascii_case(name)))
}

impl EngineOption {
    /// Checks `value` (the text after the name; `None` when absent) against the option's type
    /// and range. `name` is the name as the GUI wrote it, for the error message.
    pub fn parse(&self, name: &str, value: Option<&str>) -> Result<Value, String> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let needed = || value.ok_or_else(|| format!("setoption: '{name}' needs a value"));
        match self.kind {
            Kind::Spin { min, max, .. } => {
                let text = needed()?;
                match text.parse::<i64>() {
                    Ok(v) if (min..=max).contains(&v) => Ok(Value::Spin(v)),
                    Ok(v) => Err(format!("setoption: {name} takes {min} to {max}, not {v}")),
                    Err(_) => Err(format!(
                        "setoption: '{text}' is not a number ({name} takes {min} to {max})"
                    )),
                }
            }
            Kind::Check { .. } => {
                let text = needed()?;
                if text.eq_ignore_ascii_case("true") {
                    Ok(Value::Check(true))
                } else if text.eq_ignore_ascii_case("false") {
                    Ok(Value::Check(false))
                } else {
                    Err(format!(
                        "setoption: '{text}' for '{name}': expected 'true' or 'false'"
                    ))
                }
            }
            // A button takes no value; GUIs that send one anyway are not refused.
            Kind::Button => Ok(Value::Button),
            Kind::Text { .. } => Ok(Value::Text(needed()?.to_string())),
            Kind::Combo { choices, .. } => {
                let text = needed()?;
                choices
                    .iter()
                    .find(|c| c.eq_ignore_ascii_case(text))
                    .map(|c| Value::Combo(c))
                    .ok_or_else(|| {
                        format!(
                            "setoption: unsupported {name} '{text}' (expected {})",
                            choices.join(" or ")
                        )
                    })
            }
        }
    }

    /// The `option name ...` line of the UCI handshake.
    pub fn uci_line(&self) -> Option<String> {
        let name = self.uci?;
        Some(match self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Button => format!("option name {name} type button"),
            Kind::Combo { default, choices } => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Text { default } => format!("option name {name} type string default {default}"),
        })
    }

    /// The `option ...` line of the UCCI handshake (ElephantEye's order of fields).
    pub fn ucci_line(&self) -> Option<String> {
        let name = self.ucci?;
        Some(match self.kind {
            Kind::Spin { default, min, max } => {
                format!("option {name} type spin min {min} max {max} default {default}")
            }
            Kind::Check { default } => format!("option {name} type check default {default}"),
            Kind::Button => format!("option {name} type button"),
            Kind::Combo { default, choices } => {
                let vars: String = choices.iter().map(|c| format!(" var {c}")).collect();
                format!("option {name} type combo{vars} default {default}")
            }
            Kind::Text { default } => format!("option {name} type string default {default}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_within_each_protocol() {
        let all: Vec<&EngineOption> = uci_options().collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(a.setting != b.setting, "{:?} twice", a.setting);
                for (x, y) in [(a.uci, b.uci), (a.ucci, b.ucci)] {
                    if let (Some(x), Some(y)) = (x, y) {
                        assert!(!x.eq_ignore_ascii_case(y), "{x} twice");
                    }
                }
            }
            if let Some(name) = a.ucci {
                assert!(!UCCI_IGNORED.contains(&name), "{name} is also ignored");
            }
        }
    }

    #[test]
    fn defaults_lie_in_their_ranges() {
        for option in OPTIONS {
            match option.kind {
                Kind::Spin { default, min, max } => {
                    assert!(min <= default && default <= max, "{option:?}")
                }
                Kind::Combo { default, choices } => assert!(choices.contains(&default)),
                Kind::Check { .. } | Kind::Button | Kind::Text { .. } => {}
            }
        }
    }

    #[test]
    fn values_are_checked_against_the_table() {
        let hash = find_uci("hash").unwrap();
        assert_eq!(hash.parse("Hash", Some("64")), Ok(Value::Spin(64)));
        assert!(hash.parse("Hash", Some("0")).is_err());
        assert!(hash.parse("Hash", Some("65537")).is_err());
        assert!(hash.parse("Hash", Some("lots")).is_err());
        assert!(hash.parse("Hash", None).is_err());
        assert_eq!(find_ucci("HASHSIZE").unwrap().setting, Setting::Hash);
        let millis = find_ucci("usemillisec").unwrap();
        assert_eq!(millis.parse("x", Some("TRUE")), Ok(Value::Check(true)));
        assert!(millis.parse("x", Some("maybe")).is_err());
        let variant = find_uci("uci_variant").unwrap();
        assert_eq!(
            variant.parse("x", Some("Xiangqi")),
            Ok(Value::Combo("xiangqi"))
        );
        assert!(variant.parse("x", Some("chess")).is_err());
        assert!(find_uci("usemillisec").is_none() && find_ucci("MultiPV").is_none());
    }
}
