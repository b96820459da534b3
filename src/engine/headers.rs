//! Headers that a linted file includes but that are not among the paths of the run: each is read
//! once for what it offers the files that include it (kernels, launches, grid helpers), and
//! nothing in it is reported. The editor asks again on every change, so what a header offers is
//! kept until the header changes on disk.

use super::{parse, read_source_lossy};
use crate::config::Settings;
use crate::model::index::{resolve_include, FileIndex, Lookups, ProjectIndex};
use crate::model::{Model, OffersOnly};
use crate::source::{self, LineIndex};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

/// Headers included through other headers are followed this deep.
const MAX_INCLUDE_DEPTH: usize = 3;
/// And no more than this many per linted file.
const MAX_HEADERS: usize = 64;

type Stamp = (Option<SystemTime>, u64);

/// What reading a header gave.
enum Read {
    /// Parsed: what it offers.
    Parsed(Arc<FileIndex>),
    /// Not parsed, since it named nothing wanted then: its includes, and the names it has, so an
    /// unchanged header is parsed only when one of them is wanted.
    Skipped {
        includes: Arc<FileIndex>,
        names: HashSet<String>,
    },
}

/// Each header read, by path, with its modification time and length when it was read.
type HeaderCache = Mutex<HashMap<PathBuf, (Stamp, Read)>>;

fn cache() -> &'static HeaderCache {
    static CACHE: OnceLock<HeaderCache> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

/// What the header at `path` offers, read from disk unless it is unchanged since the last read.
/// A header that names none of the `wanted` names offers nothing and is not parsed (large
/// third-party headers cost nothing); its includes are still followed.
fn header_index(
    path: &Path,
    settings: &Settings,
    wanted: &HashSet<String>,
) -> Option<Arc<FileIndex>> {
    let metadata = std::fs::metadata(path).ok()?;
    if !metadata.is_file() || metadata.len() > super::MAX_FILE_BYTES {
        return None;
    }
    let stamp = (metadata.modified().ok(), metadata.len());
    if let Ok(cache) = cache().lock() {
        match cache.get(path) {
            Some((cached, Read::Parsed(index))) if *cached == stamp => return Some(index.clone()),
            Some((cached, Read::Skipped { includes, names }))
                if *cached == stamp && !shares_a_name(names, wanted) =>
            {
                return Some(includes.clone());
            }
            _ => {}
        }
    }
    let (text, _) = read_source_lossy(path).ok()?;
    if !identifiers(&text).any(|word| wanted.contains(word)) {
        let includes = Arc::new(FileIndex {
            path: path.to_path_buf(),
            includes: crate::model::index::quoted_includes(&text),
            ..FileIndex::default()
        });
        let names = identifiers(&text).map(str::to_string).collect();
        if let Ok(mut cache) = cache().lock() {
            cache.insert(
                path.to_path_buf(),
                (
                    stamp,
                    Read::Skipped {
                        includes: includes.clone(),
                        names,
                    },
                ),
            );
        }
        return Some(includes);
    }
    let view = source::preprocess_with(&text, &settings.view_options());
    let tree = parse(&view.text, None)?;
    let lines = LineIndex::new(&text);
    let model = Model::build_reusing(
        path,
        &text,
        &view,
        &tree,
        &lines,
        &settings.check_macros,
        settings.selects_error_handling(),
        ProjectIndex::empty(),
        &mut OffersOnly,
    );
    let index = Arc::new(model.file_index());
    if let Ok(mut cache) = cache().lock() {
        cache.insert(path.to_path_buf(), (stamp, Read::Parsed(index.clone())));
    }
    Some(index)
}

/// Whether two sets of names meet, looking up the smaller in the larger.
fn shares_a_name(a: &HashSet<String>, b: &HashSet<String>) -> bool {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    small.iter().any(|name| large.contains(name))
}

/// The identifiers of a text, in order (with repeats).
fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
}

fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Follows the quoted includes of `roots` (each with the file that includes it) breadth first,
/// skipping the files in `known`; returns the headers read. The limit on headers holds per
/// linted file (each root's own includes and theirs), so a project of many programs reads each
/// program's headers, not only the first programs'.
fn follow(
    roots: Vec<(PathBuf, String)>,
    known: &mut HashSet<PathBuf>,
    settings: &Settings,
    wanted: &HashSet<String>,
) -> Vec<FileIndex> {
    let mut found = Vec::new();
    // per root file: how many headers were read for it
    let mut read_for: HashMap<PathBuf, usize> = HashMap::new();
    let mut frontier: Vec<(PathBuf, PathBuf, String)> = roots
        .into_iter()
        .map(|(from, target)| (from.clone(), from, target))
        .collect();
    for _ in 0..MAX_INCLUDE_DEPTH {
        let mut next = Vec::new();
        for (root, from, target) in frontier {
            let count = read_for.entry(root.clone()).or_default();
            if *count >= MAX_HEADERS {
                continue;
            }
            let Some(header) = resolve_include(&from, &target) else {
                continue;
            };
            if !known.insert(identity(&header)) {
                continue;
            }
            let Some(index) = header_index(&header, settings, wanted) else {
                continue;
            };
            *count += 1;
            next.extend(
                index
                    .includes
                    .iter()
                    .map(|t| (root.clone(), header.clone(), t.clone())),
            );
            found.push((*index).clone());
        }
        frontier = next;
    }
    found
}

