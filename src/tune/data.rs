//! Training positions held compactly: for each position the weights of `params.rs` it uses with
//! their counts (Red's minus Black's, in 64ths), its phase, draw scale, the part of the
//! evaluation no weight scales (king danger), the search score and the game result.
//! The counts come from the evaluation itself through [`Evaluator::evaluate_traced`].

use crate::eval::params::PHASE_MAX;
use crate::eval::score::Score;
use crate::eval::trace::{weight, Term, Tracer};
use crate::eval::Evaluator;
use crate::{Color, Position};
use std::io::BufRead;

/// One weight pair a position uses: `count / 64` times (Red's uses minus Black's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Coef {
    pub index: u16,
    pub count: i16,
}

/// Everything else the model needs of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Meta {
    /// Red's king-danger total minus Black's (mg, eg): not linear in any weight, kept fixed.
    pub fixed_mg: i16,
    pub fixed_eg: i16,
    /// Search score for Red, centipawns.
    pub score: i16,
    /// 0 ..= PHASE_MAX.
    pub phase: u8,
    /// Draw scale out of `SCALE_NORMAL`, as the evaluation applied it.
    pub scale: u8,
    /// Game result for Red in halves: 0 loss, 1 draw, 2 win.
    pub result: u8,
}

/// Bytes of `Meta` plus the start offset; each `Coef` adds 4 more.
pub const FIXED_BYTES_PER_POSITION: usize =
    std::mem::size_of::<Meta>() + std::mem::size_of::<u32>();

/// The weight a tuned index stands for: a right-half piece-square entry is its mirror on the
/// left, so the tables stay left-right symmetric.
pub fn canonical(index: usize) -> usize {
    if (weight::PST..weight::PST + 7 * 90).contains(&index) {
        let entry = (index - weight::PST) % 90;
        let file = entry % 9;
        if file > 4 {
            return index - file + (8 - file);
        }
    }
    index
}

/// The evaluation's coefficients of one position, gathered as the evaluation runs.
pub struct CoefSink {
    dense: Vec<i32>,
    touched: Vec<usize>,
    fixed: [i32; 2],
    phase: i32,
    scale: i32,
}

impl Default for CoefSink {
    fn default() -> Self {
        CoefSink {
            dense: vec![0; weight::COUNT],
            touched: Vec::new(),
            fixed: [0; 2],
            phase: 0,
            scale: 0,
        }
    }
}

impl Tracer for CoefSink {
    fn term(&mut self, _: Term, _: Color, _: Score) {}

    fn result(&mut self, phase: i32, scale: i32, _red: Score) {
        self.phase = phase;
        self.scale = scale;
    }

    fn weight(&mut self, color: Color, index: usize, sixty_fourths: i32) {
        let i = canonical(index);
        if !self.touched.contains(&i) {
            self.touched.push(i);
        }
        self.dense[i] += match color {
            Color::Red => sixty_fourths,
            Color::Black => -sixty_fourths,
        };
    }

    fn fixed(&mut self, color: Color, score: Score) {
        let sign = if color == Color::Red { 1 } else { -1 };
        self.fixed[0] += sign * score.mg();
        self.fixed[1] += sign * score.eg();
    }
}

/// A position's coefficients and meta data (score and result left for the caller).
pub fn extract(pos: &Position, sink: &mut CoefSink) -> Result<(Vec<Coef>, Meta), String> {
    sink.touched.clear();
    sink.fixed = [0; 2];
    Evaluator::evaluate_traced(pos, sink);
    sink.touched.sort_unstable();
    let mut coefs = Vec::with_capacity(sink.touched.len());
    for &i in &sink.touched {
        let count = std::mem::take(&mut sink.dense[i]);
        if count != 0 {
            let count =
                i16::try_from(count).map_err(|_| format!("coefficient {count} too large"))?;
            coefs.push(Coef {
                index: i as u16,
                count,
            });
        }
    }
    let small = |v: i32| i16::try_from(v).map_err(|_| format!("king danger {v} too large"));
    let meta = Meta {
        fixed_mg: small(sink.fixed[0])?,
        fixed_eg: small(sink.fixed[1])?,
        phase: sink.phase.clamp(0, PHASE_MAX) as u8,
        scale: sink.scale.clamp(0, 255) as u8,
        ..Meta::default()
    };
    Ok((coefs, meta))
}

