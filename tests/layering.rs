//! The layers of `src/`: no module imports one that stands above it. The engine from the
//! bottom up (board < rules < evaluation < search < protocols), the offline tools above all of
//! it, the command line at the top. Read from every `crate::` and `super::` path of every file
//! (the `use` lines and paths written out in code alike); comment lines are skipped.
//!
//! The compiler enforces the engine-tool half on its own: the tools are behind the default
//! `tools` feature, and `cargo clippy --lib --no-default-features` (CI) builds the engine
//! without them. This test holds the order inside the engine, and that the modules behind the
//! feature are exactly the tool layers'.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first: a module may import its own layer and those below. A name is a
/// module of the crate root or one submodule (`wdl::fit`), which then stands apart from its
/// parent.
const LAYERS: &[(&str, &[&str])] = &[
    ("utilities", &["console", "data", "memory"]),
    ("board", &["board"]),
    ("rules and notation", &["rules", "notation"]),
    ("network", &["nnue"]),
    ("evaluation", &["eval"]),
    ("search", &["search"]),
    (
        "what a game adds to the search",
        &["book", "strength", "wdl"],
    ),
    ("protocols", &["protocol"]),
    // `serve` stands beside the commands, behind its own `serve` feature.
    ("commands", &["commands", "serve"]),
    ("files the tools write (tool)", &["output_file"]),
    ("training data (tool)", &["samples"]),
    (
        "tools",
        &[
            "book::build",
            "commands::convert",
            "datagen",
            "matchrun",
            "train",
            "tune",
            "wdl::fit",
        ],
    ),
    (
        "the SPSA tuner, which plays through the match runner (tool)",
        &["spsa"],
    ),
    ("command line", &["cli"]),
];

/// The first tool layer: it and every layer above it are behind the `tools` feature, but for
/// the command line, which offers the tools only when they are built.
const FIRST_TOOL_LAYER: usize = 9;

/// The crate root (`lib.rs`, `main.rs`) declares and re-exports; it is no layer.
const ROOT_FILES: &[&str] = &["lib.rs", "main.rs"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, as paths relative to `src/`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(src()).unwrap().to_path_buf());
        }
    }
}

/// The layer of a module path (`["search", "tt"]`): the longest name of the table it starts
/// with. Capitalised names at the crate root are the board's types, re-exported by `lib.rs`.
fn layer_of(path: &[String]) -> Option<(usize, String)> {
    let first = path.first()?;
    if first.starts_with(char::is_uppercase) {
        return layer_of(&["board".to_string()]);
    }
    let two = path.get(1).map(|second| format!("{first}::{second}"));
    let find = |name: &str| {
        LAYERS
            .iter()
            .position(|(_, names)| names.contains(&name))
            .map(|layer| (layer, name.to_string()))
    };
    two.as_deref().and_then(find).or_else(|| find(first))
}

/// The module a file belongs to, as a path.
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .iter()
        .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|last| last == "mod") {
        parts.pop();
    }
    parts
}

/// The identifier path written at the start of `text` (after `crate::`): its segments, with a
/// `{...}` group expanded into one path per item.
fn paths_at(prefix: &[String], text: &str) -> Vec<Vec<String>> {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut depth = 0;
        let mut items = Vec::new();
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    items.push(&group[start..i]);
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&group[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return items
            .into_iter()
            .filter(|item| !item.trim().is_empty())
            .flat_map(|item| paths_at(prefix, item))
            .collect();
    }
    let ident_end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let ident = &text[..ident_end];
    if ident.is_empty() || ident == "self" {
        return vec![prefix.to_vec()];
    }
    let mut path = prefix.to_vec();
    path.push(ident.to_string());
    match text[ident_end..].strip_prefix("::") {
        Some(rest) => paths_at(&path, rest),
        None => vec![path],
    }
}

/// The module paths `line` refers to: its `crate::` paths, and its `super::` paths resolved
/// against `module` (a submodule's file: `super` is its parent; elsewhere `super::` is met
/// only in inline test modules, naming the file's own module).
fn references(line: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (keyword, base) in [("crate::", Vec::new()), ("super::", module.to_vec())] {
        let mut rest = line;
        while let Some(at) = rest.find(keyword) {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + keyword.len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if keyword == "super::" {
                if base.len() < 2 || after.starts_with('*') {
                    continue;
                }
                let parent = &base[..base.len() - 1];
                found.extend(paths_at(parent, after));
            } else {
                found.extend(paths_at(&base, after));
            }
        }
    }
    found
}

