//! The project index: what each file tells the others. A kernel in a header is launched from a
//! `.cu`; a grid is computed by a helper defined in a shared header. Each file's model records
//! what it offers (`FileIndex`: launch sites, kernels, rounding helpers) and which names it
//! looked up without finding them in the file (`Lookups`); the run merges the offers into one
//! `ProjectIndex` and lints again only the files whose lookups another file answers.

use super::helpers::HelperSummary;
use super::launch::{GridAxis, LaunchSite, RoundingHelper};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// What one file offers the others. Owned: it outlives the file's tree.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileIndex {
    pub path: PathBuf,
    pub launches: Vec<LaunchSite>,
    /// Functions with a visible body whose shape says whether they round a division up.
    pub rounding_helpers: Vec<(String, usize, RoundingHelper)>,
    /// `#include "..."` targets, as written.
    pub includes: Vec<String>,
    /// `#include <...>` targets, as written: a project header named from the project's root
    /// (`<proj/Map.hpp>`) is included as surely as a quoted one.
    pub angle_includes: Vec<String>,
    /// Summaries of its `__device__` functions.
    pub device_functions: Vec<HelperSummary>,
    /// The kernels it defines (a body, not a declaration).
    pub kernels: Vec<String>,
    /// The kernels it declares without a body: a file that includes it and launches one calls
    /// whichever definition the program links.
    pub declared_kernels: Vec<String>,
    /// Its host functions whose error handling matters to their callers: those that leave a
    /// launch error unchecked, check the last error for their callers, or return an error code.
    pub error_functions: Vec<ErrorSummary>,
    /// Its calls of functions that another file may define, and of its own functions that lead
    /// to such calls, with whether a check follows each.
    pub error_calls: Vec<CallSite>,
    /// What each member named as a block count holds where the file assigns it (a settings
    /// object's `gridDim`, set in its init method).
    pub member_grids: Vec<(String, GridAxis)>,
}

/// How a function that checks the last error for its callers hands the result over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckHelper {
    /// It reports the error itself (prints, aborts, throws): every call is a check.
    Reports,
    /// It returns the error: a call is a check when its result is tested.
    Returns,
}

/// A host function's error handling, as its callers in other files see it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ErrorSummary {
    pub name: String,
    pub arity: usize,
    /// Launches (kernel, line) whose error it leaves for its callers to check.
    pub pending: Vec<(String, usize)>,
    pub check_helper: Option<CheckHelper>,
    /// CUDA calls (name, line) whose error code it returns.
    pub returned: Vec<(String, usize)>,
    /// Its declared result is `void`.
    pub returns_void: bool,
}

/// Most steps a call site lists after it.
pub const MAX_STEPS: usize = 32;

/// What runs after a call in its caller.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Step {
    /// A last-error check.
    Check,
    /// A call of a function of another file.
    Call {
        callee: String,
        arity: usize,
        /// Its result is tested (a check helper returning the error checks then).
        result_tested: bool,
        /// A configured check: it checks whatever it calls.
        configured: bool,
        /// It checks when no file defines it: a macro querying the last error, or a check
        /// given only literals.
        checks_undefined: bool,
    },
    /// More than `MAX_STEPS`: anything may follow.
    More,
}

/// One call of a host function, as the callee's file sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CallSite {
    pub callee: String,
    pub arity: usize,
    /// The calling function.
    pub caller: String,
    pub caller_arity: usize,
    pub line: usize,
    /// What can run after it in the caller, in order, up to the first launch of the caller's
    /// own (or call of its own functions that may launch): last-error checks, and calls of
    /// functions the caller's file does not define (which may launch or check). At most
    /// `MAX_STEPS`; a longer list ends with `Step::More`.
    pub following: Vec<Step>,
    /// A launch of the caller's own follows the steps.
    pub launch_follows: bool,
    /// It is passed to a check (`CHECK(f(...))`).
    pub wrapped: bool,
    /// The calling function's declared result is `void`.
    pub caller_returns_void: bool,
    /// Its result is tested.
    pub result_checked: bool,
    /// Its result is returned to the caller's callers.
    pub returned: bool,
}

/// Names a file's model looked up outside the file: the facts it was built with would change if
/// another file defined them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lookups {
    /// Kernels defined in the file: their launches elsewhere change the kernel's facts.
    pub launched_kernels: Vec<String>,
    /// Functions called (grid helpers, device functions) that the file does not define.
    pub functions: Vec<String>,
    /// Host functions called that the file does not define: another file's may launch, check
    /// or return an error code.
    pub callees: Vec<String>,
    /// Host functions of the file whose error handling depends on their callers.
    pub called: Vec<String>,
}

impl Lookups {
    /// The lookups that matter to the rules a file runs: the error flow's only when an
    /// error-handling rule reads it.
    pub fn for_rules(&self, error_handling: bool) -> std::borrow::Cow<'_, Lookups> {
        if error_handling || (self.callees.is_empty() && self.called.is_empty()) {
            return std::borrow::Cow::Borrowed(self);
        }
        std::borrow::Cow::Owned(Lookups {
            callees: Vec::new(),
            called: Vec::new(),
            ..self.clone()
        })
    }
}

