//! Samples `perft N` from the start position with pprof and writes a flamegraph SVG to
//! perf/out/perft<N>.svg. Usage: `cargo run --release --features profiling --example flamegraph -- [N]` (default 6).
//! The count is checked against perft.txt so the profile is of a correct run.

#[cfg(target_os = "linux")]
#[path = "profiler.rs"]
mod profiler;

#[cfg(target_os = "linux")]
fn main() {
    if let Err(message) = run() {
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("error: the pprof flamegraph example only runs on Linux");
    std::process::exit(1);
}

#[cfg(target_os = "linux")]
fn run() -> Result<(), String> {
    use chariot::{commands::perft::perft, Position};
    use std::time::Instant;

    let depth = match std::env::args().nth(1) {
        None => 6,
        Some(text) => text
            .parse::<u32>()
            .map_err(|_| format!("depth must be a number, got {text:?}"))?,
    };
    let svg = profiler::svg_path(&format!("perft{depth}"))?;

    let guard = profiler::start()?;
    let mut pos = Position::startpos();
    let start = Instant::now();
    let nodes = perft(&mut pos, depth);
    let secs = start.elapsed().as_secs_f64();
    let report = profiler::finish(guard)?;

    println!(
        "perft {depth}: {nodes} leaves in {secs:.3} s ({:.1} M leaves/s, profiled)",
        nodes as f64 / secs / 1e6
    );
    match chariot::data::expected_perft(&chariot::data::perft_cases(), Position::START_FEN, depth) {
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
    profiler::write_svg(&report, &svg)
}