/// Every import of a module above the importer's layer, as `file: importer (layer) imports
/// imported (layer)`; and every file whose module no layer names.
fn violations() -> (Vec<String>, Vec<String>) {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let (mut upward, mut unplaced) = (Vec::new(), Vec::new());
    for file in files {
        if ROOT_FILES.contains(&file.to_string_lossy().as_ref()) {
            continue;
        }
        let module = module_of(&file);
        let Some((layer, name)) = layer_of(&module) else {
            unplaced.push(file.display().to_string());
            continue;
        };
        let text = fs::read_to_string(src().join(&file)).expect("a source file is readable");
        for line in text.lines() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for path in references(line, &module) {
                match layer_of(&path) {
                    Some((other, other_name)) if other > layer => upward.push(format!(
                        "{}: {name} ({}) imports {other_name} ({}): {}",
                        file.display(),
                        LAYERS[layer].0,
                        LAYERS[other].0,
                        line.trim()
                    )),
                    Some(_) => {}
                    None => unplaced.push(format!("{}: {}", file.display(), path.join("::"))),
                }
            }
        }
    }
    (upward, unplaced)
}

#[test]
fn no_module_imports_one_above_it() {
    let (upward, unplaced) = violations();
    assert!(
        upward.is_empty(),
        "imports up the layers:\n{}",
        upward.join("\n")
    );
    assert!(
        unplaced.is_empty(),
        "modules no layer names (add them to LAYERS):\n{}",
        unplaced.join("\n")
    );
}

/// The modules behind `#[cfg(feature = "tools")]` in `lib.rs` and the modules' `mod.rs`.
fn feature_gated_modules() -> BTreeSet<String> {
    let mut gated = BTreeSet::new();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    for file in files {
        let parent = module_of(&file);
        let is_declaring = file.ends_with("lib.rs") || file.ends_with("mod.rs");
        if !is_declaring {
            continue;
        }
        let parent = if file.ends_with("lib.rs") {
            Vec::new()
        } else {
            parent
        };
        let text = fs::read_to_string(src().join(&file)).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            if pair[0] != "#[cfg(feature = \"tools\")]" {
                continue;
            }
            let declared = pair[1]
                .trim_start_matches("pub ")
                .trim_start_matches("pub(crate) ")
                .strip_prefix("mod ")
                .and_then(|rest| rest.strip_suffix(';'));
            if let Some(name) = declared {
                let mut path = parent.clone();
                path.push(name.to_string());
                gated.insert(path.join("::"));
            }
        }
    }
    gated
}

#[test]
fn the_tool_layers_are_the_modules_behind_the_tools_feature() {
    let tools: BTreeSet<String> = LAYERS[FIRST_TOOL_LAYER..LAYERS.len() - 1]
        .iter()
        .flat_map(|(_, names)| names.iter().map(|name| name.to_string()))
        .collect();
    assert_eq!(feature_gated_modules(), tools);
}

/// DEVELOPING.md's layout table names every source file: a file of `src/` in the row of its
/// path (`src/data.rs`), a file of a folder (`src/search/tt.rs`, `build/emit.rs`) as `tt.rs` in
/// the row whose first cell names the folder.
#[test]
fn the_layout_table_names_every_source_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = fs::read_to_string(root.join("DEVELOPING.md")).expect("DEVELOPING.md is readable");
    let rows: Vec<(&str, &str)> = guide
        .lines()
        .filter(|line| line.starts_with("| `"))
        .filter_map(|line| line[1..].split_once(" | "))
        .collect();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut paths: Vec<String> = files
        .iter()
        .map(|file| format!("src/{}", file.display()))
        .collect();
    for entry in fs::read_dir(root.join("build")).expect("build/ is readable") {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        paths.push(format!("build/{name}"));
    }
    let missing: Vec<&String> = paths
        .iter()
        .filter(|path| {
            let (folder, name) = path.rsplit_once('/').unwrap();
            !rows.iter().any(|(first, rest)| {
                first.contains(&format!("`{path}`"))
                    || first.contains(&format!("`{folder}/`"))
                        && (first.contains(&format!("`{name}`"))
                            || rest.contains(&format!("`{name}`")))
            })
        })
        .collect();
    assert!(
        missing.is_empty(),
        "DEVELOPING.md's layout leaves out {missing:?}"
    );
}

/// The checker itself: a grouped import names each module in it, a submodule of a tool
/// counts as the tool, and a path that goes up is reported.
#[test]
fn the_checker_reads_grouped_and_nested_paths() {
    let module = vec!["book".to_string(), "build".to_string()];
    let found = references(
        "use crate::{search::tt::TranspositionTable, wdl::fit::run}; use super::{Book, Entry};",
        &module,
    );
    let names: Vec<String> = found.iter().map(|path| layer_of(path).unwrap().1).collect();
    assert_eq!(names, ["search", "wdl::fit", "book", "book"]);
    assert_eq!(layer_of(&["Position".to_string()]).unwrap().1, "board");
    assert!(references("let x = my_crate::search::go();", &module).is_empty());
}
