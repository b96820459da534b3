//! Headers that a linted file includes but that are not among the paths of the run: each is read
//! once for what it offers the files that include it (kernels, launches, grid helpers), and
//! nothing in it is reported. The editor asks again on every change, so what a header offers is
//! kept until the header changes on disk.

use super::{parse, read_source_lossy};
use crate::config::Settings;
use crate::model::index::{
    build_include_dirs, in_build_dirs, resolve_include, FileIndex, Lookups, ProjectIndex,
};
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
            angle_includes: crate::model::index::angle_includes(&text),
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
    let headers = included_defines(path, &text, settings);
    let view = source::preprocess_with(&text, &options_with_qualifiers_of(settings, &headers));
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

/// An include as a file writes it: the target, and whether it is written `<...>`.
type Include = (String, bool);

/// The includes of the two lists a file's index or header constants keep, quoted ones first.
fn written_includes<'a>(
    quoted: &'a [String],
    angled: &'a [String],
) -> impl Iterator<Item = Include> + 'a {
    let quoted = quoted.iter().map(|t| (t.clone(), false));
    quoted.chain(angled.iter().map(|t| (t.clone(), true)))
}

/// The includes of an index, quoted ones first.
fn includes_of(index: &FileIndex) -> impl Iterator<Item = Include> + '_ {
    written_includes(&index.includes, &index.angle_includes)
}

/// The includes `text` writes, quoted ones first.
fn includes_in_text(text: &str) -> Vec<Include> {
    written_includes(
        &crate::model::index::quoted_includes(text),
        &crate::model::index::angle_includes(text),
    )
    .collect()
}

/// The header that the include `target` (written `<...>` when `angled`) in `from` names, with
/// the include paths `build_dirs` (those of the linted file it is reached from,
/// `build_include_dirs`), as the engine finds it.
pub fn resolve_include_with(
    from: &Path,
    target: &str,
    angled: bool,
    build_dirs: &[PathBuf],
) -> Option<PathBuf> {
    resolve_written(from, &(target.to_string(), angled), build_dirs)
}

/// How deep the engine follows includes from a linted file, for anything: its index reads
/// kernels and helpers this deep, its constants deeper.
pub const DEEPEST_INCLUDE: usize = if MAX_DEFINES_DEPTH > MAX_INCLUDE_DEPTH {
    MAX_DEFINES_DEPTH
} else {
    MAX_INCLUDE_DEPTH
};

/// The header `target` names from `from`: a `<...>` one only where it is a project file in a
/// folder above `from` (a system header is in none, and nothing is read for it).
fn resolve_written(
    from: &Path,
    (target, angled): &Include,
    build_dirs: &[PathBuf],
) -> Option<PathBuf> {
    if *angled {
        crate::model::index::resolve_angle_include(from, target)
            .or_else(|| in_build_dirs(target, build_dirs))
    } else {
        resolve_in_build(from, target, build_dirs)
    }
}

/// Follows the includes of `roots` (each with the file that includes it) breadth first,
/// skipping the files in `known`; returns the headers read. The limit on headers holds per
/// linted file (each root's own includes and theirs), so a project of many programs reads each
/// program's headers, not only the first programs'.
fn follow(
    roots: Vec<(PathBuf, Include)>,
    known: &mut HashSet<PathBuf>,
    settings: &Settings,
    wanted: &HashSet<String>,
) -> Vec<FileIndex> {
    let mut found = Vec::new();
    // per root file: how many headers were read for it
    let mut read_for: HashMap<PathBuf, usize> = HashMap::new();
    let mut frontier: Vec<(PathBuf, PathBuf, Include)> = roots
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
            let build_dirs = root.parent().map(build_include_dirs).unwrap_or_default();
            let Some(header) = resolve_written(&from, &target, &build_dirs) else {
                continue;
            };
            if !known.insert(identity(&header)) {
                continue;
            }
            let Some(index) = header_index(&header, settings, wanted) else {
                continue;
            };
            *count += 1;
            next.extend(includes_of(&index).map(|t| (root.clone(), header.clone(), t)));
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
    let includes = includes_in_text(text);
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
    let roots: Vec<(PathBuf, Include)> = linted
        .iter()
        .flat_map(|file| includes_of(file).map(|target| (file.path.clone(), target)))
        .collect();
    if roots.is_empty() || wanted.is_empty() {
        return Vec::new();
    }
    follow(roots, &mut known, settings, wanted)
}

/// Headers included through other headers are followed this deep for their constants.
const MAX_DEFINES_DEPTH: usize = 8;

/// Each header's constants, by path, with its stamp and the `-D` definitions it was read with.
type DefinesCache = Mutex<HashMap<PathBuf, (Stamp, Vec<String>, Arc<source::HeaderDefines>)>>;

