//! `cargo xtask docs`: the README and the other Markdown files have no
//! broken link or anchor (see [`crate::md_links`]), the documentation
//! builds without a rustdoc warning and without a broken link, including
//! those rustdoc does not warn about (see [`crate::doc_links`]), and no page
//! of rt-handle shows its hidden executor plumbing.
//!
//! `cargo doc --no-deps --workspace` documents the crates in parallel, so
//! whether a link into another crate resolves depends on which pages
//! happened to exist already. To find such a link on every run rather than
//! on unlucky ones, each package is also documented alone, into an empty
//! directory (`target/doc-links`, so that `target/doc` is left as it is),
//! and checked there.

use std::fs;
use std::path::Path;

use crate::{doc_links, md_links, outside, steps, verify};

/// Checks the Markdown a user reads on the repository's page, documents the
/// workspace with rustdoc warnings denied and checks its pages, then
/// documents and checks each package alone.
pub fn docs() -> Result<(), String> {
    markdown()?;
    let mut workspace = crate::cargo(&["doc", "--no-deps", "--workspace"]);
    workspace.env("RUSTDOCFLAGS", "-D warnings");
    steps::run("rustdoc, warnings denied", workspace)?;
    let mut broken = report(&verify::target_dir().join("doc"))?;

    let alone = verify::target_dir().join("doc-links");
    for package in packages()? {
        let pages = alone.join("doc");
        if pages.exists() {
            fs::remove_dir_all(&pages)
                .map_err(|e| format!("could not empty {}: {e}", pages.display()))?;
        }
        let mut cmd = verify::cargo_in("doc-links", None);
        cmd.env("RUSTDOCFLAGS", "-D warnings").args([
            "doc",
            "--no-deps",
            "--quiet",
            "-p",
            &package,
        ]);
        steps::run(&format!("rustdoc of {package} alone"), cmd)?;
        broken += report(&pages)?;
    }
    // rt's rayon-core, a workspace of its own, documented alone too.
    let pages = alone.join("doc");
    if pages.exists() {
        fs::remove_dir_all(&pages)
            .map_err(|e| format!("could not empty {}: {e}", pages.display()))?;
    }
    let mut cmd = verify::cargo_in("doc-links", None);
    cmd.env("RUSTDOCFLAGS", "-D warnings")
        .args(["doc", "--no-deps", "--quiet", "--manifest-path"])
        .arg(verify::workspace_root().join(outside::RAYON_CORE));
    steps::run(&format!("rustdoc of {} alone", outside::RAYON_CORE), cmd)?;
    broken += report(&pages)?;
    if broken > 0 {
        return Err(format!("{broken} broken link(s) in the documentation"));
    }
    println!("xtask docs: no rustdoc warning, no broken link");
    Ok(())
}

/// `README.md`, `docs/*.md` and the crates' READMEs: every relative link
/// and anchor resolves ([`md_links`]).
pub fn markdown() -> Result<(), String> {
    let root = verify::workspace_root();
    println!("\n==> links and anchors of README.md, docs/*.md and crates/*/README.md");
    let files = md_links::files(&root)?;
    let broken = md_links::check(&files)?;
    for link in &broken {
        let file = link.file.strip_prefix(&root).unwrap_or(&link.file);
        println!(
            "broken link: {}:{}: {}",
            file.display(),
            link.line,
            link.what
        );
    }
    if broken.is_empty() {
        println!("==> {} Markdown files: every link resolves", files.len());
        Ok(())
    } else {
        Err(format!(
            "{} broken link(s) in the Markdown files",
            broken.len()
        ))
    }
}

/// Prints each broken link under `doc_dir`; returns how many there are.
fn report(doc_dir: &Path) -> Result<usize, String> {
    let broken = doc_links::check(doc_dir)?;
    for link in &broken {
        println!("broken link: {}: {}", link.page.display(), link.what);
    }
    Ok(broken.len())
}

/// The workspace's package names: the root package's and those under
/// `crates/` and `xtask/`, read from their manifests.
fn packages() -> Result<Vec<String>, String> {
    let root = verify::workspace_root();
    let mut manifests = vec![root.join("Cargo.toml"), root.join("xtask/Cargo.toml")];
    let crates = fs::read_dir(root.join("crates")).map_err(|e| format!("crates/: {e}"))?;
    for entry in crates {
        let manifest = entry
            .map_err(|e| format!("crates/: {e}"))?
            .path()
            .join("Cargo.toml");
        // A package with a workspace of its own (rt's rayon-core) is not
        // the root workspace's: `outside_docs` documents it.
        if manifest.exists() && !has_own_workspace(&manifest)? {
            manifests.push(manifest);
        }
    }
    manifests.iter().map(|m| package_name(m)).collect()
}

/// Whether a manifest declares a workspace of its own.
fn has_own_workspace(manifest: &Path) -> Result<bool, String> {
    let text = fs::read_to_string(manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    Ok(text.lines().any(|line| line.trim() == "[workspace]"))
}

/// The `name` of a manifest's `[package]`.
fn package_name(manifest: &Path) -> Result<String, String> {
    let text = fs::read_to_string(manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
    let package = text
        .split("\n[")
        .find(|section| section.trim_start_matches('[').starts_with("package]"))
        .ok_or_else(|| format!("{} has no [package]", manifest.display()))?;
    package
        .lines()
        .find_map(|line| {
            let value = line.strip_prefix("name")?.trim_start().strip_prefix('=')?;
            Some(value.trim().trim_matches('"').to_owned())
        })
        .ok_or_else(|| format!("{} names no package", manifest.display()))
}
