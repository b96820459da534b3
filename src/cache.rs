//! The persistent cache: `.cudalint_cache/` at the project root holds the findings of earlier
//! runs, so running again over unchanged files reads them back instead of linting.
//!
//! One entry holds a whole run. A file's findings depend on the other files of the run (the
//! project index answers its lookups) and on the headers it includes, so the key covers
//! everything a run reads: the cudalint build, the working directory, each file's path, text and
//! settings, and every header reachable through quoted includes (where each include resolves,
//! and the header's bytes). Anything else on disk cannot change a finding, so a key that matches
//! gives the same output, byte for byte, as linting again.
//!
//! Entries are written to a temporary file and renamed into place, so a concurrent run reads a
//! whole entry or none; an entry that does not parse is a miss.

use crate::config::Settings;
use crate::diagnostic::{Diagnostic, Edit, Fix, Label, Severity};
use crate::engine::{FileOutcome, SourceFile};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

pub const CACHE_DIR_NAME: &str = ".cudalint_cache";
/// Bumped whenever the entry format changes.
const FORMAT: u32 = 1;
/// Entries kept; the oldest beyond this are removed after a store.
const MAX_ENTRIES: usize = 16;
/// Deeper than the engine follows headers, so the key never misses one it reads.
const INCLUDE_DEPTH: usize = crate::engine::DEEPEST_INCLUDE + 1;
/// The folders whose build files are read for a linted file's include paths: its own and those
/// above it (`build_include_dirs` climbs eight).
const BUILD_FILE_LEVELS: usize = 10;

/// The cache of one project.
#[derive(Debug)]
pub struct RunCache {
    dir: PathBuf,
    version: String,
    hit: AtomicBool,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    format: u32,
    version: String,
    key: String,
    files: Vec<CachedFile>,
}

#[derive(Serialize, Deserialize)]
struct CachedFile {
    diagnostics: Vec<CachedDiagnostic>,
    skipped_regions: usize,
    functions_with_parse_errors: usize,
    findings_on_broken_code: usize,
}

#[derive(Serialize, Deserialize)]
struct CachedDiagnostic {
    rule: String,
    severity: Severity,
    span: (usize, usize),
    message: String,
    labels: Vec<((usize, usize), String)>,
    help: Option<String>,
    fix: Option<CachedFix>,
}

/// Title, edits (span and replacement), safe.
type CachedFix = (String, Vec<((usize, usize), String)>, bool);

impl RunCache {
    /// The cache at the project root: the nearest directory at or above the working directory
    /// that holds a `cudalint.toml`, `.cudalint.toml` or `.git`, else the working directory.
    pub fn at_project_root() -> Option<RunCache> {
        let cwd = std::env::current_dir().ok()?;
        Some(RunCache::in_directory(&project_root(&cwd)))
    }

    pub fn in_directory(root: &Path) -> RunCache {
        RunCache {
            dir: root.join(CACHE_DIR_NAME),
            version: build_identity(),
            hit: AtomicBool::new(false),
        }
    }

    /// The same cache as another cudalint build would see it (for tests of invalidation).
    pub fn with_version(mut self, version: &str) -> RunCache {
        self.version = version.to_string();
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the last `load` found its entry.
    pub fn was_hit(&self) -> bool {
        self.hit.load(Ordering::Relaxed)
    }

    /// The key of a run over `files` (in the order they are linted).
    pub fn key(&self, files: &[SourceFile]) -> String {
        let mut hasher = Sha256::new();
        let mut put = |part: &[u8]| {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        };
        put(&FORMAT.to_le_bytes());
        put(self.version.as_bytes());
        let cwd = std::env::current_dir().unwrap_or_default();
        put(cwd.to_string_lossy().as_bytes());
        for file in files {
            put(file.path.to_string_lossy().as_bytes());
            put(&Sha256::digest(file.text.as_bytes()));
            put(settings_fingerprint(file.settings).as_bytes());
        }
        for line in reachable_headers(files) {
            put(line.as_bytes());
        }
        let digest = hasher.finalize();
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The outcomes stored under `key`, one per file, or `None`.
    pub fn load(&self, key: &str, files: usize) -> Option<Vec<FileOutcome>> {
        let text = std::fs::read(self.entry_path(key)).ok()?;
        let entry: Entry = serde_json::from_slice(&text).ok()?;
        if entry.format != FORMAT
            || entry.version != self.version
            || entry.key != key
            || entry.files.len() != files
        {
            return None;
        }
        let outcomes = entry
            .files
            .into_iter()
            .map(CachedFile::into_outcome)
            .collect::<Option<Vec<_>>>()?;
        self.hit.store(true, Ordering::Relaxed);
        Some(outcomes)
    }

    /// Stores the outcomes under `key`; a cache that cannot be written is no error, the run just
    /// is not cached.
    pub fn store(&self, key: &str, outcomes: &[FileOutcome]) -> Result<(), String> {
        let entry = Entry {
            format: FORMAT,
            version: self.version.clone(),
            key: key.to_string(),
            files: outcomes.iter().map(CachedFile::from_outcome).collect(),
        };
        let json = serde_json::to_vec(&entry).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(&self.dir).map_err(|e| e.to_string())?;
        let ignore = self.dir.join(".gitignore");
        if !ignore.exists() {
            write_atomically(&self.dir, &ignore, b"# created by cudalint\n*\n")?;
            let tag = b"Signature: 8a477f597d28d172789f06886806bc55\n# a cudalint cache\n";
            write_atomically(&self.dir, &self.dir.join("CACHEDIR.TAG"), tag)?;
        }
        write_atomically(&self.dir, &self.entry_path(key), &json)?;
        self.prune();
        Ok(())
    }

    fn entry_path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("run-{key}.json"))
    }

