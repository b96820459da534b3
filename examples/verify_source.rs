//! Prints the program `--verify` would compile for each kernel of a file (or only `KERNEL`):
//! `cargo run --release --example verify_source -- FILE [KERNEL]`. With `--configs` before the
//! file, the launch configurations the experiment tries instead, one a line.

use cudalint::verify::{experiment_for_kernel, with_model};
use std::io::Write;
use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let configs = args.next_if(|a| a == "--configs").is_some();
    let Some(file) = args.next() else {
        eprintln!("usage: verify_source [--configs] FILE [KERNEL]");
        std::process::exit(2);
    };
    let only = args.next();
    let text = match std::fs::read(&file) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        }
    };
    let mut out = std::io::stdout().lock();
    with_model(Path::new(&file), &text, |model| {
        for (index, _) in &model.kernels {
            let name = &model.functions[*index].name;
            if only.as_ref().is_some_and(|o| o != name) {
                continue;
            }
            let written = match experiment_for_kernel(model, *index) {
                Ok(built) if configs => writeln!(
                    out,
                    "// ===== {name}\n{}",
                    built
                        .experiment
                        .configs
                        .iter()
                        .map(|c| format!("{}\n", c.description))
                        .collect::<String>()
                ),
                Ok(built) => writeln!(
                    out,
                    "// ===== {name}\n{}{}",
                    built
                        .source
                        .headers
                        .iter()
                        .map(|h| format!("{h}\n"))
                        .collect::<String>(),
                    built.source.body
                ),
                Err(reason) => writeln!(out, "// ===== {name}: not verifiable: {reason}"),
            };
            // A closed pipe (`| head`) ends the listing.
            if written.is_err() {
                return;
            }
        }
    });
}