/// A launch or a helper in one file reaches a kernel or a caller in another only where the
/// compiler would see one from the other: the file that uses a name includes (directly or
/// through other headers) the file that defines it. Two programs of one repository that both
/// define `saxpy` do not lend each other their launches. A kernel is also launched across
/// translation units, through a declaration (`kernel.cu` defines it, `main.cu` launches it): a
/// launch reaches a kernel defined in another file of its own folder when no other file of
/// that folder defines a kernel of that name (the program the linker builds from the folder),
/// or in a file of another folder that includes a header the launching file includes too, when
/// no other such file defines one (`kernels/softmax.cu` and `model/decoder.cu` both include
/// `kernels/softmax.h`).
#[derive(Debug, Default)]
pub struct ProjectIndex {
    files: Vec<FileIndex>,
    /// Per file (same order), the files of the index it includes, transitively, itself too.
    sees: Vec<HashSet<usize>>,
    /// Per file (same order), the headers its quoted includes name, found on disk or not in
    /// the index.
    included: Vec<HashSet<PathBuf>>,
    by_path: HashMap<PathBuf, usize>,
    launches: HashMap<String, Vec<(usize, usize)>>,
    rounding: HashMap<String, Vec<(usize, usize)>>,
    device: HashMap<String, Vec<(usize, usize)>>,
    /// Per member named as a block count, the files assigning it (file, position).
    member_grids: HashMap<String, Vec<(usize, usize)>>,
    /// Per kernel name, the files defining one.
    kernels: HashMap<String, Vec<usize>>,
    /// Per kernel name, the files declaring one without a body.
    declarations: HashMap<String, Vec<usize>>,
    error_functions: HashMap<String, Vec<(usize, usize)>>,
    /// Call sites by the name called.
    error_calls: HashMap<String, Vec<(usize, usize)>>,
    /// Each file's path as the file system names it (what `included` holds).
    identities: Vec<PathBuf>,
}

impl ProjectIndex {
    pub fn new(files: Vec<FileIndex>) -> ProjectIndex {
        let mut index = ProjectIndex::default();
        for file in files {
            index.add(file);
        }
        index.link_includes();
        index
    }

    /// The files of the index, in the order they were given.
    pub fn into_files(self) -> Vec<FileIndex> {
        self.files
    }

    /// Whether a launch of the file at `path` takes its grid from a host helper another file
    /// defines as a rounding one (`countBlocks` defined in `init.cu`, called in `main.cu` to
    /// launch a kernel of `kernels.cu`): its launches read again with the index round up.
    pub fn rounds_grids_of(&self, path: &Path, lookups: &Lookups) -> bool {
        let Some(&user) = self.by_path.get(path) else {
            return false;
        };
        if self
            .files
            .get(user)
            .is_none_or(|file| file.launches.is_empty())
        {
            return false;
        }
        lookups.functions.iter().any(|name| {
            self.rounding.get(name).is_some_and(|definers| {
                self.helpers_reaching(user, definers)
                    .iter()
                    .any(|&definer| {
                        definer != user
                            && definers.iter().any(|&(at, position)| {
                                at == definer
                                    && self.files.get(at).is_some_and(|file| {
                                        matches!(
                                            file.rounding_helpers.get(position),
                                            Some((_, _, RoundingHelper::RoundsUp { .. }))
                                        )
                                    })
                            })
                    })
            })
        })
    }

    /// Resolves each file's quoted includes (and `<...>` ones naming a project header) among the index's files and closes them.
    fn link_includes(&mut self) {
        let identity =
            |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.identities = self.files.iter().map(|file| identity(&file.path)).collect();
        let by_identity: HashMap<PathBuf, usize> = self
            .identities
            .iter()
            .enumerate()
            .map(|(at, path)| (path.clone(), at))
            .collect();
        self.included = self
            .files
            .iter()
            .map(|file| {
                let build_dirs = file
                    .path
                    .parent()
                    .map(build_include_dirs)
                    .unwrap_or_default();
                let in_build = |target: &String| in_build_dirs(target, &build_dirs);
                file.includes
                    .iter()
                    .filter_map(|target| {
                        resolve_include(&file.path, target).or_else(|| in_build(target))
                    })
                    .chain(file.angle_includes.iter().filter_map(|target| {
                        resolve_angle_include(&file.path, target).or_else(|| in_build(target))
                    }))
                    .map(|header| identity(&header))
                    .collect()
            })
            .collect();
        let direct: Vec<Vec<usize>> = self
            .included
            .iter()
            .map(|headers| {
                headers
                    .iter()
                    .filter_map(|header| by_identity.get(header).copied())
                    .collect()
            })
            .collect();
        self.sees = (0..self.files.len())
            .map(|start| {
                let mut seen = HashSet::default();
                let mut stack = vec![start];
                while let Some(at) = stack.pop() {
                    if seen.insert(at) {
                        stack.extend(direct.get(at).into_iter().flatten().copied());
                    }
                }
                seen
            })
            .collect();
        self.by_path = self
            .files
            .iter()
            .enumerate()
            .map(|(at, file)| (file.path.clone(), at))
            .collect();
    }

    /// Whether file `user` sees what file `definer` defines; a path not in the index (a file
    /// linted on its own whose index holds only its headers) sees every file of it.
    fn sees(&self, user: &Path, definer: usize) -> bool {
        match self.by_path.get(user) {
            Some(&at) => self.sees.get(at).is_some_and(|s| s.contains(&definer)),
            None => true,
        }
    }

    /// Whether the file at `launcher` sees the file `definer` (by path).
    fn path_sees(&self, launcher: usize, definer: &Path) -> bool {
        match self.by_path.get(definer) {
            Some(&at) => self.sees.get(launcher).is_some_and(|s| s.contains(&at)),
            None => true,
        }
    }

    /// Whether a launch of `kernel` in the file at `launcher` reaches its definition in
    /// `definer`: through an include, as the only definition of that name in the launcher's
    /// folder, or as the only one in a file that includes a header the launcher includes too.
    fn launch_reaches(&self, launcher: usize, kernel: &str, definer: &Path) -> bool {
        if self.path_sees(launcher, definer) {
            return true;
        }
        let Some(launching) = self.files.get(launcher) else {
            return false;
        };
        if self.declared_together(launcher, kernel, definer)
            || self.declared_for_both(launcher, kernel, definer)
            || self.declared_by_companion(launcher, kernel, definer)
        {
            return true;
        }
        let folder = launching.path.parent();
        if definer.parent() != folder {
            return false;
        }
        let mut in_folder = self
            .kernels
            .get(kernel)
            .into_iter()
            .flatten()
            .filter_map(|&at| self.files.get(at))
            .filter(|file| file.path.parent() == folder);
        matches!(
            (in_folder.next(), in_folder.next()),
            (Some(only), None) if only.path == definer
        )
    }