/// Positions in a compact structure of arrays.
#[derive(Default)]
pub struct Dataset {
    pub coefs: Vec<Coef>,
    /// `starts[i]..starts[i + 1]` are position i's coefficients.
    pub starts: Vec<u32>,
    pub meta: Vec<Meta>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.meta.len()
    }

    pub fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }

    pub fn coefs_of(&self, i: usize) -> &[Coef] {
        let start = if i == 0 { 0 } else { self.starts[i - 1] };
        &self.coefs[start as usize..self.starts[i] as usize]
    }

    pub fn push(&mut self, coefs: &[Coef], meta: Meta) -> Result<(), String> {
        self.coefs.extend_from_slice(coefs);
        let end = u32::try_from(self.coefs.len())
            .map_err(|_| "too many coefficients for one data set (over 4 billion)".to_string())?;
        self.starts.push(end);
        self.meta.push(meta);
        Ok(())
    }

    /// Bytes held per position (capacity not counted).
    pub fn bytes_per_position(&self) -> f64 {
        let total =
            self.coefs.len() * std::mem::size_of::<Coef>() + self.len() * FIXED_BYTES_PER_POSITION;
        total as f64 / self.len().max(1) as f64
    }

    /// How many positions use each weight.
    pub fn uses(&self) -> Vec<usize> {
        let mut uses = vec![0; weight::COUNT];
        for c in &self.coefs {
            uses[c.index as usize] += 1;
        }
        uses
    }

    /// Does any position use weight `index`?
    pub fn used(&self) -> Vec<bool> {
        self.uses().iter().map(|&n| n > 0).collect()
    }
}

/// One line of datagen output: `FEN | score for Red | result for Red`.
pub fn parse_line(line: &str) -> Result<(Position, i32, u8), String> {
    let mut parts = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected `FEN | score | result`".into());
    };
    let pos = Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    let score: i32 = score.parse().map_err(|_| format!("bad score {score:?}"))?;
    let result = match result {
        "1.0" | "1" => 2,
        "0.5" => 1,
        "0.0" | "0" => 0,
        _ => return Err(format!("bad result {result:?} (1.0, 0.5 or 0.0)")),
    };
    Ok((pos, score, result))
}

/// One converted line: its coefficients and meta data.
type Sample = (Vec<Coef>, Meta);

/// Turns a batch of lines into samples on `threads` threads. Errors name the line.
fn convert_batch(
    lines: &[(usize, String)],
    source: &str,
    threads: usize,
) -> Result<Vec<Sample>, String> {
    let chunk = lines.len().div_ceil(threads.max(1)).max(1);
    let results: Vec<Result<Vec<Sample>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut sink = CoefSink::default();
                    let mut out = Vec::with_capacity(part.len());
                    for (number, line) in part {
                        let (pos, score, result) =
                            parse_line(line).map_err(|e| format!("{source}:{number}: {e}"))?;
                        let (coefs, mut meta) = extract(&pos, &mut sink)
                            .map_err(|e| format!("{source}:{number}: {e}"))?;
                        meta.score = score.clamp(-30_000, 30_000) as i16;
                        meta.result = result;
                        out.push((coefs, meta));
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("conversion thread panicked"))
            .collect()
    });
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    Ok(all)
}

/// Consecutive positions held out together.
const VALIDATION_BLOCK: usize = 1024;

/// Options for [`load`].
pub struct LoadOptions {
    pub threads: usize,
    /// Every n-th block of 1024 consecutive positions goes to the validation set; 0: none.
    pub validation_every: usize,
    pub max_positions: Option<usize>,
}

/// Reads datagen files into a training and a validation set, streaming in batches so memory
/// stays at the compact form. `progress` is told the bytes read so far.
pub fn load(
    paths: &[String],
    options: &LoadOptions,
    mut progress: impl FnMut(u64),
) -> Result<(Dataset, Dataset), String> {
    const BATCH: usize = 1 << 16;
    let mut train = Dataset::default();
    let mut validation = Dataset::default();
    let mut seen = 0usize;
    let mut bytes = 0u64;
    'files: for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        let mut reader = std::io::BufReader::new(file);
        let mut number = 0usize;
        loop {
            let mut batch = Vec::with_capacity(BATCH);
            let mut line = String::new();
            while batch.len() < BATCH {
                line.clear();
                let n = reader
                    .read_line(&mut line)
                    .map_err(|e| format!("cannot read {path}: {e}"))?;
                if n == 0 {
                    break;
                }
                bytes += n as u64;
                number += 1;
                let text = line.trim();
                if text.is_empty() || text.starts_with('#') {
                    continue;
                }
                batch.push((number, text.to_string()));
            }
            if batch.is_empty() {
                break;
            }
            for (coefs, meta) in convert_batch(&batch, path, options.threads)? {
                // Whole blocks of consecutive lines (about ten games) are held out, so the
                // validation positions do not come from the training games.
                let block = seen / VALIDATION_BLOCK;
                let set = if options.validation_every > 0 && block % options.validation_every == 0 {
                    &mut validation
                } else {
                    &mut train
                };
                set.push(&coefs, meta)?;
                seen += 1;
                if options.max_positions.is_some_and(|m| seen >= m) {
                    progress(bytes);
                    break 'files;
                }
            }
            progress(bytes);
        }
    }
    Ok((train, validation))
}