    /// Removes the oldest entries past `MAX_ENTRIES`.
    fn prune(&self) {
        let Ok(read) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut entries: Vec<(std::time::SystemTime, PathBuf)> = read
            .flatten()
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                name.starts_with("run-") && name.ends_with(".json")
            })
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        if entries.len() <= MAX_ENTRIES {
            return;
        }
        entries.sort();
        let excess = entries.len() - MAX_ENTRIES;
        for (_, path) in entries.into_iter().take(excess) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Writes through a temporary file in the same directory and renames it into place, so a reader
/// never sees half an entry and two writers of one key leave one whole entry.
fn write_atomically(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), String> {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let temporary = dir.join(format!(
        ".tmp-{}-{nanos}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&temporary, bytes).map_err(|e| e.to_string())?;
    std::fs::rename(&temporary, path).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        e.to_string()
    })
}

/// The nearest directory at or above `start` with a configuration file or `.git`.
pub fn project_root(start: &Path) -> PathBuf {
    for dir in start.ancestors() {
        let marked = crate::config::CONFIG_FILE_NAMES
            .iter()
            .chain(&[".git"])
            .any(|name| dir.join(name).exists());
        if marked {
            return dir.to_path_buf();
        }
    }
    start.to_path_buf()
}

/// The version, and the executable's size and modification time, so a rebuilt binary of the
/// same version (a developer's) does not read findings another build wrote.
fn build_identity() -> String {
    let mut identity = env!("CARGO_PKG_VERSION").to_string();
    if let Some(metadata) = std::env::current_exe()
        .ok()
        .and_then(|exe| std::fs::metadata(exe).ok())
    {
        let modified = metadata
            .modified()
            .ok()
            .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        identity.push_str(&format!("+{}.{modified}", metadata.len()));
    }
    identity
}

/// Every setting, in a fixed order. The destructuring names each field, so a new setting does
/// not compile until it is part of the key.
fn settings_fingerprint(settings: &Settings) -> String {
    let Settings {
        origin,
        root,
        selected,
        extend_selected,
        ignored,
        severity,
        per_path_ignores,
        extensions,
        check_macros,
        qualifier_macros,
        defines,
        max_allocation_bytes,
        strict_error_checks,
        kernel_headers,
    } = settings;
    fn sorted(set: &HashSet<String>) -> Vec<&String> {
        let mut items: Vec<&String> = set.iter().collect();
        items.sort();
        items
    }
    let mut severities: Vec<(&String, &Severity)> = severity.iter().collect();
    severities.sort();
    let globs: Vec<(&PathBuf, &str, &Vec<String>)> = per_path_ignores
        .iter()
        .map(|ignore| (&ignore.root, ignore.glob.glob().glob(), &ignore.rules))
        .collect();
    format!(
        "{origin:?}|{root:?}|{:?}|{:?}|{:?}|{severities:?}|{globs:?}|{extensions:?}|{check_macros:?}|{qualifier_macros:?}|{defines:?}|{strict_error_checks}|{kernel_headers}|{}",
        selected.as_ref().map(sorted),
        sorted(extend_selected),
        sorted(ignored),
        max_allocation_bytes.to_bits()
    )
}