    /// A header the launcher includes declares the kernel and the definer includes it too: the
    /// launch calls whichever definition the program links, so it reaches each file that
    /// defines the declared kernel (`lstm_pointwise.cu` and `slstm_pointwise.cu`, one built at
    /// a time), unless the launcher itself sees a definition.
    fn declared_for_both(&self, launcher: usize, kernel: &str, definer: &Path) -> bool {
        let Some(definer_sees) = self.by_path.get(definer).and_then(|&at| self.sees.get(at)) else {
            return false;
        };
        self.declarations_seen(launcher, kernel)
            .iter()
            .any(|at| definer_sees.contains(at))
    }

    /// The files declaring `kernel` that the launcher sees, when it sees no definition of it (a
    /// launch that sees one calls that one).
    fn declarations_seen(&self, launcher: usize, kernel: &str) -> Vec<usize> {
        let Some(launcher_sees) = self.sees.get(launcher) else {
            return Vec::new();
        };
        let mut defines = self.kernels.get(kernel).into_iter().flatten();
        if defines.any(|at| launcher_sees.contains(at)) {
            return Vec::new();
        }
        self.declarations
            .get(kernel)
            .into_iter()
            .flatten()
            .copied()
            .filter(|at| launcher_sees.contains(at))
            .collect()
    }

    /// The launcher sees the kernel declared in the definer's own header (`cuda/ms.h` beside
    /// `cuda/ms.cu`, same name), which the definer need not include: the linker joins the
    /// declaration to the definition by name. Unless the launcher sees a definition itself.
    fn declared_by_companion(&self, launcher: usize, kernel: &str, definer: &Path) -> bool {
        self.declarations_seen(launcher, kernel)
            .into_iter()
            .filter_map(|at| self.files.get(at))
            .any(|header| {
                header.path.parent() == definer.parent()
                    && header.path.file_stem() == definer.file_stem()
                    && header.path != definer
            })
    }

    /// The files among `definers` (those defining a host helper of one name) whose definition a
    /// call in the file at `user` reaches: those the user sees through includes, and the one
    /// file defining the name among those in the user's folder or those sharing an included
    /// header with the user, when there is one (separate compilation: `init.cuh` declares `countBlocks`, `init.cu`
    /// defines it, `main.cu` includes the header and calls it).
    fn helpers_reaching(&self, user: usize, definers: &[(usize, usize)]) -> Vec<usize> {
        let sees = self.sees.get(user);
        let mut reaching: Vec<usize> = definers
            .iter()
            .map(|&(at, _)| at)
            .filter(|at| sees.is_some_and(|s| s.contains(at)))
            .collect();
        let (Some(using), Some(headers)) = (self.files.get(user), self.included.get(user)) else {
            return reaching;
        };
        let mut linked: Vec<usize> = definers
            .iter()
            .map(|&(at, _)| at)
            .filter(|&at| {
                at != user
                    && (self.files.get(at).map(|f| f.path.parent()) == Some(using.path.parent())
                        || self
                            .included
                            .get(at)
                            .is_some_and(|theirs| !theirs.is_disjoint(headers)))
            })
            .collect();
        linked.sort_unstable();
        linked.dedup();
        if let [only] = linked.as_slice() {
            reaching.push(*only);
        }
        reaching
    }

    /// Separate compilation of a device function: `utils.h` declares it, `utils.cu` includes the
    /// header and defines it, and the caller includes the header too. The call reaches
    /// `definer` when it is the one file defining a device function of that name among those
    /// sharing an included header with the caller.
    fn device_function_declared_together(&self, caller: usize, name: &str, definer: usize) -> bool {
        let Some(headers) = self.included.get(caller) else {
            return false;
        };
        let mut sharing: Vec<usize> = self
            .device
            .get(name)
            .into_iter()
            .flatten()
            .map(|&(at, _)| at)
            .filter(|&at| {
                at != caller
                    && self
                        .included
                        .get(at)
                        .is_some_and(|theirs| !theirs.is_disjoint(headers))
            })
            .collect();
        sharing.dedup();
        sharing == [definer]
    }

    /// Separate compilation: `kernels.h` declares the kernel, `kernels.cu` includes it and
    /// defines the kernel, `model.cu` (or `kernels.h` itself) includes it and launches the kernel. The launch reaches
    /// `definer` when it is the one file defining a kernel of that name among those that share
    /// an included header with the launcher (a project holding two copies of its kernels, each
    /// with its own header, launches each copy through its own).
    fn declared_together(&self, launcher: usize, kernel: &str, definer: &Path) -> bool {
        let (Some(headers), Some(itself)) =
            (self.included.get(launcher), self.identities.get(launcher))
        else {
            return false;
        };
        // a header that declares the kernel and launches it (`norm.h`, its launcher a template)
        // shares itself with the files that include it (`norm.cu` defines the kernel's
        // specializations)
        let mut sharing = self
            .kernels
            .get(kernel)
            .into_iter()
            .flatten()
            .filter(|&&at| {
                self.included
                    .get(at)
                    .is_some_and(|theirs| !theirs.is_disjoint(headers) || theirs.contains(itself))
            })
            .filter_map(|&at| self.files.get(at));
        matches!(
            (sharing.next(), sharing.next()),
            (Some(only), None) if only.path == definer
        )
    }

