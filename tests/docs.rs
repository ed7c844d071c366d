//! The docs, held to the tree they describe: a line docs/learn.md quotes stands in the
//! file it names; every test and file docs/learn.md and docs/testing.md name exists; the
//! dependency counts, the core's outside crates and the `duplicates` count
//! docs/architecture.md gives are the tree's; the `Recorder` methods docs/learn.md lists
//! (a learner writes their own from them) are the trait's. A claim that drifts is a
//! failing test, not a reader who cannot find a line.
//!
//! `duplicates` is a tool of the workplace, not of every machine: where it is missing,
//! its check says SKIPPED and passes. `cargo tree` reads Cargo.lock and the sources the
//! build has already fetched, so it runs wherever the tests were built.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's root: this package's folder.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    fs::read_to_string(root().join(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// Every Rust file of the workspace (its crates, the program, its tests, examples and
/// benches), as paths from the root.
fn rust_files() -> Vec<String> {
    fn walk(folder: &Path, root: &Path, found: &mut Vec<String>) {
        for entry in fs::read_dir(folder).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if name != "target" && !name.to_string_lossy().starts_with('.') {
                    walk(&path, root, found);
                }
            } else if path.extension().is_some_and(|ending| ending == "rs") {
                let relative = path.strip_prefix(root).unwrap();
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = root();
    let mut found = Vec::new();
    for top in ["crates", "src", "tests", "examples", "benches"] {
        walk(&root.join(top), &root, &mut found);
    }
    found
}

/// `text` with every run of white space one space, and trimmed.
fn folded(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `quote` stands in the file at `relative`, within one line, white space
/// folded.
fn stands_in(relative: &str, quote: &str) -> bool {
    let quote = folded(quote);
    read(relative)
        .lines()
        .any(|line| folded(line).contains(&quote))
}

/// The spans of `text` between backquotes, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// Whether `span` names a Rust file (`crates/core/src/sync.rs`, `renderer.rs`).
fn is_rust_path(span: &str) -> bool {
    span.ends_with(".rs")
        && span
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c))
}

/// The quotes of docs/learn.md to check, each with the file it is read from: every
/// line of a code block, in the Rust file the step named last before it; and the line
/// an exercise says to break (its first quote after "break"), in the file its
/// paragraph names, else the step's own (the first it names). Lines cut short with
/// `...` are not quotes.
fn learn_quotes() -> Vec<(String, String)> {
    let learn = read("docs/learn.md");
    let mut quotes = Vec::new();
    for step in learn.split("\n### ").skip(1) {
        let named: Vec<&str> = quoted(step)
            .into_iter()
            .filter(|span| is_rust_path(span) && span.contains('/'))
            .collect();
        let Some(step_file) = named.first() else {
            continue;
        };
        let mut last_named = step_file.to_string();
        let mut paragraph = String::new();
        let mut paragraph_file: Option<String> = None;
        let mut in_code = false;
        for line in step.lines() {
            if line.starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if in_code {
                if !line.trim().is_empty() && !line.contains("...") {
                    quotes.push((last_named.clone(), line.trim().to_string()));
                }
                continue;
            }
            if line.trim().is_empty() {
                paragraph.clear();
                paragraph_file = None;
                continue;
            }
            paragraph.push(' ');
            paragraph.push_str(line);
            for span in quoted(line) {
                if is_rust_path(span) && span.contains('/') {
                    last_named = span.to_string();
                    paragraph_file = Some(span.to_string());
                }
            }
            if let Some((_, after)) = paragraph.rsplit_once(" break `")
                && let Some((broken, _)) = after.split_once('`')
            {
                if !broken.contains("...") {
                    let file = paragraph_file.clone().unwrap_or(step_file.to_string());
                    quotes.push((file, broken.to_string()));
                }
                paragraph = after.to_string();
            }
        }
    }
    quotes
}

#[test]
fn every_line_learn_md_quotes_stands_in_the_file_it_names() {
    let quotes = learn_quotes();
    assert!(quotes.len() > 20, "too few quotes found: {quotes:?}");

    let missing: Vec<String> = quotes
        .iter()
        .filter(|(file, quote)| !stands_in(file, quote))
        .map(|(file, quote)| format!("{file}: {quote}"))
        .collect();

    assert!(
        missing.is_empty(),
        "docs/learn.md quotes lines that are not in the files it names:\n{}",
        missing.join("\n")
    );
}

