//! cutechess-cli's argument forms (`-engine cmd=.. proto=..`, `-each`, `-rounds`, `-games`,
//! `-openings file=..`, `-pgnout`, ...) rewritten into `chariot match`'s own, so a script
//! written for the cutechess xiangqi fork runs unchanged. Words that do not start with a
//! single dash pass through, so both forms can be mixed.

/// Engine keys cutechess accepts that change nothing here: engines are always restarted
/// after a crash, never ponder, and their stderr is not kept.
const IGNORED_ENGINE_KEYS: [&str; 5] = ["restart", "trust", "ponder", "stderr", "whitepov"];

/// Options that take no value and change nothing here.
const IGNORED_FLAGS: [&str; 2] = ["-recover", "-debug"];

/// Options with one value that change nothing here.
const IGNORED_WITH_VALUE: [&str; 3] = ["-ratinginterval", "-outcomeinterval", "-wait"];

fn starts_option(word: &str) -> bool {
    // `-h` stays clap's help.
    word.starts_with('-') && !word.starts_with("--") && word.len() > 2
}

/// The words after a cutechess option, up to the next option.
fn values(words: &[String], from: usize) -> &[String] {
    let end = words[from..]
        .iter()
        .position(|w| starts_option(w) || w.starts_with("--"))
        .map_or(words.len(), |n| from + n);
    &words[from..end]
}

/// Engine words in cutechess form to Chariot's; `margin` collects `timemargin=`, which
/// cutechess sets per engine and Chariot once for the match (the largest wins).
fn engine_words(words: &[String], margin: &mut Option<u64>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for word in words {
        let (key, value) = word.split_once('=').unwrap_or((word.as_str(), ""));
        match key {
            "cmd" | "name" | "dir" | "arg" | "tc" | "st" | "depth" | "nodes" => {
                out.push(word.clone())
            }
            _ if key.starts_with("option.") => out.push(word.clone()),
            "proto" => match value {
                "uci" | "ucci" | "uci-variant" => out.push(word.clone()),
                _ => {
                    return Err(format!(
                        "-engine proto={value}: only uci and ucci are spoken"
                    ))
                }
            },
            "timemargin" => {
                let ms: u64 = value
                    .parse()
                    .map_err(|_| format!("timemargin={value}: not a number of ms"))?;
                *margin = Some(margin.map_or(ms, |m| m.max(ms)));
            }
            "conf" => return Err("-engine conf=: engines.json is not read; give cmd=".into()),
            _ if IGNORED_ENGINE_KEYS.contains(&key) => {}
            _ => return Err(format!("-engine: unknown key '{key}'")),
        }
    }
    Ok(out)
}

