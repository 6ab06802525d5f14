//! The check of the generated documentation that rustdoc's own warnings miss:
//! links that did not resolve.
//!
//! `cargo doc --no-deps` documents each crate without waiting for the pages
//! of the crates it links to. An intra-doc link to an item whose pages
//! rustdoc does not know of at that moment is left as it was written, with
//! no warning: a shortcut link to `queue` renders as the literal text
//! `[queue]`, and a link to `crate` as `href="crate"`. This scans every page of every
//! crate under `target/doc` (the source view, and rustdoc's own help and
//! settings pages at the top, excepted) for
//!
//! * an `href` to a file that does not exist (a relative link; `http(s):`,
//!   `mailto:` and in-page `#` links are not followed), and
//! * link syntax left as text: `[name]` or `[path::to::Item]` outside code
//!   and preformatted blocks, or a bracketed `<code>` span (`[`name`]`).

use std::fs;
use std::path::{Path, PathBuf};

/// One unresolved link: the page it is on and what was found there.
pub struct BrokenLink {
    pub page: PathBuf,
    pub what: String,
}

/// Every broken link on the pages under `doc_dir`.
pub fn check(doc_dir: &Path) -> Result<Vec<BrokenLink>, String> {
    let mut pages = Vec::new();
    collect_pages(doc_dir, &mut pages)
        .map_err(|e| format!("could not list {}: {e}", doc_dir.display()))?;
    if pages.is_empty() {
        return Err(format!("no pages under {}", doc_dir.display()));
    }
    let mut broken = Vec::new();
    for page in pages {
        let html = fs::read_to_string(&page)
            .map_err(|e| format!("could not read {}: {e}", page.display()))?;
        let html = strip_elements(&html, "script");
        let dir = page.parent().unwrap_or(doc_dir);
        for href in hrefs(&html) {
            if let Some(target) = local_target(href) {
                if !dir.join(target).exists() {
                    broken.push(BrokenLink {
                        page: page.clone(),
                        what: format!("href=\"{href}\" (no such file)"),
                    });
                }
            }
        }
        for text in literal_links(&html) {
            broken.push(BrokenLink {
                page: page.clone(),
                what: format!("{text} (link syntax left as text)"),
            });
        }
    }
    Ok(broken)
}

/// The `.html` files in the crates' folders under `doc_dir`: not the
/// source view (`src/`) and not the pages at the top (rustdoc's help and
/// settings).
fn collect_pages(doc_dir: &Path, pages: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(doc_dir)? {
        let path = entry?.path();
        if path.is_dir() && !path.ends_with("src") {
            let mut files = Vec::new();
            files_under(&path, &mut files)?;
            pages.extend(
                files
                    .into_iter()
                    .filter(|file| file.extension().is_some_and(|e| e == "html")),
            );
        }
    }
    Ok(())
}

/// Every file under `dir`, in its subfolders too.
pub fn files_under(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files_under(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

/// The values of the `href` attributes of the page's tags (not text that
/// merely reads `href=`, such as code about links).
fn hrefs(html: &str) -> impl Iterator<Item = &str> {
    html.split('<')
        .filter_map(|rest| rest.split('>').next())
        .filter_map(|tag| tag.split_once(" href=\"").map(|(_, value)| value))
        .filter_map(|value| value.split('"').next())
}

/// The file a relative link points at (without its `#fragment` or
/// `?query`); `None` for links to other sites and to this page.
fn local_target(href: &str) -> Option<&str> {
    let external = ["http:", "https:", "mailto:", "javascript:", "data:"];
    if external.iter().any(|scheme| href.starts_with(scheme)) {
        return None;
    }
    let path = href.split(['#', '?']).next().unwrap_or("");
    (!path.is_empty()).then_some(path)
}

/// Link syntax rustdoc left as text: a bracketed `<code>` span holding a
/// path, and `[path]` in prose (code, preformatted blocks, links and the
/// headings that hold signatures removed: there brackets are slices and
/// indexing).
fn literal_links(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for rest in html.split("[<code>").skip(1) {
        if let Some((inside, _)) = rest.split_once("</code>]") {
            if is_path(inside) {
                found.push(format!("[`{inside}`]"));
            }
        }
    }
    let mut prose = html.to_owned();
    for element in ["pre", "code", "a", "h1", "h2", "h3", "h4"] {
        prose = strip_elements(&prose, element);
    }
    let prose = strip_tags(&prose);
    for rest in prose.split('[').skip(1) {
        if let Some((inside, _)) = rest.split_once(']') {
            if is_path(inside) {
                found.push(format!("[{inside}]"));
            }
        }
    }
    found
}

/// Whether `text` reads as a Rust path: identifiers joined by `::`.
fn is_path(text: &str) -> bool {
    !text.is_empty()
        && text.split("::").all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// `html` without the `<name ...>...</name>` elements (not nested).
fn strip_elements(html: &str, name: &str) -> String {
    let open = format!("<{name}");
    let close = format!("</{name}>");
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = find_tag(rest, &open) {
        out.push_str(&rest[..start]);
        match rest[start..].find(&close) {
            Some(end) => rest = &rest[start + end + close.len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// Where a tag `<name` starts (not a longer name such as `<prefix`).
fn find_tag(html: &str, open: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = html[from..].find(open) {
        let start = from + at;
        match html[start + open.len()..].chars().next() {
            Some('>') | Some(' ') => return Some(start),
            _ => from = start + open.len(),
        }
    }
    None
}

/// `html`'s text, every tag removed (scripts and styles are not expected
/// in the prose this is used on).
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_bracketed_code_span_and_a_bracketed_path_in_prose() {
        let html = "<p>See [<code>queue</code>] and [core::Runtime].</p>";
        assert_eq!(literal_links(html), ["[`queue`]", "[core::Runtime]"]);
    }

    #[test]
    fn ignores_brackets_in_code_and_preformatted_blocks_and_non_paths() {
        let html = "<pre class=\"rust\">v[0]; [High][Normal]</pre>\
                    <p><code>&amp;[u8]</code>, [1, 2], [see below]</p>";
        assert!(literal_links(html).is_empty());
    }

    #[test]
    fn reads_hrefs_of_tags_only() {
        let html = "<a class=\"x\" href=\"a.html\">a</a> <code>href=\"b\"</code>";
        assert_eq!(hrefs(html).collect::<Vec<_>>(), ["a.html"]);
    }

    #[test]
    fn follows_only_relative_links() {
        assert_eq!(local_target("crate"), Some("crate"));
        assert_eq!(
            local_target("../rt_core/index.html#x"),
            Some("../rt_core/index.html")
        );
        assert_eq!(local_target("#section"), None);
        assert_eq!(local_target("https://docs.rs"), None);
    }
}
