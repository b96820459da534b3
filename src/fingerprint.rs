//! Identities of findings that survive edits elsewhere in a file: a hash of the rule and the
//! offending line's trimmed text, numbered among the findings of one file with the same hash (as
//! code scanning's `primaryLocationLineHash` is), so inserting or moving unrelated lines changes
//! nothing. Baselines, SARIF and GitLab reports all key findings on it.

use crate::diagnostic::Diagnostic;
use crate::engine::FileReport;
use crate::render::Positions;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint {
    /// 16 hex digits of SHA-256 over the rule and the trimmed line.
    pub line_hash: String,
    /// 1-based rank among the file's findings with the same `line_hash`, in source order.
    pub occurrence: usize,
}

impl Fingerprint {
    /// `hash:N`, the form of SARIF's `partialFingerprints.primaryLocationLineHash`.
    pub fn primary_location_line_hash(&self) -> String {
        format!("{}:{}", self.line_hash, self.occurrence)
    }
}

pub fn line_hash(rule: &str, line: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(rule.as_bytes());
    hasher.update([0u8]);
    hasher.update(line.trim().as_bytes());
    hex_prefix(&hasher.finalize(), 8)
}

/// Lowercase hex of the first `bytes` bytes of a digest.
pub fn hex_prefix(digest: &[u8], bytes: usize) -> String {
    digest
        .iter()
        .take(bytes)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The fingerprint of each of the report's diagnostics, index for index.
pub fn fingerprints(report: &FileReport, positions: &Positions) -> Vec<Fingerprint> {
    fingerprints_of(&report.diagnostics, positions)
}

pub fn fingerprints_of(diagnostics: &[Diagnostic], positions: &Positions) -> Vec<Fingerprint> {
    let hashes: Vec<String> = diagnostics
        .iter()
        .map(|diagnostic| {
            let line = positions.region(&diagnostic.span).line;
            line_hash(diagnostic.rule, positions.line_text(line))
        })
        .collect();
    // Rank in source order whatever order the diagnostics come in.
    let mut order: Vec<usize> = (0..diagnostics.len()).collect();
    order.sort_by_key(|&index| {
        diagnostics
            .get(index)
            .map(|d| (d.span.start, d.span.end, d.rule))
    });
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut occurrences = vec![0; diagnostics.len()];
    for index in order {
        if let (Some(hash), Some(slot)) = (hashes.get(index), occurrences.get_mut(index)) {
            let count = seen.entry(hash.as_str()).or_insert(0);
            *count += 1;
            *slot = *count;
        }
    }
    hashes
        .into_iter()
        .zip(occurrences)
        .map(|(line_hash, occurrence)| Fingerprint {
            line_hash,
            occurrence,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;
    use std::sync::Arc;

    fn report(source: &str, spans: &[(&'static str, &str)]) -> FileReport {
        let diagnostics = spans
            .iter()
            .map(|(rule, needle)| {
                let start = source.find(needle).unwrap_or(0);
                Diagnostic::new(rule, start..start + needle.len(), "m")
            })
            .collect();
        FileReport {
            path: "a.cu".into(),
            display_path: "a.cu".into(),
            source: Arc::from(source),
            diagnostics,
            skipped_regions: 0,
            findings_on_broken_code: 0,
            warning: None,
        }
    }

    #[test]
    fn identical_lines_are_numbered_in_source_order() {
        let source = "  out[i] = 1;\nout[i] = 1;   \nout[j] = 1;\n";
        let mut r = report(source, &[]);
        r.diagnostics = vec![
            Diagnostic::new("r", 14..20, "second"),
            Diagnostic::new("r", 2..8, "first"),
            Diagnostic::new("r", 29..35, "other line"),
            Diagnostic::new("q", 2..8, "other rule"),
        ];
        let positions = Positions::new(&r);
        let found = fingerprints(&r, &positions);
        let first = &found[1];
        let second = &found[0];
        assert_eq!(
            first.line_hash, second.line_hash,
            "trimmed lines hash alike"
        );
        assert_eq!((first.occurrence, second.occurrence), (1, 2));
        assert_ne!(found[2].line_hash, first.line_hash);
        assert_ne!(
            found[3].line_hash, first.line_hash,
            "the rule is part of the hash"
        );
        assert_eq!(found[3].occurrence, 1);
        assert_eq!(
            first.primary_location_line_hash(),
            format!("{}:1", first.line_hash)
        );
        assert_eq!(first.line_hash.len(), 16);
    }

    #[test]
    fn inserting_lines_above_keeps_fingerprints() {
        let before = report("void f() {\n    out[i] = 1;\n}\n", &[("r", "out[i]")]);
        let after = report(
            "// new\n\nvoid f() {\n    out[i] = 1;\n}\n",
            &[("r", "out[i]")],
        );
        let a = fingerprints(&before, &Positions::new(&before));
        let b = fingerprints(&after, &Positions::new(&after));
        assert_eq!(a, b);
    }
}
