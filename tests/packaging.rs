//! What ships beside the code: the licence, the release profile, the release tag the pre-commit
//! snippet names, the Python wheel and the two pre-commit hooks, and the VS Code extension's
//! activation.

use std::path::Path;
use std::process::Command;

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn manifest() -> toml::Value {
    toml::from_str(&read("Cargo.toml")).expect("Cargo.toml parses")
}

#[test]
fn licence_file_matches_the_manifest_and_is_packaged() {
    let manifest = manifest();
    assert_eq!(manifest["package"]["license"].as_str(), Some("MIT"));
    let licence = read("LICENSE");
    assert!(licence.starts_with("MIT License\n"), "{licence}");
    assert!(licence.contains("Permission is hereby granted, free of charge"));
    let include = manifest["package"]["include"].as_array().expect("include");
    assert!(include.iter().any(|i| i.as_str() == Some("LICENSE")));
}

#[test]
fn release_profile_has_no_debug_info() {
    let manifest = manifest();
    let release = &manifest["profile"]["release"];
    assert_eq!(release["debug"].as_bool(), Some(false));
    assert_eq!(release["strip"].as_str(), Some("debuginfo"));
    assert_eq!(
        manifest["profile"]["profiling"]["inherits"].as_str(),
        Some("release")
    );
}

#[test]
fn readme_pre_commit_snippet_names_this_version_and_the_hook() {
    let readme = read("README.md");
    let tag = format!("rev: v{} ", env!("CARGO_PKG_VERSION"));
    assert!(
        readme.contains(&tag),
        "README's snippet does not say `{tag}`"
    );
    assert!(readme.contains("- id: cudalint"));
    assert!(read(".pre-commit-hooks.yaml").contains("- id: cudalint\n"));
}

#[test]
fn python_wheel_is_the_binary_under_the_crate_name_and_version() {
    let pyproject: toml::Value = toml::from_str(&read("pyproject.toml")).expect("pyproject.toml");
    let build = &pyproject["build-system"];
    assert_eq!(build["build-backend"].as_str(), Some("maturin"));
    assert_eq!(
        build["requires"].as_array().map(|r| r.as_slice()),
        Some([toml::Value::from("maturin>=1,<2")].as_slice())
    );
    assert_eq!(
        pyproject["tool"]["maturin"]["bindings"].as_str(),
        Some("bin")
    );
    let project = &pyproject["project"];
    assert_eq!(
        project["name"].as_str(),
        manifest()["package"]["name"].as_str()
    );
    // maturin takes what `dynamic` lists from Cargo.toml: the wheel's version is the crate's.
    assert!(
        project.get("version").is_none(),
        "a version in pyproject.toml would drift from Cargo.toml's"
    );
    let dynamic: Vec<&str> = project["dynamic"]
        .as_array()
        .expect("dynamic")
        .iter()
        .filter_map(|d| d.as_str())
        .collect();
    for field in ["version", "description", "license", "readme"] {
        assert!(dynamic.contains(&field), "{field} not from Cargo.toml");
    }
}

/// `.pre-commit-hooks.yaml` as a list of hooks, each its `key: value` lines.
fn pre_commit_hooks() -> Vec<Vec<(String, String)>> {
    let text = read(".pre-commit-hooks.yaml");
    let mut hooks: Vec<Vec<(String, String)>> = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let (starts_hook, field) = match line.strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, line.trim_start()),
        };
        if starts_hook {
            hooks.push(Vec::new());
        }
        if let (Some(hook), Some((key, value))) = (hooks.last_mut(), field.split_once(": ")) {
            hook.push((key.to_string(), value.to_string()));
        }
    }
    hooks
}

#[test]
fn pre_commit_hooks_install_by_cargo_and_by_the_wheel_and_run_the_same_check() {
    let hooks = pre_commit_hooks();
    let field = |hook: &[(String, String)], key: &str| {
        hook.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let summary: Vec<(String, String)> = hooks
        .iter()
        .map(|h| (field(h, "id"), field(h, "language")))
        .collect();
    assert_eq!(
        summary,
        [
            ("cudalint".to_string(), "rust".to_string()),
            ("cudalint-python".to_string(), "python".to_string())
        ]
    );
    for hook in &hooks {
        assert_eq!(field(hook, "entry"), "cudalint check");
        assert_eq!(field(hook, "types_or"), "[cuda]");
    }
    let readme = read("README.md");
    for install in [
        "cargo install --locked --git https://github.com/cudalint/cudalint cudalint",
        "pip install cudalint",
        "pipx install cudalint",
        "- id: cudalint ",
        "- id: cudalint-python",
    ] {
        assert!(readme.contains(install), "README lacks `{install}`");
    }
}

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git")
}

#[test]
fn tag_release_tags_the_manifest_version_once_and_only_when_the_readme_agrees() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir(root.join("scripts")).unwrap();
    for file in ["Cargo.toml", "README.md", "scripts/tag-release.sh"] {
        std::fs::write(root.join(file), read(file)).unwrap();
    }
    assert!(git(root, &["init", "-q"]).status.success());
    git(root, &["add", "."]);
    assert!(git(root, &["commit", "-qm", "release"]).status.success());
    let tag_release = || {
        Command::new("bash")
            .current_dir(root)
            .arg("scripts/tag-release.sh")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .output()
            .expect("bash")
    };
    let first = tag_release();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let tags = String::from_utf8_lossy(&git(root, &["tag"]).stdout).into_owned();
    assert_eq!(tags.trim(), format!("v{}", env!("CARGO_PKG_VERSION")));
    assert_eq!(
        tag_release().status.code(),
        Some(2),
        "the tag exists already"
    );

    let readme = read("README.md").replace(
        &format!("rev: v{} ", env!("CARGO_PKG_VERSION")),
        "rev: v9.9.9 ",
    );
    std::fs::write(root.join("README.md"), readme).unwrap();
    git(
        root,
        &["tag", "-d", &format!("v{}", env!("CARGO_PKG_VERSION"))],
    );
    git(root, &["commit", "-qam", "stale snippet"]);
    let stale = tag_release();
    assert_eq!(stale.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&stale.stderr).contains("does not name"));
}

#[test]
fn vscode_extension_activates_for_cu_files_mapped_to_cpp() {
    let package: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/package.json")).expect("package.json");
    let events: Vec<&str> = package["activationEvents"]
        .as_array()
        .expect("activationEvents")
        .iter()
        .filter_map(|e| e.as_str())
        .collect();
    assert!(events.contains(&"onLanguage:cuda-cpp"), "{events:?}");
    assert!(events.contains(&"onLanguage:cpp"), "{events:?}");
    let extension = read("editors/vscode/extension.js");
    assert!(
        extension.contains("{ scheme: 'file', language: 'cpp', pattern: '**/*.{cu,cuh}' }"),
        "plain C++ files must not be linted: the cpp selector is limited to .cu/.cuh"
    );
}