    fn add(&mut self, file: FileIndex) {
        let at = self.files.len();
        for (position, launch) in file.launches.iter().enumerate() {
            self.launches
                .entry(launch.kernel.clone())
                .or_default()
                .push((at, position));
        }
        for (position, (name, _, _)) in file.rounding_helpers.iter().enumerate() {
            self.rounding
                .entry(name.clone())
                .or_default()
                .push((at, position));
        }
        for kernel in &file.kernels {
            let definers = self.kernels.entry(kernel.clone()).or_default();
            if !definers.contains(&at) {
                definers.push(at);
            }
        }
        for kernel in &file.declared_kernels {
            self.declarations
                .entry(kernel.clone())
                .or_default()
                .push(at);
        }
        for (position, summary) in file.error_functions.iter().enumerate() {
            self.error_functions
                .entry(summary.name.clone())
                .or_default()
                .push((at, position));
        }
        for (position, site) in file.error_calls.iter().enumerate() {
            self.error_calls
                .entry(site.callee.clone())
                .or_default()
                .push((at, position));
        }
        for (position, (member, _)) in file.member_grids.iter().enumerate() {
            self.member_grids
                .entry(member.clone())
                .or_default()
                .push((at, position));
        }
        for (position, summary) in file.device_functions.iter().enumerate() {
            self.device
                .entry(summary.name.clone())
                .or_default()
                .push((at, position));
        }
        self.files.push(file);
    }

