//! Training positions held compactly: for each position the weights of `params.rs` it uses with
//! their counts (Red's minus Black's, in 64ths), its phase, draw scale, the part of the
//! evaluation no weight scales (king danger), the search score and the game result.
//! The counts come from the evaluation itself through [`Evaluator::evaluate_traced`].

use crate::eval::params::PHASE_MAX;
use crate::eval::score::Score;
use crate::eval::trace::{weight, Term, Tracer};
use crate::eval::Evaluator;
use crate::samples::{self, Record};
use crate::{Color, Position};
use std::ops::ControlFlow;
use std::path::Path;

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

/// One converted position: its coefficients and meta data.
type Sample = (Vec<Coef>, Meta);

/// Turns a batch of records into samples on `threads` threads. `first` is the index of the
/// batch's first record in `source` (from 0), so errors name the record.
fn convert_batch(
    records: &[Record],
    source: &str,
    first: usize,
    threads: usize,
) -> Result<Vec<Sample>, String> {
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let results: Vec<Result<Vec<Sample>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .enumerate()
            .map(|(part, records)| {
                scope.spawn(move || {
                    let mut sink = CoefSink::default();
                    let mut out = Vec::with_capacity(records.len());
                    for (i, record) in records.iter().enumerate() {
                        let number = first + part * chunk + i;
                        let error = |e| format!("{source}: record {number}: {e}");
                        let pos = record.position().map_err(error)?;
                        let (coefs, mut meta) = extract(&pos, &mut sink).map_err(error)?;
                        meta.score = (record.score as i32).clamp(-30_000, 30_000) as i16;
                        meta.result = record.result;
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

/// The two sets as they fill.
struct Sets<'a> {
    options: &'a LoadOptions,
    train: Dataset,
    validation: Dataset,
    seen: usize,
}

impl Sets<'_> {
    /// Converts and files a batch of `source`'s records (the first is the file's record
    /// `first`); `Break` once `max_positions` are in.
    fn add(
        &mut self,
        batch: &[Record],
        source: &str,
        first: usize,
    ) -> Result<ControlFlow<()>, String> {
        for (coefs, meta) in convert_batch(batch, source, first, self.options.threads)? {
            // Whole blocks of consecutive positions (about ten games) are held out, so the
            // validation positions do not come from the training games.
            let block = self.seen / VALIDATION_BLOCK;
            let every = self.options.validation_every;
            let set = if every > 0 && block % every == 0 {
                &mut self.validation
            } else {
                &mut self.train
            };
            set.push(&coefs, meta)?;
            self.seen += 1;
            if self.options.max_positions.is_some_and(|m| self.seen >= m) {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// Reads datagen files (text or binary, by extension) through the shared reader into a
/// training and a validation set, converting in batches so memory stays at the compact form.
/// `progress` is told the bytes read so far.
pub fn load(
    paths: &[String],
    options: &LoadOptions,
    progress: impl FnMut(u64),
) -> Result<(Dataset, Dataset), String> {
    load_in_batches(paths, options, 1 << 16, progress)
}

/// [`load`], converting `batch_size` positions at a time.
fn load_in_batches(
    paths: &[String],
    options: &LoadOptions,
    batch_size: usize,
    mut progress: impl FnMut(u64),
) -> Result<(Dataset, Dataset), String> {
    let mut sets = Sets {
        options,
        train: Dataset::default(),
        validation: Dataset::default(),
        seen: 0,
    };
    let mut done_bytes = 0u64;
    let mut batch = Vec::with_capacity(batch_size);
    for path in paths {
        let mut first = 0;
        let mut read = 0;
        let flow = samples::visit_records(Path::new(path), None, |record, bytes| {
            batch.push(record);
            read = bytes;
            if batch.len() < batch_size {
                return Ok(ControlFlow::Continue(()));
            }
            let flow = sets.add(&batch, path, first)?;
            first += batch.len();
            batch.clear();
            progress(done_bytes + read);
            Ok(flow)
        })?;
        let flow = match flow {
            ControlFlow::Continue(()) if !batch.is_empty() => sets.add(&batch, path, first)?,
            flow => flow,
        };
        batch.clear();
        done_bytes += read;
        progress(done_bytes);
        if flow.is_break() {
            break;
        }
    }
    Ok((sets.train, sets.validation))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::samples::{parse_text_line, text_line, Format};

    #[test]
    fn text_and_binary_files_load_as_each_line_extracts() {
        let dir = std::env::temp_dir().join(format!("chariot-tune-data-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut rng = fastrand::Rng::with_seed(3);
        let mut lines = Vec::new();
        let mut pos = Position::startpos();
        while lines.len() < 400 {
            let moves = legal_moves(&pos);
            if moves.is_empty() || rng.u8(..) < 3 {
                pos = Position::startpos();
                continue;
            }
            // Scores past the tuner's clamp too.
            lines.push(text_line(&pos, rng.i32(-32_000..32_000), rng.u8(0..3)));
            pos.make_move(moves.as_slice()[rng.usize(..moves.len())]);
        }
        // What tune read from each line before it shared the reader.
        let mut sink = CoefSink::default();
        let expected: Vec<Sample> = lines
            .iter()
            .map(|line| {
                let (pos, score, result) = parse_text_line(line).unwrap();
                let (coefs, mut meta) = extract(&pos, &mut sink).unwrap();
                meta.score = score.clamp(-30_000, 30_000) as i16;
                meta.result = result;
                (coefs, meta)
            })
            .collect();

        let text = dir.join("a.txt");
        let half = lines.len() / 2;
        let body = format!(
            "# a comment\n{}\n\n{}\n",
            lines[..half].join("\n"),
            lines[half..].join("\n")
        );
        std::fs::write(&text, body).unwrap();
        let binary = dir.join("a.bin");
        let mut bytes = Vec::new();
        samples::for_each_record(&text, None, |record| {
            samples::encode(&record, Format::Binary, &mut bytes);
            Ok(())
        })
        .unwrap();
        std::fs::write(&binary, bytes).unwrap();

        let options = LoadOptions {
            threads: 3,
            validation_every: 0,
            max_positions: None,
        };
        for file in [&text, &binary] {
            let paths = [file.to_str().unwrap().to_string()];
            let size = std::fs::metadata(file).unwrap().len();
            for batch_size in [1 << 16, 64, 1] {
                let mut told = Vec::new();
                let (train, validation) =
                    load_in_batches(&paths, &options, batch_size, |bytes| told.push(bytes))
                        .unwrap();
                assert!(validation.is_empty());
                assert_eq!(train.len(), expected.len());
                for (i, (coefs, meta)) in expected.iter().enumerate() {
                    assert_eq!((train.coefs_of(i), &train.meta[i]), (&coefs[..], meta));
                }
                assert!(told.is_sorted() && told.last() == Some(&size), "{told:?}");
            }
        }

        // Two files read as one, cut at --max-positions inside a batch, with every block held
        // out.
        let paths = [text.to_str().unwrap(), binary.to_str().unwrap()].map(String::from);
        let options = LoadOptions {
            threads: 2,
            validation_every: 1,
            max_positions: Some(650),
        };
        let (train, validation) = load_in_batches(&paths, &options, 64, |_| {}).unwrap();
        assert!(train.is_empty());
        assert_eq!(validation.len(), 650);
        assert_eq!(validation.meta[399..401], [expected[399].1, expected[0].1]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
