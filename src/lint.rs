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
}

impl LintContext {
    pub fn new(lint: &Lint) -> Self {
        LintContext {
            rule: lint.name,
            severity: lint.default_severity,
            diagnostics: Vec::new(),
        }
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
/// optionally followed by `verifiable = true` and then `precision = Medium` (default `High`).
/// The documentation is `lints/<kebab-name>.md`, embedded at build time.
#[macro_export]
macro_rules! declare_lint {
    ($ident:ident, $name:literal, $category:ident, $severity:ident, $summary:literal, $check:path $(, verifiable = $verifiable:literal)? $(, precision = $precision:ident)?) => {
        pub static $ident: $crate::lint::Lint = $crate::lint::Lint {
            name: $name,
            category: $crate::lint::Category::$category,
            default_severity: $crate::diagnostic::Severity::$severity,
            summary: $summary,
            docs: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/lints/", $name, ".md")),
            verifiable: false $(|| $verifiable)?,
            precision: $crate::__lint_precision!($($precision)?),
            check: $check,
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
