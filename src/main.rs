use clap::{Parser, Subcommand, ValueEnum};
use cudalint::diagnostic::Severity;
use cudalint::engine::{self, CheckOptions, RunResult};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Static analysis for CUDA: out-of-bounds thread indices, host/device memory bugs, unchecked errors.
#[derive(Parser)]
#[command(name = "cudalint", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lint .cu/.cuh files (directories are walked, honouring .gitignore and .cudalintignore)
    Check(CheckArgs),
    /// List every rule, or print one rule's documentation
    Rule {
        /// The rule to document
        name: Option<String>,
    },
    /// Print the tree-sitter parse of a file (for debugging the grammar)
    #[command(hide = true)]
    DebugTree { path: PathBuf },
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Terminal,
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum FailOn {
    Error,
    Warning,
    Info,
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Files or directories to lint
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value = "terminal")]
    format: Format,
    /// Write the report to this file instead of standard output
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Use this configuration file instead of the nearest cudalint.toml
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run only these rules (comma-separated)
    #[arg(long, value_delimiter = ',')]
    select: Vec<String>,
    /// Do not run these rules (comma-separated)
    #[arg(long, value_delimiter = ',')]
    ignore: Vec<String>,
    /// Lowest severity that makes the exit code 1
    #[arg(long, value_enum, default_value = "warning")]
    fail_on: FailOn,
    /// Report findings but exit 0 (errors that stopped linting still exit 2)
    #[arg(long)]
    exit_zero: bool,
    /// Colour terminal output: auto, always or never
    #[arg(long, default_value = "auto")]
    color: String,
    /// Also report analysis skips (deeply nested or unparsable regions)
    #[arg(long, short)]
    verbose: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Check(args) => run_check(args),
        Command::Rule { name } => run_rule(name),
        Command::DebugTree { path } => debug_tree(path),
    }
}

fn run_check(args: CheckArgs) -> ExitCode {
    for rule in args.select.iter().chain(&args.ignore) {
        if cudalint::lints::find(rule).is_none() {
            eprintln!("cudalint: unknown rule `{rule}` on the command line (see `cudalint rule`)");
            return ExitCode::from(2);
        }
    }
    let options = CheckOptions {
        config: args.config.clone(),
        select: args.select.clone(),
        ignore: args.ignore.clone(),
    };
    let run = engine::check(&args.paths, options);
    let to_terminal = args.output.is_none() && std::io::stdout().is_terminal();
    let color = match args.color.as_str() {
        "always" => true,
        "never" => false,
        _ => to_terminal && std::env::var_os("NO_COLOR").is_none(),
    };
    let rendered = match args.format {
        Format::Terminal => cudalint::render::terminal::render(&run, color),
        Format::Json => cudalint::render::json::render(&run).into_bytes(),
    };
    for error in &run.errors {
        eprintln!("cudalint: error: {error}");
    }
    if args.verbose {
        for report in run.reports.iter().filter(|r| r.skipped_regions > 0) {
            eprintln!(
                "cudalint: {}: {} region(s) nested too deeply to analyse were skipped",
                report.display_path, report.skipped_regions
            );
        }
    }
    let written = match &args.output {
        Some(path) => std::fs::write(path, &rendered)
            .map_err(|e| format!("{}: {}", path.display(), engine::io_message(&e))),
        None => std::io::stdout()
            .write_all(&rendered)
            .map_err(|e| e.to_string()),
    };
    if let Err(message) = written {
        eprintln!("cudalint: error: cannot write the report: {message}");
        return ExitCode::from(2);
    }
    exit_code(&run, args.fail_on, args.exit_zero)
}

fn exit_code(run: &RunResult, fail_on: FailOn, exit_zero: bool) -> ExitCode {
    if !run.errors.is_empty() {
        return ExitCode::from(2);
    }
    let threshold = match fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
        FailOn::Info => Severity::Info,
    };
    let failing = run
        .reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .any(|d| d.severity >= threshold);
    if failing && !exit_zero {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run_rule(name: Option<String>) -> ExitCode {
    match name {
        None => {
            println!(
                "{:<30} {:<15} {:<8} SUMMARY",
                "RULE", "CATEGORY", "SEVERITY"
            );
            for lint in cudalint::lints::ALL {
                println!(
                    "{:<30} {:<15} {:<8} {}",
                    lint.name,
                    lint.category.as_str(),
                    lint.default_severity.as_str(),
                    lint.summary
                );
            }
            ExitCode::SUCCESS
        }
        Some(name) => match cudalint::lints::find(&name) {
            Some(lint) => {
                println!(
                    "{} ({}, {} by default)\n",
                    lint.name,
                    lint.category.as_str(),
                    lint.default_severity
                );
                print!("{}", lint.docs);
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("cudalint: unknown rule `{name}` (run `cudalint rule` for the list)");
                ExitCode::from(2)
            }
        },
    }
}

fn debug_tree(path: PathBuf) -> ExitCode {
    let text = match engine::read_source(&path) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("cudalint: error: {}: {message}", path.display());
            return ExitCode::from(2);
        }
    };
    let view = cudalint::source::preprocess(&text, &[]);
    let Some(tree) = engine::parse(&view.text, None) else {
        return ExitCode::from(2);
    };
    let mut depth = 0usize;
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let field = cursor
            .field_name()
            .map(|f| format!("{f}: "))
            .unwrap_or_default();
        if node.is_named() {
            let snippet: String = text
                .get(node.byte_range())
                .unwrap_or("")
                .chars()
                .take(50)
                .collect::<String>()
                .replace('\n', "⏎");
            println!(
                "{}{}{} {}:{} {:?}",
                "  ".repeat(depth),
                field,
                node.kind(),
                node.start_position().row + 1,
                node.start_position().column + 1,
                snippet
            );
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return ExitCode::SUCCESS;
            }
            depth -= 1;
        }
    }
}
