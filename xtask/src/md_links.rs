//! The check of the Markdown a user reads on the repository's page: every
//! relative link of `README.md`, `docs/*.md` and the crates' `README.md`
//! points at a file that exists, and every `#anchor` at a heading (or an
//! `id`/`name` attribute) of the file it names, by GitHub's rule for turning
//! a heading into an anchor ([`slug`]). Links to other sites are not
//! followed; links inside code are not links.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// One link that does not resolve.
pub struct BrokenLink {
    pub file: PathBuf,
    pub line: usize,
    pub what: String,
}

/// The Markdown files checked, relative to `root`: the README, every
/// `docs/*.md`, and each crate's `README.md`.
pub fn files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = vec![root.join("README.md")];
    for dir in ["docs", "crates"] {
        let mut entries: Vec<PathBuf> = fs::read_dir(root.join(dir))
            .map_err(|e| format!("{dir}/: {e}"))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for path in entries {
            if dir == "docs" && path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            } else if dir == "crates" && path.join("README.md").exists() {
                files.push(path.join("README.md"));
            }
        }
    }
    Ok(files)
}

/// Every broken link in `files`.
pub fn check(files: &[PathBuf]) -> Result<Vec<BrokenLink>, String> {
    let mut anchors: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    let mut broken = Vec::new();
    for file in files {
        let text = read(file)?;
        for (line, target) in links(&text) {
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = path.split('?').next().unwrap_or("");
            let resolved = if path.is_empty() {
                file.clone()
            } else {
                normalize(&file.parent().unwrap_or(Path::new(".")).join(path))
            };
            let mut report = |what: String| {
                broken.push(BrokenLink {
                    file: file.clone(),
                    line,
                    what,
                })
            };
            if !resolved.exists() {
                report(format!("({target}): no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if resolved.extension().is_none_or(|e| e != "md") {
                continue; // an anchor into source code or a picture
            }
            if !anchors.contains_key(&resolved) {
                let text = read(&resolved)?;
                anchors.insert(resolved.clone(), anchors_of(&text));
            }
            if !anchors[&resolved].contains(anchor) {
                report(format!("({target}): no heading with the anchor #{anchor}"));
            }
        }
    }
    Ok(broken)
}

fn read(file: &Path) -> Result<String, String> {
    fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))
}

/// `path` without `.` and `a/..` steps.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The lines of `text` outside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fence: Option<&str> = None;
    text.lines().enumerate().filter_map(move |(i, line)| {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                None
            }
            (Some(open), Some(m)) if m == open => {
                fence = None;
                None
            }
            (Some(_), _) => None,
            (None, None) => Some((i + 1, line)),
        }
    })
}

/// `line` with its inline code spans blanked out (their text is not
/// Markdown).
fn without_code(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else if in_code {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// The relative link targets of `text` with their line numbers: inline
/// links and images `[text](target)`, and reference definitions
/// `[label]: target`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            found.push((number, target.trim_matches(['<', '>']).to_owned()));
            rest = &after[end..];
        }
        let trimmed = line.trim_start();
        if let Some(definition) = trimmed.strip_prefix('[') {
            if let Some((_, target)) = definition.split_once("]:") {
                let target = target.split_whitespace().next().unwrap_or("");
                found.push((number, target.to_owned()));
            }
        }
    }
    found.retain(|(_, target)| {
        let external = ["http:", "https:", "mailto:", "ftp:"];
        !target.is_empty() && !external.iter().any(|s| target.starts_with(s))
    });
    found
}

/// The anchors a file offers: its headings' slugs (numbered as GitHub does
/// when a heading repeats) and the `id` and `name` attributes of its HTML.
fn anchors_of(text: &str) -> HashSet<String> {
    let mut anchors = HashSet::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (_, line) in prose_lines(text) {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
            let heading = trimmed[hashes..].trim().trim_end_matches('#').trim();
            let base = slug(heading);
            let count = seen.entry(base.clone()).or_insert(0);
            anchors.insert(match *count {
                0 => base.clone(),
                n => format!("{base}-{n}"),
            });
            *count += 1;
        }
        for attribute in [" id=\"", " name=\""] {
            for part in line.split(attribute).skip(1) {
                if let Some(value) = part.split('"').next() {
                    anchors.insert(value.to_owned());
                }
            }
        }
    }
    anchors
}