    /// The index of a run that sees no other file.
    pub fn empty() -> &'static ProjectIndex {
        static EMPTY: std::sync::OnceLock<ProjectIndex> = std::sync::OnceLock::new();
        EMPTY.get_or_init(ProjectIndex::default)
    }

    /// Whether any file of the run other than `except` launches a kernel named `kernel`, whether
    /// or not the index sees how its file reaches the definition (a header may include both).
    pub fn launched_elsewhere(&self, kernel: &str, except: &Path) -> bool {
        self.launches
            .get(kernel)
            .into_iter()
            .flatten()
            .any(|&(at, _)| self.files.get(at).is_some_and(|file| file.path != except))
    }

    /// Launches of `kernel` with `arity` arguments (or through `cudaLaunchKernel`) in files other
    /// than `except`.
    pub fn launches_of<'a>(
        &'a self,
        kernel: &'a str,
        except: &'a Path,
    ) -> impl Iterator<Item = &'a LaunchSite> + 'a {
        self.launches
            .get(kernel)
            .into_iter()
            .flatten()
            .filter_map(move |&(at, position)| {
                let file = self.files.get(at)?;
                if file.path == except || !self.launch_reaches(at, kernel, except) {
                    return None;
                }
                file.launches.get(position)
            })
    }

    /// The launches of `kernel` that reach another definition of it, when `definer` is a header
    /// no file of the run includes (an old copy kept beside the one in use, `Kernel_v1.cuh`
    /// beside `Kernel.cuh`): the copy is the same kernel, launched as the build launches the
    /// one it compiles. Nothing for a `.cu` file, which builds on its own, or a header some file
    /// includes, even by a name the index could not resolve.
    pub fn launches_of_copies<'a>(
        &'a self,
        kernel: &'a str,
        definer: &'a Path,
    ) -> Vec<&'a LaunchSite> {
        let is_header = definer
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "cuh" | "h" | "hpp" | "hxx" | "inl"));
        let Some(&at) = self.by_path.get(definer) else {
            return Vec::new();
        };
        if !is_header {
            return Vec::new();
        }
        // the other definitions of the name: most kernels have none, and are done here
        let twins: Vec<&Path> = self
            .kernels
            .get(kernel)
            .into_iter()
            .flatten()
            .filter(|&&other| other != at)
            .filter_map(|&other| self.files.get(other).map(|f| f.path.as_path()))
            .collect();
        if twins.is_empty() {
            return Vec::new();
        }
        let file_name = definer.file_name();
        let included = self
            .sees
            .iter()
            .enumerate()
            .any(|(user, seen)| user != at && seen.contains(&at))
            || self.files.iter().any(|file| {
                file.includes
                    .iter()
                    .chain(&file.angle_includes)
                    .any(|target| Path::new(target).file_name() == file_name)
            });
        if included {
            return Vec::new();
        }
        self.launches
            .get(kernel)
            .into_iter()
            .flatten()
            .filter_map(|&(launcher, position)| {
                let file = self.files.get(launcher)?;
                twins
                    .iter()
                    .any(|twin| self.launch_reaches(launcher, kernel, twin))
                    .then(|| file.launches.get(position))
                    .flatten()
            })
            .collect()
    }

    /// A rounding helper of that name and arity defined in a file other than `except`.
    pub fn rounding_helper(
        &self,
        name: &str,
        arity: usize,
        except: &Path,
    ) -> Option<RoundingHelper> {
        let definers = self.rounding.get(name)?;
        let reaching = self
            .by_path
            .get(except)
            .map(|&user| self.helpers_reaching(user, definers));
        definers.iter().find_map(|&(at, position)| {
            let file = self.files.get(at)?;
            if file.path == except || reaching.as_ref().is_some_and(|r| !r.contains(&at)) {
                return None;
            }
            let (_, helper_arity, helper) = file.rounding_helpers.get(position)?;
            (*helper_arity == arity).then_some(*helper)
        })
    }

    /// What the member `member` holds as a grid axis, joined over the files other than `user`
    /// that `user` sees and that assign it; None when none does.
    pub fn member_grid(&self, member: &str, user: &Path) -> Option<GridAxis> {
        self.member_grids
            .get(member)?
            .iter()
            .filter(|&&(at, _)| {
                self.files.get(at).is_some_and(|f| f.path != user) && self.sees(user, at)
            })
            .filter_map(|&(at, position)| {
                let (_, axis) = self.files.get(at)?.member_grids.get(position)?;
                Some(axis.clone())
            })
            .reduce(super::launch::join_grids)
    }

    pub fn offers_device_functions(&self) -> bool {
        !self.device.is_empty()
    }

    /// The device functions called `name` summarised in files other than `except`, with their
    /// file; a name defined in several files with one arity is left out (which one the
    /// compiler links is not known).
    pub fn device_functions_named<'a>(
        &'a self,
        name: &str,
        except: &'a Path,
    ) -> Vec<(&'a Path, &'a HelperSummary)> {
        let found: Vec<(&Path, &HelperSummary)> = self
            .device
            .get(name)
            .into_iter()
            .flatten()
            .filter_map(|&(at, position)| {
                let file = self.files.get(at)?;
                let linked = self.sees(except, at)
                    || self.by_path.get(except).is_some_and(|&caller| {
                        self.device_function_declared_together(caller, name, at)
                    });
                if file.path == except || !linked {
                    return None;
                }
                Some((file.path.as_path(), file.device_functions.get(position)?))
            })
            .collect();
        found
            .iter()
            .filter(|(_, s)| found.iter().filter(|(_, o)| o.arity == s.arity).count() == 1)
            .copied()
            .collect()
    }

    /// Whether a call of host function `name` in the file at `caller` reaches its definition in
    /// the file at `definer`: the caller sees the definer through includes, or both share a
    /// folder that no other file defining the name shares (the linker joins them).
    fn call_reaches(&self, caller: usize, name: &str, definer: usize) -> bool {
        if caller == definer || self.sees.get(caller).is_some_and(|s| s.contains(&definer)) {
            return true;
        }
        let (Some(calling), Some(defining)) = (self.files.get(caller), self.files.get(definer))
        else {
            return false;
        };
        let folder = calling.path.parent();
        if defining.path.parent() != folder {
            return false;
        }
        let mut in_folder = self
            .error_functions
            .get(name)
            .into_iter()
            .flatten()
            .map(|&(at, _)| at)
            .filter(|&at| {
                self.files
                    .get(at)
                    .is_some_and(|f| f.path.parent() == folder)
            });
        let first = in_folder.next();
        first == Some(definer) && in_folder.all(|at| at == definer)
    }

    /// The host functions called `name` that a call with `arity` arguments in the file `from`
    /// reaches, defined in files other than `from`, with their file. A definition with more
    /// parameters serves when none has exactly `arity` (default arguments).
    pub fn error_functions<'a>(
        &'a self,
        name: &str,
        arity: usize,
        from: &Path,
    ) -> Vec<(&'a Path, &'a ErrorSummary)> {
        let from_at = self.by_path.get(from).copied();
        let reached: Vec<(&Path, &ErrorSummary)> = self
            .error_functions
            .get(name)
            .into_iter()
            .flatten()
            .filter_map(|&(at, position)| {
                let file = self.files.get(at)?;
                if file.path == from {
                    return None;
                }
                let reaches = match from_at {
                    Some(caller) => self.call_reaches(caller, name, at),
                    None => true,
                };
                reaches.then_some((file.path.as_path(), file.error_functions.get(position)?))
            })
            .collect();
        let exact: Vec<_> = reached
            .iter()
            .filter(|(_, s)| s.arity == arity)
            .copied()
            .collect();
        if !exact.is_empty() {
            return exact;
        }
        reached
            .into_iter()
            .filter(|(_, s)| s.arity > arity)
            .collect()
    }

    /// The calls of host function `name` (defined with `arity` parameters in the file
    /// `definer`) that reach it, in every file of the index, the definer's own included.
    pub fn callers<'a>(
        &'a self,
        name: &str,
        arity: usize,
        definer: &Path,
    ) -> Vec<(&'a Path, &'a CallSite)> {
        let definer_at = self.by_path.get(definer).copied();
        self.error_calls
            .get(name)
            .into_iter()
            .flatten()
            .filter_map(|&(at, position)| {
                let file = self.files.get(at)?;
                let site = file.error_calls.get(position)?;
                if site.arity > arity {
                    return None;
                }
                let reaches = match definer_at {
                    Some(definer) => self.call_reaches(at, name, definer),
                    None => file.path == definer,
                };
                reaches.then_some((file.path.as_path(), site))
            })
            .collect()
    }

    /// Whether another file answers something `lookups` (made by the file `path`) asked for.
    pub fn answers(&self, path: &Path, lookups: &Lookups) -> bool {
        let launched_here = |kernel: &str| {
            self.launches
                .get(kernel)
                .into_iter()
                .flatten()
                .any(|&(at, _)| {
                    self.files.get(at).is_some_and(|f| f.path != path)
                        && self.launch_reaches(at, kernel, path)
                })
        };
        let defined_for_it = |entries: Option<&Vec<(usize, usize)>>| {
            entries.into_iter().flatten().any(|&(at, _)| {
                self.files.get(at).is_some_and(|f| f.path != path) && self.sees(path, at)
            })
        };
        let at = self.by_path.get(path).copied();
        let defined_elsewhere = |name: &str| {
            self.error_functions
                .get(name)
                .into_iter()
                .flatten()
                .any(|&(definer, _)| {
                    self.files.get(definer).is_some_and(|f| f.path != path)
                        && at.is_none_or(|caller| self.call_reaches(caller, name, definer))
                })
        };
        let called_elsewhere = |name: &str| {
            self.error_calls
                .get(name)
                .into_iter()
                .flatten()
                .any(|&(caller, _)| {
                    self.files.get(caller).is_some_and(|f| f.path != path)
                        && at.is_some_and(|definer| self.call_reaches(caller, name, definer))
                })
        };
        lookups.callees.iter().any(|name| defined_elsewhere(name))
            || lookups.called.iter().any(|name| called_elsewhere(name))
            || lookups.launched_kernels.iter().any(|kernel| {
                launched_here(kernel) || !self.launches_of_copies(kernel, path).is_empty()
            })
            || lookups.functions.iter().any(|name| {
                self.rounding.get(name).is_some_and(|definers| {
                    let reaching = at.map(|user| self.helpers_reaching(user, definers));
                    definers.iter().any(|&(definer, _)| {
                        self.files.get(definer).is_some_and(|f| f.path != path)
                            && reaching.as_ref().is_none_or(|r| r.contains(&definer))
                    })
                }) || !self.device_functions_named(name, path).is_empty()
                    || defined_for_it(self.member_grids.get(name))
            })
    }
}

