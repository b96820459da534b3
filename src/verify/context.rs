//! A file's build context for `--verify`: the include paths, macro definitions and language
//! standard of its entry in a compile database (`compile_commands.json`, as CMake and Bear write
//! it), found by walking up from the file or named with `--compile-commands PATH`.

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
        return BuildContext::default();
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
