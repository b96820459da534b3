//! Findings as every renderer sees them: byte spans in one file, no knowledge of lints.

use serde::{Deserialize, Serialize};
use std::ops::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "info" | "note" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A secondary location: the allocation, the guard, the declaration of an index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub span: Range<usize>,
    pub message: String,
}

/// A text edit that resolves or suppresses a finding (used by the LSP code actions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub span: Range<usize>,
    pub replacement: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
    /// Whether `--fix` may apply it unasked: the change keeps every correct behaviour (a guard
    /// whose bound the launch pairs with the index). Others are offered in editors only.
    pub safe: bool,
}

/// The outcome of `--verify` for one finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verification {
    /// `confirmed`, `not-reproduced` or `not-verifiable`.
    pub status: String,
    pub detail: String,
    /// The compiler and build context the experiment was compiled with, when one ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiler: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub severity: Severity,
    /// The exact offending expression, as byte offsets into the original text.
    pub span: Range<usize>,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    pub fix: Option<Fix>,
    pub verification: Option<Verification>,
}

impl Diagnostic {
    pub fn new(rule: &'static str, span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: Severity::Warning,
            span,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            fix: None,
            verification: None,
        }
    }

    pub fn with_label(mut self, span: Range<usize>, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fix = Some(fix);
        self
    }
}
