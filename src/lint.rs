//! What a lint is: a declaration (name, category, severity, summary, documentation) and a check
//! that reads the semantic model and reports diagnostics.

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::Model;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// Bounds and synchronisation inside kernels.
    Kernel,
    /// Allocation, copies and launches in host code.
    Memory,
    /// Errors nobody reads.
    ErrorHandling,
    /// Launch configurations.
    Launch,
    /// The linter's own housekeeping (suppressions).
    Meta,
}

/// How often a finding of the rule is a real problem (SARIF's `precision`, shown by code scanning).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// Follows from the text alone (a suppression that matches nothing).
    VeryHigh,
    /// Follows from the code's own guards and sizes; a false positive is a bug in the rule.
    High,
    /// Depends on values the analysis cannot see.
    Medium,
    Low,
}

impl Precision {
    pub fn as_str(self) -> &'static str {
        match self {
            Precision::VeryHigh => "very-high",
            Precision::High => "high",
            Precision::Medium => "medium",
            Precision::Low => "low",
        }
    }
}

impl Category {
    pub const ALL: [Category; 5] = [
        Category::Kernel,
        Category::Memory,
        Category::ErrorHandling,
        Category::Launch,
        Category::Meta,
    ];

    /// Whether the category's rules run when nothing is selected. Error-handling rules are
    /// opt-in: unchecked calls are the norm in samples and benchmarks, and thousands of them
    /// would bury the out-of-bounds write a user came for (ruff keeps style rules out of its
    /// default set for the same reason).
    pub fn on_by_default(self) -> bool {
        !matches!(self, Category::ErrorHandling)
    }

    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Kernel => "kernel",
            Category::Memory => "memory",
            Category::ErrorHandling => "error-handling",
            Category::Launch => "launch",
            Category::Meta => "meta",
        }
    }
}

pub struct Lint {
    /// The stable public ID, kebab-case.
    pub name: &'static str,
    pub category: Category,
    pub default_severity: Severity,
    /// One line, lowercase, no trailing period.
    pub summary: &'static str,
    /// The markdown documentation (`lints/<name>.md`): What it finds, Why is this bad, Example, Fix.
    pub docs: &'static str,
    /// Whether `--verify` can confirm a finding on a GPU.
    pub verifiable: bool,
    /// `high` unless the declaration says otherwise.
    pub precision: Precision,
    /// Reports each finding (its span, labels and fix) inside the function whose facts produced
    /// it: the language server keeps a function's findings while its text is unchanged, and
    /// hands the check only the facts of the functions that changed.
    pub check: fn(&Model, &mut LintContext),
    /// Combines the findings left after suppressions (one per function instead of one per
    /// call), so a suppression still silences the single finding it sits on.
    pub merge: Option<MergeFn>,
}

pub type MergeFn = fn(&Model, Vec<Diagnostic>) -> Vec<Diagnostic>;

impl Lint {
    pub fn on_by_default(&self) -> bool {
        self.category.on_by_default()
    }
}

/// Settings a check reads besides the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LintOptions {
    /// Report discarded error codes of teardown calls (cudaFree at the end of `main`, in a
    /// destructor) too.
    pub strict_error_checks: bool,
}

impl std::fmt::Debug for Lint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lint").field("name", &self.name).finish()
    }
}

/// Collects what one lint reports on one file.
pub struct LintContext {
    rule: &'static str,
    severity: Severity,
    diagnostics: Vec<Diagnostic>,
    pub options: LintOptions,
}

impl LintContext {
    pub fn new(lint: &Lint) -> Self {
        LintContext {
            rule: lint.name,
            severity: lint.default_severity,
            diagnostics: Vec::new(),
            options: LintOptions::default(),
        }
    }

    pub fn with_options(mut self, options: LintOptions) -> Self {
        self.options = options;
        self
    }

    pub fn report(&mut self, mut diagnostic: Diagnostic) {
        diagnostic.rule = self.rule;
        diagnostic.severity = self.severity;
        self.diagnostics.push(diagnostic);
    }

    /// A diagnostic for this lint (the rule name filled in).
    pub fn diagnostic(
        &self,
        span: std::ops::Range<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic::new(self.rule, span, message)
    }

    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }
}

/// Declares a lint: `declare_lint!(NAME, "kebab-name", Category, Severity, "summary", check);`
/// optionally followed by `verifiable = true`, then `precision = Medium` (default `High`), then
/// `merge = path` (see `Lint::merge`).
/// The documentation is `lints/<kebab-name>.md`, embedded at build time.
#[macro_export]
macro_rules! declare_lint {
    ($ident:ident, $name:literal, $category:ident, $severity:ident, $summary:literal, $check:path $(, verifiable = $verifiable:literal)? $(, precision = $precision:ident)? $(, merge = $merge:path)?) => {
        pub static $ident: $crate::lint::Lint = $crate::lint::Lint {
            name: $name,
            category: $crate::lint::Category::$category,
            default_severity: $crate::diagnostic::Severity::$severity,
            summary: $summary,
            docs: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/lints/", $name, ".md")),
            verifiable: false $(|| $verifiable)?,
            precision: $crate::__lint_precision!($($precision)?),
            check: $check,
            merge: $crate::__lint_merge!($($merge)?),
        };
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __lint_precision {
    () => {
        $crate::lint::Precision::High
    };
    ($precision:ident) => {
        $crate::lint::Precision::$precision
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __lint_merge {
    () => {
        None
    };
    ($merge:path) => {
        Some($merge)
    };
}