/// Every name `lookups` asked for.
pub fn wanted_names<'a>(lookups: impl IntoIterator<Item = &'a Lookups>) -> HashSet<String> {
    let mut wanted = HashSet::new();
    for lookups in lookups {
        wanted.extend(lookups.functions.iter().cloned());
        wanted.extend(lookups.launched_kernels.iter().cloned());
    }
    wanted
}

/// The index a file linted on its own sees: the headers it includes, found on disk, that name
/// something the file looked for.
pub fn index_of_included(
    path: &Path,
    text: &str,
    settings: &Settings,
    lookups: &Lookups,
) -> ProjectIndex {
    let includes = crate::model::index::quoted_includes(text);
    let wanted = wanted_names([lookups]);
    if includes.is_empty() || wanted.is_empty() {
        return ProjectIndex::default();
    }
    let mut known = HashSet::from([identity(path)]);
    let roots = includes
        .into_iter()
        .map(|target| (path.to_path_buf(), target))
        .collect();
    ProjectIndex::new(follow(roots, &mut known, settings, &wanted))
}

/// The headers the linted files include that are not themselves linted in this run and that
/// name something one of them looked for.
pub fn index_of_headers_outside(
    linted: &[&FileIndex],
    files: &[&Path],
    settings: &Settings,
    wanted: &HashSet<String>,
) -> Vec<FileIndex> {
    let mut known: HashSet<PathBuf> = files.iter().map(|path| identity(path)).collect();
    let roots: Vec<(PathBuf, String)> = linted
        .iter()
        .flat_map(|file| {
            file.includes
                .iter()
                .map(|target| (file.path.clone(), target.clone()))
        })
        .collect();
    if roots.is_empty() || wanted.is_empty() {
        return Vec::new();
    }
    follow(roots, &mut known, settings, wanted)
}

/// Headers whose constants a file reads are followed this deep.
const DEFINE_DEPTH: usize = 2;
/// And no more than this many per file.
const MAX_DEFINE_HEADERS: usize = 16;

/// A header's object-like macros (name and body, with the names it defines on several paths left
/// out) and its quoted includes.
type HeaderDefines = Arc<(Vec<(String, String)>, Vec<String>)>;

fn define_cache() -> &'static Mutex<HashMap<PathBuf, (Stamp, HeaderDefines)>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, (Stamp, HeaderDefines)>>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

/// What the header at `path` defines, read from disk unless unchanged since the last read.
fn header_defines(path: &Path, settings: &Settings) -> Option<HeaderDefines> {
    let metadata = std::fs::metadata(path).ok()?;
    if !metadata.is_file() || metadata.len() > super::MAX_FILE_BYTES {
        return None;
    }
    let stamp = (metadata.modified().ok(), metadata.len());
    if let Ok(cache) = define_cache().lock() {
        if let Some((cached, defines)) = cache.get(path) {
            if *cached == stamp {
                return Some(defines.clone());
            }
        }
    }
    let (text, _) = read_source_lossy(path).ok()?;
    let view = source::preprocess_with(&text, &settings.view_options());
    let mut defines: Vec<(String, String)> = view
        .defines
        .into_iter()
        .filter(|(name, _)| !view.ambiguous_defines.contains(name))
        .collect();
    defines.sort_unstable();
    let read = Arc::new((defines, crate::model::index::quoted_includes(&text)));
    if let Ok(mut cache) = define_cache().lock() {
        cache.insert(path.to_path_buf(), (stamp, read.clone()));
    }
    Some(read)
}

/// Adds to `view.defines` the object-like macros of the headers the file at `path` includes
/// with quotes (and those they include, two deep), for the names the file does not define
/// itself: `#define BLOCK_SIZE 256` in `reference.h` is a constant of each file that includes
/// it. A name two headers define with different bodies is left out.
pub fn add_included_defines(
    path: &Path,
    text: &str,
    view: &mut source::PreprocessedView,
    settings: &Settings,
) {
    let includes = crate::model::index::quoted_includes(text);
    if includes.is_empty() {
        return;
    }
    let mut known = HashSet::from([identity(path)]);
    let mut found: HashMap<String, Option<String>> = HashMap::new();
    let mut read = 0;
    let mut frontier: Vec<(PathBuf, String)> = includes
        .into_iter()
        .map(|target| (path.to_path_buf(), target))
        .collect();
    for _ in 0..DEFINE_DEPTH {
        let mut next = Vec::new();
        for (from, target) in frontier {
            if read >= MAX_DEFINE_HEADERS {
                break;
            }
            let Some(header) = resolve_include(&from, &target) else {
                continue;
            };
            if !known.insert(identity(&header)) {
                continue;
            }
            let Some(defines) = header_defines(&header, settings) else {
                continue;
            };
            read += 1;
            for (name, body) in &defines.0 {
                found
                    .entry(name.clone())
                    .and_modify(|seen| {
                        if seen.as_deref() != Some(body.as_str()) {
                            *seen = None;
                        }
                    })
                    .or_insert_with(|| Some(body.clone()));
            }
            next.extend(defines.1.iter().map(|t| (header.clone(), t.clone())));
        }
        frontier = next;
    }
    for (name, body) in found {
        if let Some(body) = body {
            if !view.ambiguous_defines.contains(&name) {
                view.defines.entry(name).or_insert(body);
            }
        }
    }
}