/// The tests `doc` names: its quoted names of four words or more (`a_taken_cell_...`),
/// and the case of `name::case_1_case` forms.
fn tests_named_in(doc: &str) -> BTreeSet<String> {
    read(doc)
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split("::"))
        .map(|part| {
            // rstest names a case `case_N_NAME`: the name is what `#[case::NAME]` says.
            let part = part.trim_start_matches("case_");
            part.split_once('_')
                .filter(|(number, _)| number.chars().all(|c| c.is_ascii_digit()))
                .map_or(part, |(_, name)| name)
        })
        .filter(|name| {
            name.split('_').count() >= 4
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .map(String::from)
        .collect()
}

#[test]
fn every_test_learn_md_and_testing_md_name_exists() {
    let sources: Vec<String> = rust_files().iter().map(|file| read(file)).collect();
    let defined = |name: &str| {
        sources.iter().any(|source| {
            source.contains(&format!("fn {name}(")) || source.contains(&format!("#[case::{name}("))
        })
    };

    let missing: Vec<String> = ["docs/learn.md", "docs/testing.md"]
        .into_iter()
        .flat_map(|doc| {
            tests_named_in(doc)
                .into_iter()
                .filter(|name| !defined(name))
                .map(move |name| format!("{doc}: {name}"))
        })
        .collect();

    assert!(
        missing.is_empty(),
        "tests named in the docs that no longer exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_rust_file_learn_md_testing_md_and_architecture_md_name_exists() {
    let files = rust_files();
    let exists = |named: &str| {
        files
            .iter()
            .any(|file| file == named || file.ends_with(&format!("/{named}")))
    };

    let missing: Vec<String> = ["docs/learn.md", "docs/testing.md", "docs/architecture.md"]
        .into_iter()
        .flat_map(|doc| {
            quoted(&read(doc))
                .into_iter()
                .filter(|span| is_rust_path(span) && !exists(span))
                // atuin's files, which architecture.md compares the stores with.
                .filter(|span| !["models.rs", "shared.rs"].contains(span))
                .map(move |span| format!("{doc}: {span}"))
                .collect::<Vec<_>>()
        })
        .collect();

    assert!(
        missing.is_empty(),
        "files named in the docs that are not in the tree:\n{}",
        missing.join("\n")
    );
}

/// The counts docs/architecture.md gives in its sentence "Crates in each member's normal
/// build (...): core 16, engine 17, ...; the whole program 291.": each member's short
/// name (`core`, `web`) or `the whole program`, and its count.
fn dependency_counts_claimed() -> Vec<(String, usize)> {
    let architecture = folded(&read("docs/architecture.md"));
    let (_, after) = architecture
        .split_once("Crates in each member's normal build")
        .expect("the dependency counts");
    let (_, counts) = after
        .split_once("): ")
        .expect("the counts after the command");
    let (counts, _) = counts.split_once(". ").expect("the sentence's end");
    counts
        .split([',', ';'])
        .map(|item| {
            // "sqlite-store 28 (rusqlite with ...)": the name, then the count.
            let words: Vec<&str> = item.split_whitespace().collect();
            let at = words
                .iter()
                .rposition(|word| word.parse::<usize>().is_ok())
                .unwrap_or_else(|| panic!("no count in {item:?}"));
            (words[..at].join(" "), words[at].parse().unwrap())
        })
        .collect()
}

/// `cargo tree -p PACKAGE ARGS` in the workspace, offline: what it prints.
fn cargo_tree(package: &str, args: &[&str]) -> String {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let output = Command::new(cargo)
        .current_dir(root())
        .args(["tree", "--offline", "-e", "normal", "-p", package])
        .args(args)
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_dependency_counts_architecture_md_gives_are_the_trees() {
    let claimed = dependency_counts_claimed();

    let wrong: Vec<String> = claimed
        .iter()
        .filter_map(|(member, count)| {
            let package = match member.as_str() {
                "the whole program" => "tictactoe".to_string(),
                short => format!("tictactoe-{short}"),
            };
            let tree = cargo_tree(&package, &["--prefix", "none"]);
            let counted = tree.lines().collect::<BTreeSet<_>>().len();
            (counted != *count)
                .then(|| format!("{member}: the doc says {count}, the tree has {counted}"))
        })
        .collect();

    assert!(claimed.len() >= 12, "too few counts found: {claimed:?}");
    assert!(
        wrong.is_empty(),
        "docs/architecture.md's dependency counts differ from `cargo tree -p NAME -e normal \
         --prefix none | sort -u | wc -l`:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_cores_tree_architecture_md_shows_is_the_trees() {
    let architecture = read("docs/architecture.md");
    let (_, after) = architecture
        .split_once("`cargo tree -p tictactoe-core -e normal`:\n\n```\n")
        .expect("the core's tree");
    let (shown, _) = after.split_once("```").unwrap();

    let tree = cargo_tree("tictactoe-core", &[]).replace(
        &format!("({})", root().join("crates/core").display()),
        "(crates/core)",
    );

    assert_eq!(shown.trim_end(), tree.trim_end());
}

#[test]
fn architecture_md_stays_a_map_read_in_one_sitting() {
    let architecture = read("docs/architecture.md");

    assert!(
        architecture.len() <= 25_000,
        "docs/architecture.md is {} bytes: a map, at most 25,000; history and figures \
         belong in docs/performance.md",
        architecture.len()
    );
}

#[test]
fn the_tree_has_no_more_duplicates_than_architecture_md_counts() {
    // "... it finds 42 pairs ...".
    let architecture = folded(&read("docs/architecture.md"));
    let claimed: usize = architecture
        .split("it finds ")
        .skip(1)
        .find_map(|after| {
            let words: Vec<&str> = after.split_whitespace().take(2).collect();
            (words.get(1) == Some(&"pairs")).then(|| words[0].parse().ok())?
        })
        .expect("the duplicates count: \"it finds N pairs\"");
    let ran = Command::new("duplicates")
        .current_dir(root())
        .args(["--most", "1", "--seconds", "60"])
        .output();
    let Ok(output) = ran else {
        println!("SKIPPED: the `duplicates` command is not on this machine");
        return;
    };

    let said = String::from_utf8_lossy(&output.stdout);
    let counted: usize = said
        .split_whitespace()
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_else(|| panic!("duplicates said: {said}"));

    assert!(
        counted <= claimed,
        "docs/architecture.md says `duplicates` finds {claimed} pairs; it finds {counted}: \
         {said}(say in docs/architecture.md why each new pair stays, or write it once)"
    );
}

/// The names in backquotes in `text`, as written (`unicode-security`, `keep(&mut self,
/// Step)`).
fn backquoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The rest of the sentence of the doc at `relative` that follows `start`, white space
/// folded.
fn sentence_after(relative: &str, start: &str) -> String {
    let text = folded(&read(relative));
    let (_, after) = text
        .split_once(start)
        .unwrap_or_else(|| panic!("{relative} no longer says {start:?}"));
    let (sentence, _) = after.split_once(". ").expect("the sentence's end");
    sentence.to_string()
}

/// The dependency names of `[dependencies]` in the Cargo.toml at `relative`.
fn dependencies_of(relative: &str) -> BTreeSet<String> {
    let manifest = read(relative);
    let (_, after) = manifest
        .split_once("[dependencies]\n")
        .expect("a [dependencies] table");
    after
        .lines()
        .take_while(|line| !line.starts_with('['))
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(|line| line.split_once(['=', '.']))
        .map(|(name, _)| name.trim().to_string())
        .filter(|name| !name.is_empty() && !name.starts_with("tictactoe-"))
        .collect()
}

#[test]
fn the_cores_outside_crates_architecture_md_names_are_its_cargo_tomls() {
    // "The core's: `thiserror`, `skillratings` (...), ... and `mockall` only with `mocks`."
    let sentence = sentence_after("docs/architecture.md", "The core's: ");

    let named: BTreeSet<String> = backquoted(&sentence)
        .into_iter()
        .filter(|name| *name != "mocks")
        .map(str::to_string)
        .collect();

    assert_eq!(named, dependencies_of("crates/core/Cargo.toml"));
}

/// The methods of the trait `name` in the Rust file at `relative`, in order.
fn trait_methods(relative: &str, name: &str) -> Vec<String> {
    let source = read(relative);
    let (_, body) = source
        .split_once(&format!("pub trait {name}"))
        .unwrap_or_else(|| panic!("no trait {name} in {relative}"));
    let (body, _) = body.split_once("\n}").expect("the trait's end");
    body.lines()
        .filter_map(|line| line.trim_start().strip_prefix("fn "))
        .map(|signature| signature.split('(').next().unwrap().to_string())
        .collect()
}

#[test]
fn the_recorders_methods_learn_md_lists_are_the_traits() {
    // "... a `Recorder`, a trait of four methods in the same file: `keep(&mut self,
    // Step)` and `end(...)` ..., `rename(...)` ..., and `casual(&mut self)` ..."
    let sentence = sentence_after("docs/learn.md", "a `Recorder`, a trait of ");
    let (count, listed) = sentence.split_once(" methods in the same file: ").unwrap();
    let listed: Vec<String> = backquoted(listed)
        .into_iter()
        .filter_map(|item| item.split_once('('))
        .map(|(method, _)| method.to_string())
        .collect();

    let methods = trait_methods("crates/core/src/play/game_match.rs", "Recorder");

    let words = ["none", "one", "two", "three", "four", "five", "six"];
    assert_eq!(
        words.get(methods.len()),
        Some(&count),
        "learn.md counts the methods"
    );
    assert_eq!(listed, methods, "learn.md lists the Recorder's methods");
}
