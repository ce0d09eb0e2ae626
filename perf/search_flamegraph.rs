//! Samples `chariot bench` (the fixed-depth search of the bench positions) with pprof and writes
//! a flamegraph SVG to perf/out/bench<depth>.svg.
//! Usage: `cargo run --release --features profiling --example search_flamegraph -- [depth]` (default: bench's depth).

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
    use chariot::commands::bench::{bench, DEFAULT_DEPTH};

    let depth = match std::env::args().nth(1) {
        None => DEFAULT_DEPTH,
        Some(text) => text
            .parse::<i32>()
            .map_err(|_| format!("depth must be a number, got {text:?}"))?,
    };
    let svg = profiler::svg_path(&format!("bench{depth}"))?;
    let guard = profiler::start()?;
    let result = bench(depth, |_, _, r| {
        assert!(r.best.is_some(), "every bench position has a move")
    });
    let report = profiler::finish(guard)?;
    let nps = result.nodes as f64 / result.time.as_secs_f64().max(1e-9);
    println!(
        "bench depth {depth}: {} nodes, {nps:.0} nps (profiled)",
        result.nodes
    );
    profiler::write_svg(&report, &svg)
}