/// The header `target` in the first of the build's include folders that holds it.
pub fn in_build_dirs(target: &str, build_dirs: &[PathBuf]) -> Option<PathBuf> {
    build_dirs
        .iter()
        .map(|dir| dir.join(target))
        .find(|candidate| candidate.is_file())
        .map(tidy)
}

/// The build files whose include paths `build_include_dirs` reads, in a folder or those above.
pub const BUILD_FILES: [&str; 2] = ["Makefile", "CMakeLists.txt"];

/// The include paths the build files of `folder` give its sources (`-I../common` in a `Makefile`,
/// `include_directories(...)` in a `CMakeLists.txt` or in those of the folders above that add it),
/// read once per folder: a header found only
/// through them (the shared code of a HIP port in its CUDA twin's folder) is the one compiled.
pub fn build_include_dirs(folder: &Path) -> Arc<Vec<PathBuf>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<Vec<PathBuf>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(dirs) = cache.lock().ok().and_then(|c| c.get(folder).cloned()) {
        return dirs;
    }
    let mut dirs = crate::verify::context::from_build_files(folder).include_dirs;
    // `include_directories` holds for the folders `add_subdirectory` adds below: a folder with
    // its own list inherits those of the lists above it, across folders with none between. A
    // folder without one has its sources
    // listed by the nearest list above it (`add_library(k kernel/add.cu)`), whose paths hold
    let mut child = folder;
    let mut listed_from_above = !folder.join("CMakeLists.txt").is_file();
    for _ in 0..8 {
        let Some(parent) = child.parent() else { break };
        let parent_lists = parent.join("CMakeLists.txt").is_file();
        if listed_from_above {
            listed_from_above = !parent_lists;
            if !parent_lists {
                child = parent;
                continue;
            }
        } else if !parent_lists {
            // `add_subdirectory(dnn/cuda)` adds a folder two levels down
            child = parent;
            continue;
        }
        for dir in crate::verify::context::cmake_include_dirs(parent) {
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        child = parent;
    }
    let dirs = Arc::new(dirs);
    if let Ok(mut cache) = cache.lock() {
        cache.insert(folder.to_path_buf(), dirs.clone());
    }
    dirs
}

/// The file a quoted `#include` names, looked for beside the including file, then in `include/`
/// or `includes/` folders of its ancestors (the usual layouts of a project's headers), then, for
/// a target with a folder in it, from the ancestors themselves: `#include
/// "pkg/include/norm.h"` in `pkg/src/norm.cu` names a path from the project's root, which its
/// build puts on the include path (`-I.`, `include_directories(${PROJECT_SOURCE_DIR})`).
pub fn resolve_include(from: &Path, target: &str) -> Option<PathBuf> {
    resolve_include_as_joined(from, target).map(tidy)
}

/// A header's path as found by joining folders and targets, named as findings show it: without
/// `.` components and with `..` taken back (`lexically_clean`), where that names the same file.
fn tidy(joined: PathBuf) -> PathBuf {
    let clean = lexically_clean(&joined);
    // paths compare by components, which skip an inner `.`: the text is what is shown
    if clean.as_os_str() == joined.as_os_str() {
        return joined;
    }
    // through a folder that is a link, `..` leaves the link's target, not its folder
    let same = |a: &Path, b: &Path| matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b);
    if same(&clean, &joined) {
        clean
    } else {
        joined
    }
}

/// The path without its `.` components and with each `..` taken back against the folder before
/// it (`./src/../include/./set.h` is `include/set.h`), as findings name it; a leading `..` is
/// kept. Which file it is does not change where no folder on the way is a link.
fn lexically_clean(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut clean = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let last = clean.components().next_back();
                if matches!(last, Some(Component::Normal(_))) {
                    clean.pop();
                } else {
                    clean.push("..");
                }
            }
            other => clean.push(other),
        }
    }
    if clean.as_os_str().is_empty() {
        clean.push(".");
    }
    clean
}

