//! A file's build context for `--verify`: the include paths, macro definitions and language
//! standard of its entry in a compile database (`compile_commands.json`, as CMake and Bear write
//! it), found by walking up from the file or named with `--compile-commands PATH`. Without one,
//! the include paths and definitions the build files beside the file give every source (a
//! `Makefile`'s `-I` and `-D` flags, a `CMakeLists.txt`'s `include_directories`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

static DATABASE: OnceLock<PathBuf> = OnceLock::new();

/// The compile database named on the command line; walking up is not tried then.
pub fn set_compile_commands(path: PathBuf) {
    let _ = DATABASE.set(path);
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildContext {
    /// The database the flags came from.
    pub database: Option<PathBuf>,
    pub include_dirs: Vec<PathBuf>,
    /// `-DNAME` and `-DNAME=VALUE`, as (name, value).
    pub defines: Vec<(String, Option<String>)>,
    /// `c++17` of `-std=c++17`.
    pub standard: Option<String>,
}

impl BuildContext {
    /// `#define` lines for the definitions, in the order given.
    pub fn define_lines(&self) -> String {
        self.defines
            .iter()
            .map(|(name, value)| match value {
                Some(value) => format!("#define {name} {value}\n"),
                None => format!("#define {name} 1\n"),
            })
            .collect()
    }
}

/// The context of `file`: its compile database's entry, or an empty context.
pub fn for_file(file: &Path) -> BuildContext {
    let database = match DATABASE.get() {
        Some(path) => Some(path.clone()),
        None => find_database(file),
    };
    let Some(database) = database else {
        // the include roots the lints read the file with: the folder's build files and the
        // `include_directories` of the lists above that add it
        return file
            .parent()
            .map(|folder| {
                let mut context = from_build_files(folder);
                for dir in crate::model::index::build_include_dirs(folder).iter() {
                    if !context.include_dirs.contains(dir) {
                        context.include_dirs.push(dir.clone());
                    }
                }
                context
            })
            .unwrap_or_default();
    };
    let Ok(text) = std::fs::read_to_string(&database) else {
        return BuildContext::default();
    };
    let mut context = from_database(&text, file).unwrap_or_default();
    if context != BuildContext::default() {
        context.database = Some(database);
    }
    context
}

/// `compile_commands.json` in the file's folder or one above it (or in their `build/`).
fn find_database(file: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(file).ok()?;
    let mut folder = absolute.parent();
    for _ in 0..16 {
        let here = folder?;
        for candidate in [
            here.join("compile_commands.json"),
            here.join("build").join("compile_commands.json"),
        ] {
            if candidate.is_file() {
                return Some(candidate);
            }
        }
        folder = here.parent();
    }
    None
}

/// The flags of `file`'s entry in the database `text`.
pub fn from_database(text: &str, file: &Path) -> Option<BuildContext> {
    let entries: Vec<serde_json::Value> = serde_json::from_str(text).ok()?;
    let wanted = std::path::absolute(file).ok()?;
    let wanted = wanted.canonicalize().unwrap_or(wanted);
    for entry in entries {
        let directory = PathBuf::from(entry.get("directory")?.as_str()?);
        let Some(named) = entry.get("file").and_then(|f| f.as_str()) else {
            continue;
        };
        let path = directory.join(named);
        let path = path.canonicalize().unwrap_or(path);
        if path != wanted {
            continue;
        }
        let arguments: Vec<String> = match entry.get("arguments").and_then(|a| a.as_array()) {
            Some(arguments) => arguments
                .iter()
                .filter_map(|a| a.as_str().map(str::to_string))
                .collect(),
            None => split_command(entry.get("command").and_then(|c| c.as_str()).unwrap_or("")),
        };
        return Some(from_arguments(&arguments, &directory));
    }
    None
}

/// Include paths, definitions and the standard among a compiler's arguments.
pub fn from_arguments(arguments: &[String], directory: &Path) -> BuildContext {
    let mut context = BuildContext::default();
    let mut iter = arguments.iter().peekable();
    while let Some(argument) = iter.next() {
        let argument = argument.as_str();
        let mut value_of = |flag: &str| -> Option<String> {
            if argument == flag {
                iter.next().cloned()
            } else {
                argument
                    .strip_prefix(flag)
                    .map(|rest| rest.trim_start_matches('=').to_string())
            }
        };
        if let Some(dir) = value_of("-isystem")
            .or_else(|| value_of("--include-path"))
            .or_else(|| value_of("-I"))
        {
            if !dir.is_empty() {
                let dir = directory.join(dir);
                if !context.include_dirs.contains(&dir) {
                    context.include_dirs.push(dir);
                }
            }
        } else if let Some(definition) = value_of("--define-macro").or_else(|| value_of("-D")) {
            let (name, value) = match definition.split_once('=') {
                Some((name, value)) => (name.to_string(), Some(value.to_string())),
                None => (definition.clone(), None),
            };
            if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                context.defines.push((name, value));
            }
        } else if let Some(standard) = value_of("--std").or_else(|| value_of("-std")) {
            context.standard = Some(standard);
        }
    }
    context
}