/// One line per include (quoted, or `<...>` naming a project header) reachable from the files
/// (where it resolves, and what the header holds), and one per build file that gives a linted
/// file's folder its include paths, in a fixed order: what the engine may read besides the files
/// themselves. Includes resolve as the engine resolves them, through the include paths of the
/// linted file they are reached from, so each file's headers are followed on their own.
fn reachable_headers(files: &[SourceFile]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut digests: HashMap<PathBuf, Option<String>> = HashMap::new();
    let mut digest_of = |path: &Path| -> Option<String> {
        digests
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                std::fs::read(path).ok().map(|bytes| {
                    Sha256::digest(&bytes)
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect()
                })
            })
            .clone()
    };
    let mut build_files_seen: HashSet<PathBuf> = HashSet::new();
    for file in files {
        for folder in file
            .path
            .parent()
            .into_iter()
            .flat_map(Path::ancestors)
            .take(BUILD_FILE_LEVELS)
        {
            for name in crate::model::index::BUILD_FILES {
                let build_file = folder.join(name);
                if build_files_seen.insert(build_file.clone()) && build_file.is_file() {
                    lines.push(format!(
                        "{}\0{:?}",
                        build_file.display(),
                        digest_of(&build_file)
                    ));
                }
            }
        }
    }
    // the files whose folders' build files give the same include paths resolve alike: their
    // headers are followed together
    let mut groups: Vec<(std::sync::Arc<Vec<PathBuf>>, Vec<&SourceFile>)> = Vec::new();
    for file in files {
        let dirs = file
            .path
            .parent()
            .map(crate::model::index::build_include_dirs)
            .unwrap_or_default();
        match groups.iter_mut().find(|(known, _)| *known == dirs) {
            Some((_, members)) => members.push(file),
            None => groups.push((dirs, vec![file])),
        }
    }
    for (build_dirs, members) in groups {
        lines.push(format!("include paths {build_dirs:?}"));
        let mut seen: HashSet<PathBuf> = members.iter().map(|f| f.path.to_path_buf()).collect();
        // (including file, target, written with `<...>`)
        let mut frontier: Vec<(PathBuf, String, bool)> = members
            .iter()
            .flat_map(|file| written_includes(file.path, file.text))
            .collect();
        for _ in 0..INCLUDE_DEPTH {
            let mut next = Vec::new();
            for (from, target, angled) in frontier {
                let resolved =
                    crate::engine::resolve_include_with(&from, &target, angled, &build_dirs);
                lines.push(format!("{}\0{target}\0{resolved:?}", from.display()));
                let Some(header) = resolved else {
                    continue;
                };
                if !seen.insert(header.clone()) {
                    continue;
                }
                let Some(digest) = digest_of(&header) else {
                    lines.push(format!("{}\0unreadable", header.display()));
                    continue;
                };
                lines.push(format!("{}\0{digest}", header.display()));
                if let Ok(text) = std::fs::read_to_string(&header) {
                    next.extend(written_includes(&header, &text));
                }
            }
            frontier = next;
        }
    }
    lines
}

/// The includes `text` (of the file at `from`) writes, quoted ones first.
fn written_includes(from: &Path, text: &str) -> Vec<(PathBuf, String, bool)> {
    let quoted = crate::model::index::quoted_includes(text)
        .into_iter()
        .map(|target| (from.to_path_buf(), target, false));
    let angled = crate::model::index::angle_includes(text)
        .into_iter()
        .map(|target| (from.to_path_buf(), target, true));
    quoted.chain(angled).collect()
}

type CachedSpan = (usize, usize);

fn span(range: &std::ops::Range<usize>) -> CachedSpan {
    (range.start, range.end)
}

impl CachedFile {
    fn from_outcome(outcome: &FileOutcome) -> CachedFile {
        CachedFile {
            diagnostics: outcome
                .diagnostics
                .iter()
                .map(|d| {
                    // named field by field, so a new field does not compile until it is cached
                    let Diagnostic {
                        rule,
                        severity,
                        span: range,
                        message,
                        labels,
                        help,
                        fix,
                        verification: _,
                    } = d;
                    CachedDiagnostic {
                        rule: rule.to_string(),
                        severity: *severity,
                        span: span(range),
                        message: message.clone(),
                        labels: labels
                            .iter()
                            .map(|l| (span(&l.span), l.message.clone()))
                            .collect(),
                        help: help.clone(),
                        fix: fix.as_ref().map(|f| {
                            (
                                f.title.clone(),
                                f.edits
                                    .iter()
                                    .map(|e| (span(&e.span), e.replacement.clone()))
                                    .collect(),
                                f.safe,
                            )
                        }),
                    }
                })
                .collect(),
            skipped_regions: outcome.skipped_regions,
            functions_with_parse_errors: outcome.functions_with_parse_errors,
            findings_on_broken_code: outcome.findings_on_broken_code,
        }
    }

    /// `None` when a rule of the entry is unknown to this build.
    fn into_outcome(self) -> Option<FileOutcome> {
        let diagnostics = self
            .diagnostics
            .into_iter()
            .map(|d| {
                let rule = crate::lints::find(&d.rule)?.name;
                Some(Diagnostic {
                    rule,
                    severity: d.severity,
                    span: d.span.0..d.span.1,
                    message: d.message,
                    labels: d
                        .labels
                        .into_iter()
                        .map(|(s, message)| Label {
                            span: s.0..s.1,
                            message,
                        })
                        .collect(),
                    help: d.help,
                    fix: d.fix.map(|(title, edits, safe)| Fix {
                        title,
                        edits: edits
                            .into_iter()
                            .map(|(s, replacement)| Edit {
                                span: s.0..s.1,
                                replacement,
                            })
                            .collect(),
                        safe,
                    }),
                    verification: None,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(FileOutcome {
            diagnostics,
            skipped_regions: self.skipped_regions,
            functions_with_parse_errors: self.functions_with_parse_errors,
            findings_on_broken_code: self.findings_on_broken_code,
            ..FileOutcome::default()
        })
    }
}
