//! The pprof plumbing shared by the flamegraph examples: where the SVG goes, starting the
//! sampler, and writing the flamegraph once the profiled work is done.

use std::path::PathBuf;

/// `perf/out/<name>.svg`, creating the folder.
pub fn svg_path(name: &str) -> Result<PathBuf, String> {
    let out_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("perf")
        .join("out");
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    Ok(out_dir.join(format!("{name}.svg")))
}

pub fn start() -> Result<pprof::ProfilerGuard<'static>, String> {
    pprof::ProfilerGuardBuilder::default()
        .frequency(997)
        .blocklist(&["libc", "libgcc", "pthread", "vdso"])
        .build()
        .map_err(|e| format!("cannot start the profiler: {e}"))
}

/// Stops sampling and builds the report, before anything is printed.
pub fn finish(guard: pprof::ProfilerGuard<'static>) -> Result<pprof::Report, String> {
    guard
        .report()
        .build()
        .map_err(|e| format!("cannot build the report: {e}"))
}

pub fn write_svg(report: &pprof::Report, svg: &std::path::Path) -> Result<(), String> {
    let file =
        std::fs::File::create(svg).map_err(|e| format!("cannot create {}: {e}", svg.display()))?;
    report
        .flamegraph(file)
        .map_err(|e| format!("cannot write the flamegraph: {e}"))?;
    println!("flamegraph written to {}", svg.display());
    Ok(())
}