/// The `-I` and `-D` flags of the `Makefile` in `folder` (assignments outside `ifeq`/`ifdef`
/// blocks, with variables the file assigns plainly expanded; a flag still naming a variable is
/// dropped), and the folders `include_directories` of its `CMakeLists.txt` names.
pub fn from_build_files(folder: &Path) -> BuildContext {
    let mut context = BuildContext::default();
    if let Ok(makefile) = std::fs::read_to_string(folder.join("Makefile")) {
        let arguments = makefile_flags(&makefile);
        context = from_arguments(&arguments, folder);
        context.standard = None;
    }
    for dir in cmake_include_dirs(folder) {
        if !context.include_dirs.contains(&dir) {
            context.include_dirs.push(dir);
        }
    }
    context
}

/// The folders the `CMakeLists.txt` of `folder` puts on the include path, joined to `folder`.
pub fn cmake_include_dirs(folder: &Path) -> Vec<PathBuf> {
    std::fs::read_to_string(folder.join("CMakeLists.txt"))
        .map(|cmake| {
            cmake_include_directories(&cmake)
                .into_iter()
                .map(|dir| folder.join(dir))
                .collect()
        })
        .unwrap_or_default()
}

/// The `-I` and `-D` flags assigned to any variable of a Makefile, unconditionally.
fn makefile_flags(makefile: &str) -> Vec<String> {
    let joined = makefile.replace("\\\n", " ");
    let mut variables: Vec<(String, String)> = Vec::new();
    let mut flags = Vec::new();
    let mut depth = 0usize;
    for raw in joined.lines() {
        let recipe = raw.starts_with('\t');
        let line = raw.split('#').next().unwrap_or("").trim();
        let first = line.split_whitespace().next().unwrap_or("");
        if matches!(first, "ifeq" | "ifneq" | "ifdef" | "ifndef") {
            depth += 1;
            continue;
        }
        if first == "endif" {
            depth = depth.saturating_sub(1);
            continue;
        }
        if depth > 0 {
            continue;
        }
        let line = line.strip_prefix("override ").unwrap_or(line);
        // a recipe's command (`$(NVCC) $(FLAGS) -I $(INC_DIR) -c -o $@ $<`)
        if recipe {
            flags.extend(include_and_define_flags(&expand(line, &variables)));
            continue;
        }
        let Some(at) = line.find('=') else {
            continue;
        };
        let name = line[..at].trim_end_matches([':', '?', '+']).trim();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let value = expand(line[at + 1..].trim(), &variables);
        flags.extend(include_and_define_flags(&value));
        match variables.iter_mut().find(|(n, _)| n == name) {
            Some((_, held)) if line[..at].ends_with('+') => {
                held.push(' ');
                held.push_str(&value);
            }
            Some((_, held)) => *held = value,
            None => variables.push((name.to_string(), value)),
        }
    }
    let mut unique: Vec<String> = Vec::new();
    for flag in flags {
        if !unique.contains(&flag) {
            unique.push(flag);
        }
    }
    unique
}

