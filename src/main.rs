use clap::{Parser, Subcommand, ValueEnum};
use cudalint::baseline::Baseline;
use cudalint::diagnostic::Severity;
use cudalint::engine::{self, CheckOptions, RunResult};
use cudalint::lint::Lint;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
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
    /// Lint .cu/.cuh/.hip files (directories are walked, honouring .gitignore and .cudalintignore)
    Check(Box<CheckArgs>),
    /// List every rule, or print one rule's documentation
    Rule {
        /// The rule to document
        name: Option<String>,
    },
    /// Measure parse coverage: files and bytes the parser could not parse, over the analysed view and the raw text
    ParseStats(ParseStatsArgs),
    /// Speak the Language Server Protocol over stdio (for editors)
    Lsp,
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
    /// One line per finding: `path:line:col: rule message`
    Concise,
    Json,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers
    Sarif,
    /// GitHub Actions workflow commands (annotations on the pull request)
    Github,
    /// GitLab code quality (Code Climate JSON)
    Gitlab,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum StatsFormat {
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
    #[arg(
        long,
        visible_alias = "output-format",
        value_enum,
        default_value = "terminal"
    )]
    format: Format,
    /// Write the report to this file instead of standard output
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Print the number of findings per rule (and how many have a fix) instead of the findings
    #[arg(long)]
    statistics: bool,
    /// List the files that would be linted, and lint nothing
    #[arg(long, conflicts_with = "show_settings")]
    show_files: bool,
    /// Print the settings that apply to each file (configuration file, rules, severities), and
    /// lint nothing
    #[arg(long)]
    show_settings: bool,
    /// Report only findings that this baseline (from --write-baseline) does not record
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every current finding in FILE, report nothing and exit 0
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    write_baseline: Option<PathBuf>,
    /// Use this configuration file instead of the nearest cudalint.toml
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run only these rules, categories (kernel, memory, launch, error-handling, meta) or all (comma-separated)
    #[arg(long, value_delimiter = ',')]
    select: Vec<String>,
    /// Run these rules or categories as well as the selected ones (comma-separated)
    #[arg(long, value_delimiter = ',')]
    extend_select: Vec<String>,
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
    /// Apply the safe fixes to the files, then report what is left
    #[arg(long)]
    fix: bool,
    /// Print the safe fixes as a unified diff instead of applying them (exit 1 if there is one)
    #[arg(long, conflicts_with = "add_ignore")]
    diff: bool,
    /// Add a `// cudalint: ignore[rule]` comment to every line with a finding, and report nothing
    #[arg(long, conflicts_with_all = ["fix", "write_baseline", "baseline"])]
    add_ignore: bool,
    /// Lint every file again instead of reading unchanged results from .cudalint_cache/
    #[arg(long)]
    no_cache: bool,
    /// Also report analysis skips (deeply nested or unparsable regions)
    #[arg(long, short)]
    verbose: bool,
    /// Define a macro like the compiler's -D (NAME or NAME=VALUE): it chooses `#if` branches and is the value code reads
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Confirm each finding of a verifiable rule by running an instrumented experiment on the GPU
    #[arg(long)]
    verify: bool,
    /// Seconds one experiment may run before its worker is killed and replaced
    #[arg(long, default_value_t = 10.0, value_parser = parse_timeout)]
    verify_timeout: f64,
    /// Write the verification's device and per-kernel timings as JSON to this file
    #[arg(long, hide = true)]
    verify_timings: Option<PathBuf>,
    /// The compile database whose include paths, definitions and standard --verify compiles each
    /// file with (default: compile_commands.json found by walking up from the file)
    #[arg(long, value_name = "PATH")]
    compile_commands: Option<PathBuf>,
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(seconds),
        _ => Err(format!(
            "`{text}` is not a number of seconds between 0 and 86400"
        )),
    }
}

#[derive(clap::Args)]
struct ParseStatsArgs {
    /// Files or directories to measure
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value = "terminal")]
    format: StatsFormat,
    /// Use this configuration file instead of the nearest cudalint.toml
    #[arg(long)]
    config: Option<PathBuf>,
    /// Define a macro like the compiler's -D (NAME or NAME=VALUE): it chooses `#if` branches and is the value code reads
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    define: Vec<String>,
    /// Also list every ERROR region and MISSING token left in the view (path:line: the line)
    #[arg(long)]
    regions: bool,
    /// Also give per-file numbers (JSON only)
    #[arg(long)]
    per_file: bool,
}