/// Rewrites the arguments of `chariot match` (without the subcommand).
pub fn translate(words: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut engines: Vec<Vec<String>> = Vec::new();
    let mut each: Vec<String> = Vec::new();
    let (mut rounds, mut games) = (None::<u64>, None::<u64>);
    let mut margin = None;
    let mut openings: Option<Vec<String>> = None;
    let mut seed = None;
    let number = |option: &str, value: Option<&String>| -> Result<u64, String> {
        value
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{option} needs a number"))
    };
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        if !starts_option(word) {
            out.push(word.clone());
            i += 1;
            continue;
        }
        let args = values(words, i + 1);
        let mut used = args.len();
        let first = args.first();
        match word.as_str() {
            "-engine" => engines.push(engine_words(args, &mut margin)?),
            "-each" => each.extend(engine_words(args, &mut margin)?),
            "-rounds" => (rounds, used) = (Some(number(word, first)?), 1),
            "-games" => (games, used) = (Some(number(word, first)?), 1),
            "-concurrency" => {
                out.extend(["--concurrency".into(), number(word, first)?.to_string()]);
                used = 1;
            }
            "-maxmoves" => {
                out.extend(["--max-moves".into(), number(word, first)?.to_string()]);
                used = 1;
            }
            "-srand" => (seed, used) = (Some(number(word, first)?), 1),
            "-openings" => {
                let mut kept = Vec::new();
                for w in args {
                    // The schedule already gives every pairing of a round the same opening.
                    if !w.starts_with("policy=") {
                        kept.push(w.clone());
                    }
                }
                openings = Some(kept);
            }
            "-pgnout" => {
                // `min` (no move comments) and `fi` (FEN of the final position) are not kept.
                let file = first.ok_or("-pgnout needs a file")?;
                out.extend(["--pgn".into(), file.clone()]);
            }
            "-sprt" | "-draw" => {
                out.push(format!("-{word}"));
                out.extend(args.iter().cloned());
            }
            "-resign" => {
                out.push("--resign".into());
                for w in args {
                    match w.as_str() {
                        // Chariot's rule always needs both engines to agree.
                        "twosided=true" => {}
                        _ if w.starts_with("twosided=") => {
                            return Err("-resign twosided=false: both engines must agree".into())
                        }
                        _ => out.push(w.clone()),
                    }
                }
            }
            "-tournament" => {
                let kind = first.ok_or("-tournament needs gauntlet or round-robin")?;
                out.extend(["--tournament".into(), kind.clone()]);
                used = 1;
            }
            "-event" => {
                out.extend(["--event".into(), args.join(" ")]);
            }
            "-variant" => {
                if first.map(String::as_str) != Some("xiangqi") {
                    return Err("-variant: only xiangqi is played".into());
                }
            }
            // `-repeat` may carry a count: colours are always swapped over a pair of games.
            "-repeat" => match first.map(String::as_str) {
                None | Some("2") => used = first.map_or(0, |_| 1),
                Some(n) => return Err(format!("-repeat {n}: each opening is played twice")),
            },
            _ if IGNORED_FLAGS.contains(&word.as_str()) => used = 0,
            _ if IGNORED_WITH_VALUE.contains(&word.as_str()) => used = 1,
            _ => return Err(format!("unknown option {word}")),
        }
        i += 1 + used;
    }
    for engine in engines {
        out.push("--engine".into());
        // `-each` first: the engine's own settings follow and win.
        out.extend(each.iter().cloned());
        out.extend(engine);
    }
    if rounds.is_some() || games.is_some() {
        let total = rounds.unwrap_or(1) * games.unwrap_or(1);
        out.extend(["--games".into(), total.to_string()]);
    }
    if let Some(ms) = margin {
        out.extend(["--timemargin".into(), ms.to_string()]);
    }
    if let Some(mut words) = openings {
        if let Some(seed) = seed.filter(|_| !words.iter().any(|w| w.starts_with("seed="))) {
            words.push(format!("seed={seed}"));
        }
        out.push("--openings".into());
        out.extend(words);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn cutechess_words_become_chariot_words() {
        let args = words(
            "-engine cmd=a name=A option.Hash=16 -engine cmd=b proto=ucci restart=on \
             -each tc=10+0.1 timemargin=50 -rounds 5 -games 2 -repeat -concurrency 2 \
             -openings file=o.pgn format=pgn order=random policy=round -srand 7 \
             -pgnout out.pgn min -resign movecount=3 score=600 twosided=true \
             -draw movenumber=40 movecount=8 score=10 -tournament gauntlet -recover",
        );
        assert_eq!(
            translate(&args).unwrap().join(" "),
            "--concurrency 2 --pgn out.pgn --resign movecount=3 score=600 \
             --draw movenumber=40 movecount=8 score=10 --tournament gauntlet \
             --engine tc=10+0.1 cmd=a name=A option.Hash=16 \
             --engine tc=10+0.1 cmd=b proto=ucci --games 10 --timemargin 50 \
             --openings file=o.pgn format=pgn order=random seed=7"
        );
        // Chariot's own words pass through.
        let ours = words("--engine cmd=a --engine cmd=b --depth 3");
        assert_eq!(translate(&ours).unwrap(), ours);
    }

    #[test]
    fn what_cannot_carry_over_is_refused() {
        for (bad, message) in [
            ("-engine cmd=a proto=xboard", "only uci and ucci"),
            ("-engine conf=x", "engines.json"),
            ("-engine cmd=a colour=red", "unknown key"),
            ("-repeat 4", "played twice"),
            ("-variant standard", "only xiangqi"),
            ("-bookmode", "unknown option"),
            ("-rounds x", "needs a number"),
        ] {
            let err = translate(&words(bad)).unwrap_err();
            assert!(err.contains(message), "{bad}: {err}");
        }
    }
}