/// `-Idir`, `-I dir`, `-DNAME=V` and `-D NAME` among `words`, with no variable left in them.
fn include_and_define_flags(words: &str) -> Vec<String> {
    let mut flags = Vec::new();
    let mut words = words.split_whitespace();
    while let Some(word) = words.next() {
        let flag = match word {
            "-I" | "-D" => match words.next() {
                Some(value) => format!("{word}{value}"),
                None => break,
            },
            _ if word.starts_with("-I") || word.starts_with("-D") => word.to_string(),
            _ => continue,
        };
        if !flag.contains('$') && flag.len() > 2 {
            flags.push(flag);
        }
    }
    flags
}

/// `$(NAME)` and `${NAME}` of the variables assigned so far.
fn expand(value: &str, variables: &[(String, String)]) -> String {
    let mut out = value.to_string();
    for (name, held) in variables {
        if !held.contains('$') {
            out = out
                .replace(&format!("$({name})"), held)
                .replace(&format!("${{{name}}}"), held);
        }
    }
    out
}

/// The folders named by `include_directories(...)` and `target_include_directories(...)`,
/// relative to the list's folder; a folder naming an unknown variable is left out.
fn cmake_include_directories(cmake: &str) -> Vec<String> {
    // `set(INCLUDE_ROOT ${CMAKE_CURRENT_SOURCE_DIR}/include)`: a variable of one value, read
    // where an include command names it
    let mut variables: Vec<(String, String)> = Vec::new();
    for at in crate::syntax::identifier_positions(cmake, "set") {
        let Some(arguments) = cmake[at + 3..].trim_start().strip_prefix('(') else {
            continue;
        };
        let Some(end) = arguments.find(')') else {
            continue;
        };
        if let [name, value] = arguments[..end].split_whitespace().collect::<Vec<_>>()[..] {
            variables.push((format!("${{{name}}}"), value.trim_matches('"').to_string()));
        }
    }
    let mut dirs = Vec::new();
    for command in ["include_directories", "target_include_directories"] {
        for at in crate::syntax::identifier_positions(cmake, command) {
            let Some(arguments) = cmake[at + command.len()..].trim_start().strip_prefix('(') else {
                continue;
            };
            let Some(end) = arguments.find(')') else {
                continue;
            };
            let mut words = arguments[..end].split_whitespace();
            if command == "target_include_directories" {
                words.next();
            }
            for word in words {
                let mut word = word.trim_matches('"').to_string();
                // `$<BUILD_INTERFACE:dir>`: the folder the build itself reads
                if let Some(inner) = word
                    .strip_prefix("$<BUILD_INTERFACE:")
                    .and_then(|w| w.strip_suffix('>'))
                {
                    word = inner.to_string();
                }
                if let Some((name, value)) = variables
                    .iter()
                    .find(|(name, _)| word.starts_with(name.as_str()))
                {
                    word = word.replacen(name.as_str(), value, 1);
                }
                let word = word
                    .replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")
                    .replace("${CMAKE_CURRENT_LIST_DIR}/", "");
                let keyword = matches!(
                    word.as_str(),
                    "PUBLIC" | "PRIVATE" | "INTERFACE" | "SYSTEM" | "BEFORE" | "AFTER"
                );
                if !keyword && !word.is_empty() && !word.contains('$') {
                    dirs.push(word);
                }
            }
        }
    }
    dirs
}

