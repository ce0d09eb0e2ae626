//! Samples Chariot with pprof and writes a flamegraph SVG to perf/out/ (Linux):
//! - `bench [DEPTH]` (the default): `chariot bench`'s fixed-depth search of the bench positions
//!   (default: bench's depth), to perf/out/bench<DEPTH>.svg;
//! - `perft [N]`: `perft N` from the start position (default 6), to perf/out/perft<N>.svg, its
//!   count checked against data/perft.txt so the profile is of a correct run.
//!
//! Usage: `cargo run --release --features profiling --example flamegraph -- [bench|perft] [N]`.

#[cfg(target_os = "linux")]
fn main() {
    if let Err(message) = profile::run() {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("error: the pprof flamegraph example only runs on Linux");
    std::process::exit(1);
}

/// The workloads, the sampler and the SVG.
#[cfg(target_os = "linux")]
mod profile {
    pub fn run() -> Result<(), String> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let (workload, depth) = match args.as_slice() {
            [] => ("bench", None),
            [workload] => (workload.as_str(), None),
            [workload, depth] => (workload.as_str(), Some(depth.as_str())),
            _ => return Err("usage: flamegraph [bench|perft] [DEPTH]".to_string()),
        };
        let depth = |default: u32| match depth {
            None => Ok(default),
            Some(text) => text
                .parse::<u32>()
                .map_err(|_| format!("depth must be a number, got {text:?}")),
        };
        match workload {
            "bench" => profile_bench(depth(chariot::commands::bench::DEFAULT_DEPTH as u32)?),
            "perft" => profile_perft(depth(6)?),
            other => Err(format!("no workload {other:?}: bench or perft")),
        }
    }

    /// `chariot bench DEPTH` under the sampler.
    fn profile_bench(depth: u32) -> Result<(), String> {
        let depth = i32::try_from(depth).map_err(|_| format!("depth {depth} is too large"))?;
        let svg = svg_path(&format!("bench{depth}"))?;
        let guard = start()?;
        let result = chariot::commands::bench::bench(depth, |_, _, r| {
            assert!(r.best.is_some(), "every bench position has a move")
        });
        let report = finish(guard)?;
        let nps = result.nodes as f64 / result.time.as_secs_f64().max(1e-9);
        println!(
            "bench depth {depth}: {} nodes, {nps:.0} nps (profiled)",
            result.nodes
        );
        write_svg(&report, &svg)
    }

    /// `perft DEPTH` from the start position under the sampler, its count checked.
    fn profile_perft(depth: u32) -> Result<(), String> {
        use chariot::{commands::perft::perft, data, Position};

        let svg = svg_path(&format!("perft{depth}"))?;
        let guard = start()?;
        let mut pos = Position::startpos();
        let start = std::time::Instant::now();
        let nodes = perft(&mut pos, depth);
        let secs = start.elapsed().as_secs_f64();
        let report = finish(guard)?;
        println!(
            "perft {depth}: {nodes} leaves in {secs:.3} s ({:.1} M leaves/s, profiled)",
            nodes as f64 / secs / 1e6
        );
        match data::expected_perft(&data::perft_cases(), Position::START_FEN, depth) {
            Some(expected) if expected != nodes => {
                return Err(format!(
                    "perft {depth} gave {nodes}, perft.txt says {expected}"
                ));
            }
            Some(_) => println!("count matches perft.txt"),
            None => {
                println!("perft.txt has no depth-{depth} count for the start position; not checked")
            }
        }
        write_svg(&report, &svg)
    }

    /// `perf/out/<name>.svg`, creating the folder.
    fn svg_path(name: &str) -> Result<std::path::PathBuf, String> {
        let out_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("perf")
            .join("out");
        std::fs::create_dir_all(&out_dir)
            .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
        Ok(out_dir.join(format!("{name}.svg")))
    }

    fn start() -> Result<pprof::ProfilerGuard<'static>, String> {
        pprof::ProfilerGuardBuilder::default()
            .frequency(997)
            .blocklist(&["libc", "libgcc", "pthread", "vdso"])
            .build()
            .map_err(|e| format!("cannot start the profiler: {e}"))
    }

    /// Stops sampling and builds the report, before anything is printed.
    fn finish(guard: pprof::ProfilerGuard<'static>) -> Result<pprof::Report, String> {
        guard
            .report()
            .build()
            .map_err(|e| format!("cannot build the report: {e}"))
    }

    fn write_svg(report: &pprof::Report, svg: &std::path::Path) -> Result<(), String> {
        let file = std::fs::File::create(svg)
            .map_err(|e| format!("cannot create {}: {e}", svg.display()))?;
        report
            .flamegraph(file)
            .map_err(|e| format!("cannot write the flamegraph: {e}"))?;
        println!("flamegraph written to {}", svg.display());
        Ok(())
    }
}