fn resolve_include_as_joined(from: &Path, target: &str) -> Option<PathBuf> {
    let directory = from.parent()?;
    let beside = directory.join(target);
    if beside.is_file() {
        return Some(beside);
    }
    for ancestor in directory.ancestors().take(4) {
        for folder in ["include", "includes"] {
            let candidate = ancestor.join(folder).join(target);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    // `include/<project>/` put on the include path itself (`-Iinclude/cuSZp`), as a project that
    // installs its headers in a folder of its name does: taken only where one such folder holds
    // the file, since two would leave the choice to a build the analysis does not see
    if !target.contains('/') {
        for ancestor in directory.ancestors().take(4) {
            let mut found = ["include", "includes"]
                .iter()
                .filter_map(|folder| std::fs::read_dir(ancestor.join(folder)).ok())
                .flatten()
                .filter_map(Result::ok)
                .map(|entry| entry.path().join(target))
                .filter(|candidate| candidate.is_file());
            if let Some(first) = found.next() {
                return found.next().is_none().then_some(first);
            }
        }
    }
    if target.starts_with("../") {
        return None;
    }
    if target.contains('/') {
        let from_root = directory
            .ancestors()
            .skip(1)
            .take(MAX_ROOT_LEVELS)
            .map(|ancestor| ancestor.join(target))
            .find(|candidate| candidate.is_file());
        if from_root.is_some() {
            return from_root;
        }
    }
    in_a_neighbouring_folder(directory, target)
}

/// A header in a folder inside the including file's folder, beside it or beside one of the two
/// folders above it, of whatever name, put on the include path by a build the analysis does not
/// see (`src/headers/` with `-Isrc/headers` for `src/ESP/driver.cu`), or in a folder inside one of
/// those (`csrc/megakernel/` for `experiments/optimizations/decode/kernel.cu`, passed by a Python
/// build script): the nearest level with such a folder decides, the folders beside before those
/// inside them, and only where one folder holds the header.
fn in_a_neighbouring_folder(directory: &Path, target: &str) -> Option<PathBuf> {
    type Found = Mutex<HashMap<(PathBuf, String), Option<PathBuf>>>;
    static CACHE: OnceLock<Found> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (directory.to_path_buf(), target.to_string());
    if let Some(known) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return known;
    }
    let folders_in = |folder: &Path| -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return Vec::new();
        };
        entries
            .filter_map(Result::ok)
            .filter(|entry| {
                !entry.file_name().to_string_lossy().starts_with('.')
                    && entry.file_type().is_ok_and(|kind| kind.is_dir())
            })
            .map(|entry| entry.path())
            .collect()
    };
    // the only candidate, or None when several folders hold the header; Err when none does
    let only = |candidates: Vec<PathBuf>| -> Result<Option<PathBuf>, ()> {
        let mut found = candidates.into_iter().filter(|c| c.is_file());
        match (found.next(), found.next()) {
            (None, _) => Err(()),
            (Some(first), None) => Ok(Some(first)),
            (Some(_), Some(_)) => Ok(None),
        }
    };
    let mut resolved = None;
    for ancestor in directory.ancestors().take(NEIGHBOUR_LEVELS) {
        if std::fs::metadata(ancestor).is_err() {
            break;
        }
        let folders = folders_in(ancestor);
        if let Ok(found) = only(folders.iter().map(|f| f.join(target)).collect()) {
            resolved = found;
            break;
        }
        // a folder one further down (`csrc/megakernel/` beside `experiments/`, put on the
        // include path by a build script), for a header named without a folder, where the
        // level has few folders to look through
        if target.contains('/') || folders.len() > MAX_NEIGHBOUR_FOLDERS {
            continue;
        }
        let deeper: Vec<PathBuf> = folders
            .iter()
            .flat_map(|folder| folders_in(folder))
            .map(|inner| inner.join(target))
            .collect();
        if let Ok(found) = only(deeper) {
            resolved = found;
            break;
        }
    }
    if let Ok(mut cache) = cache.lock() {
        cache.insert(key, resolved.clone());
    }
    resolved
}

/// How many levels, from the including file's folder up, `in_a_neighbouring_folder` looks at.
const NEIGHBOUR_LEVELS: usize = 4;

/// A level with more folders than this is not looked through two deep.
const MAX_NEIGHBOUR_FOLDERS: usize = 64;

/// How many folders above an including file a path written from the project's root is looked
/// for (`src/turbomind/kernels/x.cu` including `src/turbomind/utils/y.h` climbs three).
const MAX_ROOT_LEVELS: usize = 8;

/// The `#include <...>` targets of a text.
pub fn angle_includes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix('#')?;
            let rest = rest.trim_start().strip_prefix("include")?.trim_start();
            let bracketed = rest.strip_prefix('<')?;
            let end = bracketed.find('>')?;
            Some(bracketed[..end].to_string())
        })
        .collect()
}

/// The project header an `#include <target>` names: in a folder above the including file, the
/// one a build's `-I.` at the project's root puts on the include path (`#include
/// <cuda_helper.h>` in `scrypt/kernel.cu`). A system header is in none of them.
pub fn resolve_angle_include(from: &Path, target: &str) -> Option<PathBuf> {
    if target.starts_with("../") {
        return None;
    }
    from.parent()?
        .ancestors()
        .skip(1)
        .take(MAX_ROOT_LEVELS)
        .map(|ancestor| ancestor.join(target))
        .find(|candidate| candidate.is_file())
        .map(tidy)
}

