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
    /// The `--verify` worker: line-delimited JSON requests on stdin, answers on stdout
    #[command(hide = true)]
    VerifyWorker,
    /// Run every kernel of the files instrumented, findings or not, and print one line per kernel
    #[command(hide = true)]
    VerifyFile {
        paths: Vec<PathBuf>,
        #[arg(long, default_value_t = 10.0)]
        verify_timeout: f64,
    },
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
    /// Confirm each finding of a verifiable rule by running an instrumented experiment on the GPU
    #[arg(long)]
    verify: bool,
    /// Seconds one experiment may run before its worker is killed and replaced
    #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
    verify_timeout: f64,
    /// Write the verification's device and per-kernel timings as JSON to this file
    #[arg(long, hide = true)]
    verify_timings: Option<PathBuf>,
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err(format!(
            "`{text}` is not a number of seconds between 0 and 86400"
        )),
    }
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
        Command::VerifyWorker => {
            ExitCode::from(cudalint::verify::worker::serve().clamp(0, 255) as u8)
        }
        Command::VerifyFile {
            paths,
            verify_timeout,
        } => verify_file(paths, verify_timeout),
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
    let mut run = engine::check(&args.paths, options);
    if args.verify {
        run_verification(&mut run, &args);
    }
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

fn run_verification(run: &mut RunResult, args: &CheckArgs) {
    use cudalint::verify;
    let timeout = std::time::Duration::from_secs_f64(args.verify_timeout);
    let options = verify::VerifyOptions {
        timeout,
        progress: std::io::stderr().is_terminal(),
    };
    let summary = match verify::own_worker(timeout) {
        Ok(mut client) => verify::verify(run, &options, &mut client),
        Err(reason) => {
            eprintln!("cudalint: --verify: {reason}");
            return;
        }
    };
    if let Some(reason) = &summary.unavailable {
        eprintln!("cudalint: --verify: {reason}; findings are reported unverified");
    } else if let Some(device) = &summary.device {
        let slowest = summary
            .experiments
            .iter()
            .map(|e| e.total_ms)
            .fold(0.0, f64::max);
        eprintln!(
            "cudalint: verified on {device}: {} experiment(s), context {:.0} ms, slowest kernel {slowest:.1} ms, {:.0} ms in all",
            summary.experiments.len(),
            summary.context_ms.unwrap_or(0.0),
            summary.wall_ms
        );
    }
    if let Some(path) = &args.verify_timings {
        let written = serde_json::to_string_pretty(&summary)
            .map_err(|e| e.to_string())
            .and_then(|json| std::fs::write(path, json).map_err(|e| e.to_string()));
        if let Err(message) = written {
            eprintln!("cudalint: cannot write {}: {message}", path.display());
        }
    }
}

fn verify_file(paths: Vec<PathBuf>, timeout: f64) -> ExitCode {
    let timeout = std::time::Duration::from_secs_f64(timeout.clamp(0.1, 86_400.0));
    let mut client = match cudalint::verify::own_worker(timeout) {
        Ok(client) => client,
        Err(reason) => {
            eprintln!("cudalint: {reason}");
            return ExitCode::from(2);
        }
    };
    match client.request(&cudalint::verify::protocol::Request::Hello) {
        Ok(cudalint::verify::protocol::Response::Hello { .. }) => {}
        Ok(other) => {
            eprintln!("cudalint: no GPU to verify on: {other:?}");
            return ExitCode::from(2);
        }
        Err(failure) => {
            eprintln!("cudalint: {failure}");
            return ExitCode::from(2);
        }
    }
    let mut failed = false;
    for path in paths {
        match cudalint::verify::probe_file(&path, &mut client) {
            Ok(lines) => lines.iter().for_each(|l| println!("{l}")),
            Err(message) => {
                eprintln!("cudalint: {}: {message}", path.display());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}
