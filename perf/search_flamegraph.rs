//! Samples `chariot bench` (the fixed-depth search of the bench positions) with pprof and writes
//! a flamegraph SVG to perf/out/bench<depth>.svg.
//! Usage: `cargo run --release --example search_flamegraph -- [depth]` (default: bench's depth).

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
    use chariot::bench::{bench, DEFAULT_DEPTH};

    let depth = match std::env::args().nth(1) {
        None => DEFAULT_DEPTH,
        Some(text) => text
            .parse::<i32>()
            .map_err(|_| format!("depth must be a number, got {text:?}"))?,
    };
    let out_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("perf")
        .join("out");
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let svg = out_dir.join(format!("bench{depth}.svg"));
    let guard = pprof::ProfilerGuardBuilder::default()
        .frequency(997)
        .blocklist(&["libc", "libgcc", "pthread", "vdso"])
        .build()
        .map_err(|e| format!("cannot start the profiler: {e}"))?;
    let result = bench(depth, |_, _, r| {
        assert!(r.best.is_some(), "every bench position has a move")
    });
    let report = guard
        .report()
        .build()
        .map_err(|e| format!("cannot build the report: {e}"))?;
    let nps = result.nodes as f64 / result.time.as_secs_f64().max(1e-9);
    println!(
        "bench depth {depth}: {} nodes, {nps:.0} nps (profiled)",
        result.nodes
    );
    let file =
        std::fs::File::create(&svg).map_err(|e| format!("cannot create {}: {e}", svg.display()))?;
    report
        .flamegraph(file)
        .map_err(|e| format!("cannot write the flamegraph: {e}"))?;
    println!("flamegraph written to {}", svg.display());
    Ok(())
}