/// The quoted `#include` targets of a text.
pub fn quoted_includes(text: &str) -> Vec<String> {
    let mut includes = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(quoted) = rest.strip_prefix('"') {
            if let Some(end) = quoted.find('"') {
                includes.push(quoted[..end].to_string());
            }
        }
    }
    includes
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_include_path_is_named_without_its_dots() {
        use std::path::Path;
        let clean = |p: &str| super::lexically_clean(Path::new(p)).display().to_string();
        assert_eq!(clean("./src/../include/./set.h"), "include/set.h");
        assert_eq!(clean("./a/.."), ".");
        assert_eq!(clean("src/a/../../b.h"), "b.h");
        assert_eq!(clean("../x/./y.h"), "../x/y.h");
        assert_eq!(clean("/p/src/../inc/z.cuh"), "/p/inc/z.cuh");
    }

    use super::*;

    #[test]
    fn includes_resolve_in_the_one_project_folder_of_an_include_folder() {
        let root = tempfile::tempdir().expect("temporary folder");
        let root = root.path();
        for file in [
            "src/entry.cu",
            "include/cuSZp/kernels.h",
            "include/a/twice.h",
            "include/b/twice.h",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
            std::fs::write(&path, "").expect("file");
        }
        let from = root.join("src/entry.cu");
        // `-Iinclude/cuSZp`: the header is found in the one folder that holds it
        assert_eq!(
            resolve_include(&from, "kernels.h"),
            Some(root.join("include/cuSZp/kernels.h"))
        );
        // two folders hold it: which one the build puts first is not in sight
        assert_eq!(resolve_include(&from, "twice.h"), None);
    }

    #[test]
    fn a_launch_through_a_declaring_header_reaches_each_definition_that_includes_it() {
        let root = tempfile::tempdir().expect("temporary folder");
        let root = root.path();
        for file in [
            "pw.cuh",
            "forward.cu",
            "lstm.cu",
            "slstm.cu",
            "other.cu",
            "own.cu",
        ] {
            std::fs::write(root.join(file), "").expect("file");
        }
        let file = |name: &str, includes: &[&str], kernels: &[&str], declared: &[&str]| FileIndex {
            path: root.join(name),
            includes: includes.iter().map(|i| i.to_string()).collect(),
            kernels: kernels.iter().map(|k| k.to_string()).collect(),
            declared_kernels: declared.iter().map(|k| k.to_string()).collect(),
            ..FileIndex::default()
        };
        let index = ProjectIndex::new(vec![
            file("pw.cuh", &[], &[], &["pw"]),
            file("forward.cu", &["pw.cuh"], &[], &[]),
            file("lstm.cu", &["pw.cuh"], &["pw"], &[]),
            file("slstm.cu", &["pw.cuh"], &["pw"], &[]),
            // defines a kernel of the same name without the declaring header
            file("other.cu", &[], &["pw"], &[]),
            // sees the header and defines its own: its launches call that one
            file("own.cu", &["pw.cuh"], &["pw"], &[]),
        ]);
        let forward = 1;
        assert!(index.launch_reaches(forward, "pw", &root.join("lstm.cu")));
        assert!(index.launch_reaches(forward, "pw", &root.join("slstm.cu")));
        assert!(!index.launch_reaches(forward, "pw", &root.join("other.cu")));
        let own = 5;
        assert!(index.launch_reaches(own, "pw", &root.join("own.cu")));
        assert!(!index.launch_reaches(own, "pw", &root.join("lstm.cu")));
    }

    #[test]
    fn includes_resolve_beside_in_include_folders_and_from_the_root() {
        let root = tempfile::tempdir().expect("temporary folder");
        let root = root.path();
        for file in [
            "pkg/src/norm.cu",
            "pkg/src/local.h",
            "pkg/include/norm.h",
            "include/common.h",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
            std::fs::write(&path, "").expect("file");
        }
        let from = root.join("pkg/src/norm.cu");
        assert_eq!(
            resolve_include(&from, "local.h"),
            Some(root.join("pkg/src/local.h"))
        );
        assert_eq!(
            resolve_include(&from, "norm.h"),
            Some(root.join("pkg/include/norm.h"))
        );
        assert_eq!(
            resolve_include(&from, "common.h"),
            Some(root.join("include/common.h"))
        );
        // a path written from the project's root, as its build's include path has it
        assert_eq!(
            resolve_include(&from, "pkg/include/norm.h"),
            Some(root.join("pkg/include/norm.h"))
        );
        // a bare name is not looked for in every folder above, nor a path that climbs out
        assert_eq!(resolve_include(&from, "missing.h"), None);
        assert_eq!(resolve_include(&from, "../include/missing.h"), None);
    }
    #[test]
    fn includes_resolve_in_the_one_neighbouring_folder_that_holds_them() {
        let root = tempfile::tempdir().expect("temporary folder");
        let root = root.path();
        for file in [
            "src/ESP/driver.cu",
            "src/headers/esp.h",
            "src/headers/dyn/diff.h",
            "src/physics/util.h",
            "src/utils/util.h",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
            std::fs::write(&path, "").expect("file");
        }
        let from = root.join("src/ESP/driver.cu");
        // `-Isrc/headers` in a build out of sight
        assert_eq!(
            resolve_include(&from, "esp.h"),
            Some(root.join("src/headers/esp.h"))
        );
        assert_eq!(
            resolve_include(&from, "dyn/diff.h"),
            Some(root.join("src/headers/dyn/diff.h"))
        );
        // two folders beside hold it: the build's choice is not in sight
        assert_eq!(resolve_include(&from, "util.h"), None);
        assert_eq!(resolve_include(&from, "cuda_runtime.h"), None);
    }

    #[test]
    fn angle_includes_of_project_headers_link_files_and_system_headers_resolve_to_nothing() {
        let root = tempfile::tempdir().expect("temporary folder");
        let root = root.path();
        for file in ["proj/Map.cu", "proj/Map.hpp", "proj/kernels/Ops.hpp"] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
            std::fs::write(&path, "").expect("file");
        }
        let map_cu = root.join("proj/Map.cu");
        let map_hpp = root.join("proj/Map.hpp");
        let ops = root.join("proj/kernels/Ops.hpp");
        let text = "#include <proj/Map.hpp>\n  #  include <cuda_runtime.h>\n#include \"local.h\"\n";
        assert_eq!(
            angle_includes(text),
            vec!["proj/Map.hpp".to_string(), "cuda_runtime.h".to_string()]
        );
        // named from the project's root, which the build puts on the include path
        assert_eq!(
            resolve_angle_include(&map_cu, "proj/Map.hpp"),
            Some(map_hpp.clone())
        );
        assert_eq!(
            resolve_angle_include(&map_hpp, "proj/kernels/Ops.hpp"),
            Some(ops.clone())
        );
        // a system header is no file of the project: nothing to read
        assert_eq!(resolve_angle_include(&map_cu, "cuda_runtime.h"), None);
        assert_eq!(
            resolve_angle_include(&map_cu, "thrust/device_vector.h"),
            None
        );
        assert_eq!(resolve_angle_include(&map_cu, "../proj/Map.hpp"), None);
        // the launch in Map.hpp sees the kernel in Ops.hpp, and Map.cu sees both
        let index = ProjectIndex::new(vec![
            FileIndex {
                path: map_cu.clone(),
                angle_includes: angle_includes(text),
                ..FileIndex::default()
            },
            FileIndex {
                path: map_hpp.clone(),
                angle_includes: vec!["proj/kernels/Ops.hpp".to_string()],
                ..FileIndex::default()
            },
            FileIndex {
                path: ops.clone(),
                ..FileIndex::default()
            },
        ]);
        assert!(index.sees(&map_hpp, 2));
        assert!(index.sees(&map_cu, 1) && index.sees(&map_cu, 2));
        assert!(!index.sees(&ops, 0) && !index.sees(&ops, 1));
    }
}
