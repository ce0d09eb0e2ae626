//! The scripted engine (`tests/support/fake_engine.rs`) for the tests that drive `chariot match`
//! and `chariot spsa run`.

use std::process::Command;
use std::sync::OnceLock;

/// The scripted engine is an example target (test support, not something `cargo install`
/// installs). `cargo test` builds examples; a run of this test alone builds it here.
pub fn fake_engine() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let test_exe = std::env::current_exe().expect("test binary path");
        let profile_dir = test_exe
            .parent()
            .and_then(|deps| deps.parent())
            .expect("target dir");
        let path = profile_dir.join("examples").join("chariot-fake-engine");
        if !path.exists() {
            let mut build = Command::new(env!("CARGO"));
            build.args(["build", "--example", "chariot-fake-engine"]);
            if profile_dir.ends_with("release") {
                build.arg("--release");
            }
            let status = build.status().expect("cargo runs");
            assert!(status.success(), "building the fake engine failed");
        }
        path.display().to_string()
    })
}
