//! The manifest beside a datagen file (`FILE.manifest`): one line per run that wrote to it,
//! saying where in the file the run began and what made its games (the binary, the network,
//! the node budget, the seed), so data kept over many runs and generations still says what it
//! holds. Written before the run's first game, so a run that is killed is still accounted for:
//! its positions end where the next run's line begins.

use std::io::Write;
use std::path::{Path, PathBuf};

/// What a run plays with, for its line.
pub struct RunInfo<'a> {
    pub offset: u64,
    pub format: &'a str,
    pub network: Option<&'a crate::nnue::Network>,
    pub nodes: Option<u64>,
    pub depth: Option<i32>,
    pub random_plies: usize,
    pub seed: u64,
    pub threads: usize,
    pub shard: Option<super::Shard>,
}

/// The manifest's path for a data file.
pub fn path_for(data: &Path) -> PathBuf {
    let mut name = data.as_os_str().to_owned();
    name.push(".manifest");
    PathBuf::from(name)
}

/// Adds the run's line to the manifest of `data`: after the earlier runs' lines when the run
/// adds to the file, else as the first line of a new manifest (the file is new or replaced).
pub fn record_run(data: &Path, run: &RunInfo, adds_to_the_file: bool) -> Result<(), String> {
    let path = path_for(data);
    let line = describe(run);
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(adds_to_the_file)
        .write(true)
        .truncate(!adds_to_the_file)
        .open(&path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    file.write_all(line.as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The run's line: `key=value` pairs separated by spaces, the network's name last (it may hold
/// spaces).
fn describe(run: &RunInfo) -> String {
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let budget = match (run.depth, run.nodes) {
        (Some(d), _) => format!("depth={d}"),
        (None, Some(n)) => format!("nodes={n}"),
        (None, None) => "nodes=?".to_string(),
    };
    let network = match run.network {
        Some(net) => format!(
            "network-checksum={:016x} network={}",
            net.checksum(),
            net.name
        ),
        None => "network=classical".to_string(),
    };
    format!(
        "offset={} format={} started={since_epoch} chariot={} binary-checksum={} {budget} random-plies={} seed={} threads={} shard={} {network}\n",
        run.offset,
        run.format,
        env!("CARGO_PKG_VERSION"),
        binary_checksum(),
        run.random_plies,
        run.seed,
        run.threads,
        run.shard.map_or("whole".to_string(), |s| s.to_string()),
    )
}

/// The running binary's FNV-1a checksum: which build made the data, exactly.
fn binary_checksum() -> String {
    std::env::current_exe()
        .and_then(std::fs::read)
        .map_or("unknown".to_string(), |bytes| {
            format!("{:016x}", crate::nnue::format::fnv1a(&bytes))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_run_appends_a_line_that_names_what_made_it() {
        let dir = std::env::temp_dir().join(format!("chariot-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("gen.bin");
        let net = crate::nnue::Network::random(1);
        let mut run = RunInfo {
            offset: 0,
            format: "binary",
            network: Some(&net),
            nodes: Some(5000),
            depth: None,
            random_plies: 8,
            seed: 2,
            threads: 2,
            shard: None,
        };
        record_run(&data, &run, false).unwrap();
        run.offset = 4000;
        run.network = None;
        record_run(&data, &run, true).unwrap();
        let text = std::fs::read_to_string(path_for(&data)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("offset=0 format=binary "));
        assert!(lines[0].contains(" nodes=5000 random-plies=8 seed=2 threads=2 shard=whole "));
        assert!(lines[0].contains(&format!("network-checksum={:016x}", net.checksum())));
        assert!(lines[0].ends_with("network=random"));
        assert!(lines[1].starts_with("offset=4000 ") && lines[1].ends_with("network=classical"));
        // A new file's run starts the manifest afresh.
        record_run(&data, &run, false).unwrap();
        assert_eq!(
            std::fs::read_to_string(path_for(&data))
                .unwrap()
                .lines()
                .count(),
            1
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
