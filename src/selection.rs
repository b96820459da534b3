//! Rule selectors: a rule's name, or a category (`kernel`, `memory`, `error-handling`, ...) that
//! stands for every rule in it, on the command line and in the configuration alike.

/// The rules a selector names, or `None` when it is neither a rule nor a category.
pub fn expand(selector: &str) -> Option<Vec<&'static str>> {
    if let Some(lint) = crate::lints::find(selector) {
        return Some(vec![lint.name]);
    }
    let rules: Vec<&'static str> = crate::lints::ALL
        .iter()
        .filter(|lint| lint.category.as_str() == selector)
        .map(|lint| lint.name)
        .collect();
    (!rules.is_empty()).then_some(rules)
}

/// Expands every selector, or names the first one that is neither a rule nor a category.
pub fn expand_all(selectors: &[String]) -> Result<Vec<String>, String> {
    let mut rules = Vec::new();
    for selector in selectors {
        let expanded = expand(selector).ok_or_else(|| selector.clone())?;
        for rule in expanded {
            if !rules.iter().any(|r| r == rule) {
                rules.push(rule.to_string());
            }
        }
    }
    Ok(rules)
}

/// The categories that have at least one rule, in the order the rules are listed.
pub fn categories() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for lint in crate::lints::ALL {
        if !names.contains(&lint.category.as_str()) {
            names.push(lint.category.as_str());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_category_stands_for_its_rules_and_a_rule_for_itself() {
        let kernel = expand("kernel").unwrap();
        assert!(kernel.contains(&"unguarded-thread-index"));
        assert!(!kernel.contains(&"unchecked-cuda-call"));
        assert_eq!(expand("double-free"), Some(vec!["double-free"]));
        assert_eq!(expand("no-such-thing"), None);
        let both = expand_all(&["kernel".into(), "unguarded-thread-index".into()]).unwrap();
        assert_eq!(both.len(), kernel.len(), "no rule twice");
        assert_eq!(
            expand_all(&["memory".into(), "nope".into()]),
            Err("nope".into())
        );
        assert!(categories().contains(&"error-handling"));
    }
}
