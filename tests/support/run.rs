//! Running the built binary the way a user does, for the command-line test files.
#![allow(dead_code)] // each test file uses its own part of this

use std::path::Path;
use std::process::{Command, Output};

/// `cudalint ARGS` run from `dir`.
pub fn cudalint(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cudalint"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run cudalint")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