fn main() -> ExitCode {
    cudalint::keep_freed_memory();
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
        Command::Check(args) => run_check(*args),
        Command::Rule { name } => run_rule(name),
        Command::ParseStats(args) => run_parse_stats(args),
        Command::DebugTree { path } => debug_tree(path),
        Command::VerifyWorker => {
            ExitCode::from(cudalint::verify::worker::serve().clamp(0, 255) as u8)
        }
        Command::VerifyFile {
            paths,
            verify_timeout,
        } => verify_file(paths, verify_timeout),
        Command::Lsp => cudalint::lsp::run(),
    }
}

fn run_check(args: CheckArgs) -> ExitCode {
    for rule in args
        .select
        .iter()
        .chain(&args.ignore)
        .chain(&args.extend_select)
    {
        if cudalint::lints::expand_selector(rule).is_none() {
            eprintln!(
                "cudalint: unknown rule `{rule}` on the command line{} (see `cudalint rule`)",
                cudalint::lints::did_you_mean(rule)
            );
            return ExitCode::from(2);
        }
    }
    if let Some(message) = args.output.as_deref().and_then(format_name_as_output) {
        eprintln!("cudalint: error: {message}");
        return ExitCode::from(2);
    }
    let options = CheckOptions {
        config: args.config.clone(),
        select: args.select.clone(),
        ignore: args.ignore.clone(),
        extend_select: args.extend_select.clone(),
        defines: args.define.clone(),
    };
    if args.show_files || args.show_settings {
        return show_files_or_settings(&args.paths, options, args.show_settings);
    }
    let cache = if args.no_cache {
        None
    } else {
        cudalint::cache::RunCache::at_project_root()
    };
    let progress = cudalint::progress::TerminalProgress::for_stderr();
    let progress: &dyn engine::Progress = match &progress {
        Some(bar) => bar,
        None => &engine::NoProgress,
    };
    let mut run = engine::check_cached(&args.paths, options.clone(), cache.as_ref(), progress);
    if let Some(path) = &args.write_baseline {
        return write_baseline(&run, path);
    }
    if args.add_ignore || args.diff {
        return change_files(&run, &args);
    }
    if args.fix {
        let changes = cudalint::fix::safe_fixes(&run);
        if !report_changes(&changes, &cudalint::fix::write(&changes), "fixed") {
            return ExitCode::from(2);
        }
        if !changes.files.is_empty() {
            // what is left is what the fixed files say now
            let mut again = engine::check_cached(&args.paths, options, cache.as_ref(), progress);
            again.skipped_special.clear(); // already named
            run = again;
        }
    }
    if let Some(path) = &args.baseline {
        let baseline = match Baseline::load(path) {
            Ok(baseline) => baseline,
            Err(message) => {
                eprintln!("cudalint: error: baseline {}: {message}", path.display());
                return ExitCode::from(2);
            }
        };
        let hidden = baseline.apply(&mut run);
        if hidden > 0 {
            eprintln!(
                "cudalint: {hidden} finding(s) recorded in the baseline {} not shown",
                path.display()
            );
        }
    }
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
        _ if args.statistics => {
            cudalint::render::statistics::render(&run, args.format == Format::Json).into_bytes()
        }
        Format::Terminal => cudalint::render::terminal::render(&run, color),
        Format::Concise => cudalint::render::concise::render(&run).into_bytes(),
        Format::Json => cudalint::render::json::render(&run).into_bytes(),
        Format::Sarif => {
            cudalint::render::sarif::render(&run, &rules_that_ran(&run, &args)).into_bytes()
        }
        Format::Github => cudalint::render::github::render(&run).into_bytes(),
        Format::Gitlab => cudalint::render::gitlab::render(&run).into_bytes(),
    };
    // errors first: a broken configuration explains everything after it
    for error in &run.errors {
        eprintln!("cudalint: error: {error}");
    }
    if let Some(message) = skipped_message(&run) {
        eprintln!("{message}");
    }
    if args.verbose {
        if let Some(cache) = cache.as_ref().filter(|c| c.was_hit()) {
            eprintln!(
                "cudalint: unchanged since an earlier run: findings read from {}",
                engine::display_path(cache.dir())
            );
        }
        // stray non-UTF-8 bytes (a Latin-1 copyright line) do not stop linting, so they are
        // listed only on request
        for report in &run.reports {
            if let Some(note) = &report.warning {
                eprintln!("cudalint: {}: {note}", report.display_path);
            }
        }
        for report in run.reports.iter().filter(|r| r.skipped_regions > 0) {
            eprintln!(
                "cudalint: {}: {} region(s) nested too deeply to analyse were skipped",
                report.display_path, report.skipped_regions
            );
        }
        for report in run.reports.iter().filter(|r| r.findings_on_broken_code > 0) {
            eprintln!(
                "cudalint: {}: {} finding(s) not reported because they rest on code the parser could not read",
                report.display_path, report.findings_on_broken_code
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

/// Why an `--output` value that is a format's name (`-o json`) is refused: the user almost
/// certainly meant `--output-format`, and a file named `json` is no use to anyone.
fn format_name_as_output(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    let known = Format::value_variants()
        .iter()
        .filter_map(|f| f.to_possible_value())
        .any(|v| v.matches(text, true));
    // ruff's names for the two human formats
    let known = known
        || ["full", "text"]
            .iter()
            .any(|n| n.eq_ignore_ascii_case(text));
    known.then(|| {
        format!(
            "`--output {text}` would write the report to a file named `{text}`; for the format, use `--output-format {}` (to really write such a file, use `--output ./{text}`)",
            text.to_ascii_lowercase()
        )
    })
}

fn show_files_or_settings(paths: &[PathBuf], options: CheckOptions, settings: bool) -> ExitCode {
    let shown = cudalint::show::files_or_settings(paths, options, settings);
    if let Some(message) = skipped_message(&RunResult {
        skipped_special: shown.skipped,
        ..RunResult::default()
    }) {
        eprintln!("{message}");
    }
    for error in &shown.errors {
        eprintln!("cudalint: error: {error}");
    }
    if let Err(e) = std::io::stdout().write_all(shown.text.as_bytes()) {
        eprintln!("cudalint: error: cannot write: {e}");
        return ExitCode::from(2);
    }
    if shown.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
}

/// `--add-ignore` and `--diff`: the changes written, or shown, and nothing else reported.
fn change_files(run: &RunResult, args: &CheckArgs) -> ExitCode {
    if let Some(message) = skipped_message(run) {
        eprintln!("{message}");
    }
    for error in &run.errors {
        eprintln!("cudalint: error: {error}");
    }
    if args.add_ignore {
        let changes = cudalint::fix::ignore_comments(run);
        let written = report_changes(
            &changes,
            &cudalint::fix::write(&changes),
            "added ignore comments for",
        );
        return if written && run.errors.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(2)
        };
    }
    let changes = cudalint::fix::safe_fixes(run);
    let diff: String = changes
        .files
        .iter()
        .map(cudalint::fix::unified_diff)
        .collect();
    if let Err(e) = std::io::stdout().write_all(diff.as_bytes()) {
        eprintln!("cudalint: error: cannot write the diff: {e}");
        return ExitCode::from(2);
    }
    report_changes(&changes, &[], "would fix");
    if !run.errors.is_empty() {
        ExitCode::from(2)
    } else if changes.files.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Says on stderr what a pass changed (`verb`: "fixed", ...); false when a file could not be
/// written.
fn report_changes(changes: &cudalint::fix::Changes, errors: &[String], verb: &str) -> bool {
    let findings: usize = changes.files.iter().map(|c| c.findings).sum();
    if findings > 0 {
        eprintln!(
            "cudalint: {verb} {findings} finding(s) in {} file(s)",
            changes.files.len()
        );
    }
    if changes.overlapping > 0 {
        eprintln!(
            "cudalint: {} fix(es) left out: their edits overlap another fix's (run --fix again)",
            changes.overlapping
        );
    }
    if !changes.unsuppressible.is_empty() {
        eprintln!(
            "cudalint: no comment added inside a macro continued over lines: {}",
            changes.unsuppressible.join(", ")
        );
    }
    if !changes.changed_since.is_empty() {
        eprintln!(
            "cudalint: changed on disk while being linted, left alone: {}",
            changes.changed_since.join(", ")
        );
    }
    for error in errors {
        eprintln!("cudalint: error: cannot write {error}");
    }
    errors.is_empty()
}

/// One line naming every special file the walks skipped.
fn skipped_message(run: &RunResult) -> Option<String> {
    if run.skipped_special.is_empty() {
        return None;
    }
    let names: Vec<String> = run
        .skipped_special
        .iter()
        .map(|s| format!("{} ({})", s.path, s.kind))
        .collect();
    let count = names.len();
    Some(format!(
        "cudalint: skipped {count} special file{} (not regular files, never opened): {}",
        if count == 1 { "" } else { "s" },
        names.join(", ")
    ))
}

fn run_parse_stats(args: ParseStatsArgs) -> ExitCode {
    let options = CheckOptions {
        config: args.config.clone(),
        defines: args.define.clone(),
        ..CheckOptions::default()
    };
    let (totals, stats, errors) = cudalint::parse_stats::measure(&args.paths, options);
    for error in &errors {
        eprintln!("cudalint: error: {error}");
    }
    let mut out = match args.format {
        StatsFormat::Terminal => cudalint::parse_stats::render_table(&totals),
        StatsFormat::Json => {
            let files = if args.per_file { Some(&stats) } else { None };
            let value = serde_json::json!({ "version": 1, "totals": totals, "files": files });
            serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
        }
    };
    if args.regions {
        out.push_str(&cudalint::parse_stats::render_regions(&stats));
    }
    if let Err(e) = std::io::stdout().write_all(out.as_bytes()) {
        eprintln!("cudalint: error: cannot write the report: {e}");
        return ExitCode::from(2);
    }
    // files that could not be read are reported but leave the numbers usable
    if totals.files == 0 && !errors.is_empty() {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// The rules the command line left enabled (a configuration file may narrow them further per
/// directory), and any rule that reported.
fn rules_that_ran(run: &RunResult, args: &CheckArgs) -> Vec<&'static Lint> {
    let reported = |name: &str| {
        run.reports
            .iter()
            .flat_map(|r| &r.diagnostics)
            .any(|d| d.rule == name)
    };
    let command_line = cudalint::config::Settings::default()
        .with_overrides(&args.select, &args.ignore)
        .with_extend_select(&args.extend_select);
    cudalint::lints::ALL
        .iter()
        .copied()
        .filter(|lint| command_line.rule_selected(lint.name) || reported(lint.name))
        .collect()
}

fn write_baseline(run: &RunResult, path: &Path) -> ExitCode {
    for error in &run.errors {
        eprintln!("cudalint: error: {error}");
    }
    let baseline = Baseline::from_run(run);
    if let Err(e) = std::fs::write(path, baseline.to_json()) {
        eprintln!(
            "cudalint: error: cannot write the baseline: {}: {}",
            path.display(),
            engine::io_message(&e)
        );
        return ExitCode::from(2);
    }
    let files = run
        .reports
        .iter()
        .filter(|r| !r.diagnostics.is_empty())
        .count();
    eprintln!(
        "cudalint: recorded {} finding(s) in {files} file(s) in {}",
        baseline.len(),
        path.display()
    );
    if run.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    }
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
                "{:<30} {:<15} {:<8} {:<8} SUMMARY",
                "RULE", "CATEGORY", "SEVERITY", "DEFAULT"
            );
            for lint in cudalint::lints::ALL {
                println!(
                    "{:<30} {:<15} {:<8} {:<8} {}",
                    lint.name,
                    lint.category.as_str(),
                    lint.default_severity.as_str(),
                    if lint.on_by_default() { "on" } else { "off" },
                    lint.summary
                );
            }
            ExitCode::SUCCESS
        }
        Some(name) => match cudalint::lints::find(&name) {
            Some(lint) => {
                let default = if lint.on_by_default() {
                    lint.default_severity.as_str()
                } else {
                    "off"
                };
                println!(
                    "{} ({}, {default} by default)\n",
                    lint.name,
                    lint.category.as_str(),
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
    if let Some(path) = &args.compile_commands {
        verify::context::set_compile_commands(path.clone());
    }
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