fn defines_cache() -> &'static DefinesCache {
    static CACHE: OnceLock<DefinesCache> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

/// The object-like constants of the header at `path`, read as compiled with the configured
/// `-D` definitions; read from disk once until it changes.
fn header_defines(path: &Path, given: &[String]) -> Option<Arc<source::HeaderDefines>> {
    let metadata = std::fs::metadata(path).ok()?;
    if !metadata.is_file() || metadata.len() > super::MAX_FILE_BYTES {
        return None;
    }
    let stamp = (metadata.modified().ok(), metadata.len());
    if let Ok(cache) = defines_cache().lock() {
        if let Some((cached, with, defines)) = cache.get(path) {
            if *cached == stamp && with.as_slice() == given {
                return Some(defines.clone());
            }
        }
    }
    let (text, _) = read_source_lossy(path).ok()?;
    let defines = Arc::new(source::HeaderDefines::of(&text, given));
    if let Ok(mut cache) = defines_cache().lock() {
        cache.insert(path.to_path_buf(), (stamp, given.to_vec(), defines.clone()));
    }
    Some(defines)
}

/// The constants of every project header `text` (the file at `path`) includes, found on disk
/// beside it or in an `include/` folder above, and of the headers those include, in include
/// order, each once. A file linted alone and the same file in a project run see the same.
pub fn included_defines(
    path: &Path,
    text: &str,
    settings: &Settings,
) -> Vec<Arc<source::HeaderDefines>> {
    let mut found = Vec::new();
    let mut known = HashSet::from([identity(path)]);
    let build_dirs = path.parent().map(build_include_dirs).unwrap_or_default();
    // (including file, include): a project header the file includes with `<...>` is looked for
    // from the root the build puts on the path
    let mut frontier: Vec<(PathBuf, Include)> = includes_in_text(text)
        .into_iter()
        .map(|include| (path.to_path_buf(), include))
        .collect();
    for _ in 0..MAX_DEFINES_DEPTH {
        let mut next = Vec::new();
        for (from, include) in frontier {
            if found.len() >= MAX_HEADERS {
                break;
            }
            let Some(header) = resolve_written(&from, &include, &build_dirs) else {
                continue;
            };
            if !known.insert(identity(&header)) {
                continue;
            }
            let Some(defines) = header_defines(&header, &settings.defines) else {
                continue;
            };
            next.extend(
                written_includes(&defines.includes, &defines.angle_includes)
                    .map(|include| (header.clone(), include)),
            );
            found.push(defines);
        }
        frontier = next;
    }
    found
}

/// The header `target` that `from` includes: beside it or in an `include/` folder above
/// (`resolve_include`), else in one of the build files' include paths.
fn resolve_in_build(from: &Path, target: &str, build_dirs: &[PathBuf]) -> Option<PathBuf> {
    resolve_include(from, target).or_else(|| in_build_dirs(target, build_dirs))
}

/// The view a linted file is read through: its own text preprocessed with the settings, and the
/// constants of the project headers it includes.
pub fn view_of(path: &Path, text: &str, settings: &Settings) -> source::PreprocessedView {
    let headers = included_defines(path, text, settings);
    let view = source::preprocess_with(text, &options_with_qualifiers_of(settings, &headers));
    let headers: Vec<&source::HeaderDefines> = headers.iter().map(|h| &**h).collect();
    view.with_included(&headers, &settings.defines)
}

/// CUDA's own qualifiers, which a header may define away for a host compiler.
const CUDA_KEYWORDS: &[&str] = &[
    "__host__",
    "__device__",
    "__global__",
    "__shared__",
    "__constant__",
    "__managed__",
    "__forceinline__",
    "__noinline__",
    "__inline__",
    "__restrict__",
    "__launch_bounds__",
    "__grid_constant__",
];

/// The settings' view options, with the qualifier macros the included `headers` define known
/// (`HOST_DEVICE_FUNCTION` from a header of qualifiers keeps a helper `__device__`).
fn options_with_qualifiers_of(
    settings: &Settings,
    headers: &[Arc<source::HeaderDefines>],
) -> source::ViewOptions {
    let mut options = settings.view_options();
    for header in headers {
        for qualifier in &header.qualifiers {
            // a compatibility header for host builds (`#define __global__` under `#ifndef
            // __CUDACC__`) says nothing of the CUDA build the file is read as
            if CUDA_KEYWORDS.contains(&qualifier.0.as_str()) {
                continue;
            }
            if !options
                .known_qualifiers
                .iter()
                .any(|(name, _)| *name == qualifier.0)
            {
                options.known_qualifiers.push(qualifier.clone());
            }
        }
    }
    options
}