/// A command line split as a POSIX shell would split it (quotes and backslashes; no expansion).
pub fn split_command(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut started = false;
    let mut quote: Option<char> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some(next) = chars.next() {
                    current.push(next);
                }
            }
            (Some(_), c) => current.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, '\\') => {
                if let Some(next) = chars.next() {
                    current.push(next);
                    started = true;
                }
            }
            (None, c) if c.is_whitespace() => {
                if started || !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            (None, c) => {
                current.push(c);
                started = true;
            }
        }
    }
    if started || !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_read_from_a_command() {
        let arguments = split_command(
            r#"/usr/local/cuda/bin/nvcc -DUSE_FAST=1 -D NDEBUG -I../include -isystem /opt/x/include --std=c++14 "-DNAME=\"a b\"" -o k.o -c k.cu"#,
        );
        let context = from_arguments(&arguments, Path::new("/p/build"));
        assert_eq!(
            context.include_dirs,
            vec![
                PathBuf::from("/p/build/../include"),
                PathBuf::from("/opt/x/include")
            ]
        );
        assert_eq!(
            context.defines,
            vec![
                ("USE_FAST".into(), Some("1".into())),
                ("NDEBUG".into(), None),
                ("NAME".into(), Some("\"a b\"".into())),
            ]
        );
        assert_eq!(context.standard.as_deref(), Some("c++14"));
        assert_eq!(
            context.define_lines(),
            "#define USE_FAST 1\n#define NDEBUG 1\n#define NAME \"a b\"\n"
        );
    }

    #[test]
    fn build_files_give_include_paths_and_definitions() {
        let makefile = "SLU_PATH = ../slu\nDEBUG ?= no\nCFLAGS := $(EXTRA_CFLAGS) -std=c++17 -Wall -I../aidw-cuda \\\n  -I$(SLU_PATH)/include -I$(UNKNOWN)/inc -DTILE=16\nifeq ($(DEBUG),yes)\n  CFLAGS += -g -DDEBUG\nendif\nCFLAGS += -DVERIFY\nINC_DIR = include\nmain.o: main.cu\n\t$(NVCC) $(CFLAGS) -I $(INC_DIR) -c -o $@ $<\n";
        assert_eq!(
            makefile_flags(makefile),
            vec![
                "-I../aidw-cuda",
                "-I../slu/include",
                "-DTILE=16",
                "-DVERIFY",
                "-Iinclude"
            ]
        );
        let cmake = "include_directories(../../../Common)\ntarget_include_directories(app PUBLIC\n  ${OPENGL_INCLUDE_DIR}\n  \"${CMAKE_CURRENT_SOURCE_DIR}/inc\")\n";
        assert_eq!(
            cmake_include_directories(cmake),
            vec!["../../../Common", "inc"]
        );
        // a variable of one value, in a generator expression of the build tree
        let listed = "set(ROOT_INCLUDE ${CMAKE_CURRENT_SOURCE_DIR}/include)\nadd_library(k OBJECT kernel/add.cu)\ntarget_include_directories(k PUBLIC $<BUILD_INTERFACE:${ROOT_INCLUDE}>)\ntarget_include_directories(k PUBLIC $<INSTALL_INTERFACE:include>)\n";
        assert_eq!(cmake_include_directories(listed), vec!["include"]);
        let dir = std::env::temp_dir().join(format!("cudalint-buildfiles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Makefile"), makefile).unwrap();
        std::fs::write(dir.join("CMakeLists.txt"), cmake).unwrap();
        let context = for_file(&dir.join("main.cu"));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            context.include_dirs,
            vec![
                dir.join("../aidw-cuda"),
                dir.join("../slu/include"),
                dir.join("include"),
                dir.join("../../../Common"),
                dir.join("inc")
            ]
        );
        assert_eq!(
            context.defines,
            vec![("TILE".into(), Some("16".into())), ("VERIFY".into(), None)]
        );
        assert_eq!(context.standard, None);
        assert_eq!(context.database, None);
    }

    #[test]
    fn the_entry_of_the_file_is_found() {
        let dir = std::env::temp_dir().join(format!("cudalint-ccdb-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(dir.join("src/k.cu"), "").unwrap();
        let database = serde_json::json!([
            {"directory": dir.join("build"), "file": "../src/other.cu", "command": "nvcc -DOTHER -c ../src/other.cu"},
            {"directory": dir, "file": "src/k.cu", "arguments": ["nvcc", "-Iinclude", "-DTILE=32", "-std=c++17", "-c", "src/k.cu"]}
        ])
        .to_string();
        let context = from_database(&database, &dir.join("src/k.cu")).unwrap();
        assert_eq!(context.include_dirs, vec![dir.join("include")]);
        assert_eq!(context.defines, vec![("TILE".into(), Some("32".into()))]);
        assert_eq!(context.standard.as_deref(), Some("c++17"));
        assert!(from_database(&database, &dir.join("src/missing.cu")).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