/// The anchor GitHub gives a heading: its text as rendered (inline code
/// kept, link targets, emphasis marks and HTML tags dropped), lower-cased,
/// without any character but letters, digits, `_`, `-` and spaces, and each
/// space turned into `-` (so `a — b` gives `a--b`).
pub fn slug(heading: &str) -> String {
    rendered(heading)
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// A heading's text as GitHub renders it, near enough for its anchor:
/// `[text](url)` gives `text`, `*` and `_` used as emphasis marks go,
/// HTML tags go, and inline code keeps its text as written.
fn rendered(heading: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = heading.chars().collect();
    let mut i = 0;
    let mut in_code = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            in_code = !in_code;
        } else if in_code {
            out.push(c);
        } else if c == '<' {
            // An HTML tag: skip to its end.
            while i < chars.len() && chars[i] != '>' {
                i += 1;
            }
        } else if c == ']' && chars.get(i + 1) == Some(&'(') {
            // The end of a link's text: skip its target.
            while i < chars.len() && chars[i] != ')' {
                i += 1;
            }
        } else if c == '[' || c == '*' {
            // A link's opening bracket, or an emphasis mark.
        } else if c == '_' {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            let inside_word = before.is_some_and(char::is_alphanumeric)
                && after.is_some_and(char::is_alphanumeric);
            if inside_word {
                out.push(c);
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heading_loses_punctuation_and_code_marks_but_keeps_their_text() {
        assert_eq!(
            slug("Priority classes (`benches/priorities.rs`)"),
            "priority-classes-benchesprioritiesrs"
        );
        assert_eq!(
            slug("Observability costs (`crates/rt-core/examples/observe_cost.rs`)"),
            "observability-costs-cratesrt-coreexamplesobserve_costrs"
        );
        assert_eq!(
            slug("Coming from rayon, tokio or std"),
            "coming-from-rayon-tokio-or-std"
        );
    }

    #[test]
    fn hyphens_stay_and_every_space_becomes_one() {
        assert_eq!(
            slug("Fork-join: tasks that wait for tasks"),
            "fork-join-tasks-that-wait-for-tasks"
        );
        assert_eq!(
            slug("rt — a work-stealing CPU task runtime"),
            "rt--a-work-stealing-cpu-task-runtime"
        );
        assert_eq!(slug("UTS T1 / T3"), "uts-t1--t3");
    }

    #[test]
    fn links_emphasis_and_tags_leave_only_their_text() {
        assert_eq!(
            slug("See [Perfetto](https://ui.perfetto.dev)"),
            "see-perfetto"
        );
        assert_eq!(slug("**Bold** and _em_ words"), "bold-and-em-words");
        assert_eq!(slug("snake_case `a_b` <sub>x</sub>"), "snake_case-a_b-x");
    }

    #[test]
    fn letters_of_any_script_stay_and_symbols_go() {
        assert_eq!(slug("Größe ÷ Zeit ≤ 1 ✓"), "größe--zeit--1-");
    }

    #[test]
    fn a_repeated_heading_gets_a_number() {
        let anchors = anchors_of("# Notes\n## Notes\n### Notes\n");
        for a in ["notes", "notes-1", "notes-2"] {
            assert!(anchors.contains(a), "{a} in {anchors:?}");
        }
    }

    #[test]
    fn headings_and_links_in_code_do_not_count() {
        let text = "```\n# not a heading\n[a](missing.md)\n```\n`[b](gone.md)` [c](real.md#x)\n";
        assert_eq!(links(text), [(5, "real.md#x".to_owned())]);
        assert!(anchors_of(text).is_empty());
    }

    #[test]
    fn external_links_are_not_followed_and_definitions_are() {
        let text = "[a](https://x.org) [b](mailto:a@b) [c](#here)\n[d]: ../LICENSE\n";
        let targets: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(targets, ["#here", "../LICENSE"]);
    }

    #[test]
    fn html_ids_are_anchors_too() {
        assert!(anchors_of("<a name=\"top\"></a> <div id=\"x\">").contains("top"));
    }

    #[test]
    fn finds_a_missing_file_and_a_missing_anchor() {
        let dir = std::env::temp_dir().join(format!("md-links-{}", std::process::id()));
        fs::create_dir_all(dir.join("docs")).unwrap();
        fs::write(dir.join("docs/A.md"), "# Alpha beta\n").unwrap();
        fs::write(
            dir.join("README.md"),
            "[ok](docs/A.md#alpha-beta) [bad](docs/A.md#alpha) [gone](docs/B.md) [self](#top)\n# Top\n",
        )
        .unwrap();
        let broken = check(&[dir.join("README.md")]).unwrap();
        let found: Vec<&str> = broken.iter().map(|b| b.what.as_str()).collect();
        assert_eq!(
            found,
            [
                "(docs/A.md#alpha): no heading with the anchor #alpha",
                "(docs/B.md): no such file"
            ]
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
