//! Warps split into aligned groups of lanes: the lanes `G * k .. G * k + G` for `G` a power of
//! two dividing 32 (`G = 32` is the whole warp).
//!
//! Two facts meet here. The *lane group* of a condition is the largest such `G` for which every
//! group gets one answer: `threadIdx.x / 4 + blockIdx.x * 32 >= n` is the same for the four lanes
//! of each group of four, so lanes that return on it leave four at a time. The *partner span* of
//! a shuffle is the smallest such `G` whose group holds every lane a lane reads from:
//! `__shfl_xor_sync(m, v, o)` with `0 <= o < 4` reads inside the caller's group of four, and
//! `__shfl_down_sync(m, v, d, 8)` inside its group of eight. When lanes leave in groups at least
//! as large as a shuffle's partner span, no lane still running reads one that has left.

use super::warps::LaneForm;
use super::*;
use crate::model::ranges::Ranges;

/// How a value varies across the lanes of one aligned group of `G` lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GroupForm {
    /// The same for every lane of the group.
    Uniform,
    /// The lane's place in the group plus a multiple of `G` shared by the group.
    Aligned,
    /// Anything else, or not known.
    Other,
}

/// How a definition of a local sets it (`Analyzer::scaling_step`).
enum Step {
    Start,
    Up,
    Down,
    Other,
}

/// The group sizes tried, largest first.
const GROUP_SIZES: [u32; 5] = [32, 16, 8, 4, 2];

impl<'a, 't> Analyzer<'a, 't> {
    /// The largest `G` (a power of two dividing 32) such that `condition` has one answer for
    /// each aligned group of `G` lanes; 1 when no group larger than a lane is shown to agree.
    pub(crate) fn lane_group_size(&self, condition: Node<'t>) -> u32 {
        GROUP_SIZES
            .into_iter()
            .find(|&group| self.same_across_group(condition, group, 0))
            .unwrap_or(1)
    }

    /// The size of the smallest aligned lane group that holds every lane `call` reads from, for
    /// every lane that calls it; None for a call that reads no other lane (a vote) or one whose
    /// sources are not known.
    pub(crate) fn partner_span(&self, call: Node<'t>) -> Option<u32> {
        let name = self.text(call.field("function")?);
        let arguments = syntax::call_arguments(call);
        // a segment narrower than the warp: `__shfl_*_sync(m, v, x, width)` reads inside it (a
        // source past its end gives the caller's own value); an xor reads `lane ^ mask`, which
        // can reach an earlier segment, so it is judged by its mask alone
        let width = match arguments.get(3) {
            Some(width) => {
                let width = self.constant_value(*width, 0)?;
                u32::try_from(width)
                    .ok()
                    .filter(|w| w.is_power_of_two() && *w <= 32)?
            }
            None => 32,
        };
        match name {
            "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" => Some(width),
            "__shfl_xor_sync" => {
                let offset = *arguments.get(2)?;
                let (lowest, highest) = self.offset_bounds(offset)?;
                if lowest < 0 {
                    return None;
                }
                // every mask up to `highest` changes only the bits below its top one
                let span = u32::try_from(highest.min(31)).ok()?.saturating_add(1);
                Some(span.next_power_of_two())
            }
            _ => None,
        }
    }

    /// The least and greatest value an xor mask takes: a constant, a local that only shrinks
    /// from constant starts (`for (d = G / 2; d >= 1; d /= 2)`, `d >>= 1`), one that grows from
    /// them under a constant limit (`for (d = 1; d < G; d *= 2)`), or what the range analysis
    /// shows with the tests in force.
    fn offset_bounds(&self, offset: Node<'t>) -> Option<(i64, i64)> {
        if let Some(value) = self.constant_value(offset, 0) {
            return Some((value, value));
        }
        let in_force = || {
            let range = Ranges::new(self).range(offset, &self.current_comparisons().0);
            // a bound written with the file's constants (`d < G`) by their values
            let value = |bound: &crate::model::size::Sym| {
                let bind = |atom: &str| {
                    let model = self.model?;
                    let value = model.shared_scope().named_constant(atom)?;
                    Some(crate::model::size::Sym::constant(i128::from(value)))
                };
                i64::try_from(bound.substitute(&bind)?.as_constant()?).ok()
            };
            let lowest = range.lo.as_ref().and_then(value);
            let highest = value(range.hi.as_ref()?)?;
            Some((lowest, highest))
        };
        let offset = strip(offset, self.source);
        let name = self.text(offset);
        let definitions = (offset.node_kind() == "identifier" && !self.stepped_here(offset, name))
            .then(|| self.definitions.get(name))
            .flatten();
        let Some(definitions) = definitions else {
            let (lowest, highest) = in_force()?;
            return Some((lowest?, highest));
        };
        let (mut starts, mut shrinks, mut grows) = (Vec::new(), false, false);
        for definition in definitions {
            if !self.in_scope(*definition, offset) {
                continue;
            }
            match self.scaling_step(*definition, name) {
                Step::Up => grows = true,
                Step::Down => shrinks = true,
                Step::Start => starts.push(self.constant_value(*definition, 0)?),
                Step::Other => return None,
            }
        }
        let least_start = *starts.iter().min()?;
        let greatest_start = *starts.iter().max()?;
        match (shrinks, grows) {
            // halving a value that is not negative keeps it so, and never raises it
            (false, false) => Some((least_start, greatest_start)),
            // halving moves a value towards zero and never past it
            (true, false) => Some((least_start.min(0), greatest_start.max(0))),
            // doubling a value that is not negative keeps it at least its start
            (false, true) => {
                let (_, highest) = in_force()?;
                Some((least_start, highest.max(greatest_start)))
            }
            (true, true) => None,
        }
    }

    /// Whether a `++`/`--` of this `name` is in scope at `use_` (a sibling loop's `++i` steps
    /// another variable of the name).
    fn stepped_here(&self, use_: Node<'t>, name: &str) -> bool {
        self.updated.contains(name)
            && self
                .steps
                .get(name)
                .is_some_and(|steps| steps.iter().any(|step| self.in_scope(*step, use_)))
    }

    /// How a definition of `name` sets it: scaled up or down by a constant factor (`*= 2`,
    /// `d = d >> 1`), another step of the old value (`+= 4`), or a value of its own.
    fn scaling_step(&self, value: Node<'t>, name: &str) -> Step {
        let Some(parent) = value.up() else {
            return Step::Start;
        };
        if parent.node_kind() != "assignment_expression" || parent.field("right") != Some(value) {
            return Step::Start;
        }
        let (operation, factor) = match operator(parent, self.source) {
            "=" => {
                let value = strip(value, self.source);
                let reads_old = value.node_kind() == "binary_expression"
                    && value
                        .field("left")
                        .is_some_and(|left| syntax::same_text(left, self.source, name));
                match (reads_old, value.field("right")) {
                    (true, Some(right)) => (operator(value, self.source), right),
                    _ => return Step::Start,
                }
            }
            compound => match compound.strip_suffix('=') {
                Some(operation) => (operation, value),
                None => return Step::Other,
            },
        };
        match (operation, self.constant_value(factor, 0)) {
            ("*" | "<<", Some(factor)) if factor >= 0 => Step::Up,
            ("/", Some(factor)) if factor >= 1 => Step::Down,
            (">>", Some(factor)) if factor >= 0 => Step::Down,
            _ => Step::Other,
        }
    }

    /// Whether `condition` has one answer for each aligned group of `group` lanes.
    fn same_across_group(&self, condition: Node<'t>, group: u32, depth: usize) -> bool {
        if depth > 12 {
            return false;
        }
        let condition = strip(syntax::condition_value(condition), self.source);
        match condition.node_kind() {
            "unary_expression" if operator(condition, self.source) == "!" => condition
                .field("argument")
                .is_some_and(|a| self.same_across_group(a, group, depth + 1)),
            "binary_expression" => {
                let (Some(left), Some(right)) = (condition.field("left"), condition.field("right"))
                else {
                    return false;
                };
                match operator(condition, self.source) {
                    "&&" | "||" => {
                        self.same_across_group(left, group, depth + 1)
                            && self.same_across_group(right, group, depth + 1)
                    }
                    op @ ("<" | "<=" | ">" | ">=" | "==" | "!=") => {
                        let (a, b) = (
                            self.group_form(left, group, depth + 1, &mut Vec::new()),
                            self.group_form(right, group, depth + 1, &mut Vec::new()),
                        );
                        match (a, b) {
                            (GroupForm::Uniform, GroupForm::Uniform) => true,
                            (GroupForm::Aligned, GroupForm::Uniform) => {
                                self.at_group_boundary(op, right, false, group)
                            }
                            (GroupForm::Uniform, GroupForm::Aligned) => {
                                self.at_group_boundary(op, left, true, group)
                            }
                            _ => false,
                        }
                    }
                    _ => {
                        self.group_form(condition, group, depth + 1, &mut Vec::new())
                            == GroupForm::Uniform
                    }
                }
            }
            _ => {
                self.group_form(condition, group, depth + 1, &mut Vec::new()) == GroupForm::Uniform
            }
        }
    }

    /// An aligned value compared with `bound`: one answer per group when the bound is the same
    /// for the whole warp and sits at a group boundary for the relation (`x < 8 * k`, `x <= 7`).
    fn at_group_boundary(&self, op: &str, bound: Node<'t>, flipped: bool, group: u32) -> bool {
        let Some(offset) = super::warps::split_offset(op, flipped) else {
            return false;
        };
        if self.lane_form(bound, 0) != LaneForm::Uniform {
            return false;
        }
        match self.constant_value(bound, 0) {
            Some(value) => (value + offset).rem_euclid(i64::from(group)) == 0,
            None => offset == 0 && self.multiple_of_group(bound, group, 0),
        }
    }

    /// Whether `value` is a multiple of `group` for every launch: a constant that is, one known
    /// to be a multiple of 32, a product with such a factor.
    fn multiple_of_group(&self, value: Node<'t>, group: u32, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        if let Some(value) = self.constant_value(value, 0) {
            return value.rem_euclid(i64::from(group)) == 0;
        }
        if self.multiple_of_warp(value, 0, 0) {
            return true;
        }
        let value = strip(value, self.source);
        if value.node_kind() != "binary_expression" {
            return false;
        }
        let (Some(left), Some(right)) = (value.field("left"), value.field("right")) else {
            return false;
        };
        match operator(value, self.source) {
            "*" => {
                self.multiple_of_group(left, group, depth + 1)
                    || self.multiple_of_group(right, group, depth + 1)
            }
            "+" | "-" => {
                self.multiple_of_group(left, group, depth + 1)
                    && self.multiple_of_group(right, group, depth + 1)
            }
            "<<" => self
                .constant_value(right, 0)
                .and_then(|shift| u32::try_from(shift).ok())
                .is_some_and(|shift| shift < 32 && (1u32 << shift).is_multiple_of(group)),
            _ => false,
        }
    }

    /// How `value` varies across an aligned group of `group` lanes. What the reasoning cannot
    /// place is `Other`: a group is only taken to agree where that is shown.
    fn group_form(
        &self,
        value: Node<'t>,
        group: u32,
        depth: usize,
        visiting: &mut Vec<&'a str>,
    ) -> GroupForm {
        use GroupForm::*;
        if depth > 16 {
            return Other;
        }
        let value = strip(value, self.source);
        // the whole warp's forms hold for each of its groups
        match self.lane_form(value, 0) {
            LaneForm::Uniform => return Uniform,
            LaneForm::Aligned => return Aligned,
            LaneForm::Varying | LaneForm::Unknown => {}
        }
        match value.node_kind() {
            "identifier" => {
                let name = self.text(value);
                if visiting.contains(&name) || self.stepped_here(value, name) {
                    return Other;
                }
                let Some(values) = self.definitions_in_scope(name, value) else {
                    return Other;
                };
                if values.is_empty() {
                    return Other;
                }
                visiting.push(name);
                let forms: Vec<GroupForm> = values
                    .iter()
                    .map(|d| self.group_form(*d, group, depth + 1, visiting))
                    .collect();
                visiting.pop();
                if forms.iter().all(|f| *f == Uniform) {
                    Uniform
                } else if forms.iter().all(|f| *f == Aligned) {
                    Aligned
                } else {
                    Other
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (value.field("left"), value.field("right")) else {
                    return Other;
                };
                let op = operator(value, self.source);
                if matches!(op, "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||") {
                    return if self.same_across_group(value, group, depth + 1) {
                        Uniform
                    } else {
                        Other
                    };
                }
                let a = self.group_form(left, group, depth + 1, visiting);
                let b = self.group_form(right, group, depth + 1, visiting);
                if a == Other || b == Other {
                    return Other;
                }
                if a == Uniform && b == Uniform {
                    return Uniform;
                }
                match op {
                    "+" => match (a, b) {
                        (Aligned, Uniform) if self.multiple_of_group(right, group, 0) => Aligned,
                        (Uniform, Aligned) if self.multiple_of_group(left, group, 0) => Aligned,
                        _ => Other,
                    },
                    "-" if b == Uniform && self.multiple_of_group(right, group, 0) => Aligned,
                    // `tid / 4`: the group's number (a multiple of the group plus less than it,
                    // divided by a multiple of the group, drops the part below it)
                    "/" if b == Uniform && self.multiple_of_group(right, group, 0) => Uniform,
                    ">>" if b == Uniform => {
                        let shifted_out = self
                            .constant_value(right, 0)
                            .and_then(|shift| u32::try_from(shift).ok())
                            .is_some_and(|shift| {
                                shift < 32 && (1u32 << shift).is_multiple_of(group)
                            });
                        if shifted_out {
                            Uniform
                        } else {
                            Other
                        }
                    }
                    "%" if b == Uniform && self.multiple_of_group(right, group, 0) => Aligned,
                    "&" => {
                        let mask = match (a, b) {
                            (Aligned, Uniform) => self.constant_value(right, 0),
                            (Uniform, Aligned) => self.constant_value(left, 0),
                            _ => None,
                        };
                        let low = i64::from(group) - 1;
                        match mask {
                            Some(m) if m & low == low => Aligned,
                            Some(m) if m & low == 0 => Uniform,
                            _ => Other,
                        }
                    }
                    _ => Other,
                }
            }
            "conditional_expression" => {
                let (Some(condition), Some(yes), Some(no)) = (
                    value.field("condition"),
                    value.field("consequence"),
                    value.field("alternative"),
                ) else {
                    return Other;
                };
                if !self.same_across_group(condition, group, depth + 1) {
                    return Other;
                }
                let yes = self.group_form(yes, group, depth + 1, visiting);
                let no = self.group_form(no, group, depth + 1, visiting);
                if yes == no {
                    yes
                } else {
                    Other
                }
            }
            _ => Other,
        }
    }
}

#[cfg(test)]
mod tests {
    /// For each collective of the kernel `k`: the lane group of its splitting return's condition
    /// as the kernel has it, and its partner span.
    fn facts(body: &str) -> Vec<(Option<u32>, Option<u32>)> {
        let source = format!(
            "#define G 4\n#define WARP_SIZE 32\n__global__ void k(float* o, int n) {{ {body} }}"
        );
        crate::verify::with_model(std::path::Path::new("k.cu"), &source, |model| {
            model
                .kernel_facts()
                .flat_map(|(_, facts)| facts.collectives.iter())
                .map(|c| (c.exit_group, c.partner_span))
                .collect()
        })
        .unwrap_or_default()
    }

    #[test]
    fn lane_groups_of_return_conditions() {
        for (condition, group) in [
            ("threadIdx.x / 4 >= n", 4),
            ("threadIdx.x / G + blockIdx.x * 32 >= n", 4),
            ("(threadIdx.x >> 3) < n", 8),
            ("threadIdx.x / 16 == n", 16),
            ("threadIdx.x / 2 >= n || blockIdx.x > 3", 2),
            ("threadIdx.x / 8 >= n && threadIdx.x / 4 != 1", 4),
            ("(threadIdx.x & ~7) >= n", 8),
            ("threadIdx.x % 32 < 8", 8),
            ("(threadIdx.x & 31) >= 24", 8),
            ("threadIdx.x < 12", 4),
            // a lane of its own
            ("threadIdx.x < n", 1),
            ("threadIdx.x / 3 >= n", 1),
            ("threadIdx.x % 2 == 0", 1),
            ("threadIdx.x / 4 * 4 + threadIdx.x % 2 < n", 1),
        ] {
            let body = format!(
                "if ({condition}) return; float v = o[0]; v += __shfl_xor_sync(0xffffffff, v, 1); o[0] = v;"
            );
            assert_eq!(facts(&body), [(Some(group), Some(2))], "{condition}");
        }
        // through locals, as a group's number is written
        assert_eq!(
            facts("int group = threadIdx.x / G; int col = blockIdx.x * 32 + group; if (col >= n) return; float v = o[col]; v += __shfl_xor_sync(0xffffffff, v, 2); o[col] = v;"),
            [(Some(4), Some(4))]
        );
    }

    #[test]
    fn partner_spans_of_shuffles() {
        let span = |call: &str| {
            let body = format!("float v = o[threadIdx.x]; v += {call}; o[threadIdx.x] = v;");
            facts(&body).first().and_then(|(_, span)| *span)
        };
        assert_eq!(span("__shfl_xor_sync(0xffffffff, v, 1)"), Some(2));
        assert_eq!(span("__shfl_xor_sync(0xffffffff, v, 3)"), Some(4));
        assert_eq!(span("__shfl_xor_sync(0xffffffff, v, 16)"), Some(32));
        assert_eq!(span("__shfl_down_sync(0xffffffff, v, 1)"), Some(32));
        assert_eq!(span("__shfl_down_sync(0xffffffff, v, 1, 8)"), Some(8));
        assert_eq!(span("__shfl_up_sync(0xffffffff, v, 1, G)"), Some(4));
        assert_eq!(span("__shfl_sync(0xffffffff, v, 0, 16)"), Some(16));
        assert_eq!(span("__shfl_sync(0xffffffff, v, 0)"), Some(32));
        assert_eq!(span("__shfl_sync(0xffffffff, v, 0, n)"), None);
        assert_eq!(span("__shfl_xor_sync(0xffffffff, v, n)"), None);
        assert_eq!(span("__ballot_sync(0xffffffff, v > 0)"), None);
        // the offsets a halving loop takes
        let looped = |start: &str| {
            let body = format!("float v = o[0]; for (int d = {start}; d >= 1; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d); o[0] = v;");
            facts(&body).first().and_then(|(_, span)| *span)
        };
        assert_eq!(looped("G / 2"), Some(4));
        assert_eq!(looped("8"), Some(16));
        assert_eq!(looped("16"), Some(32));
        // a sibling loop's `++d` steps another `d`
        assert_eq!(
            facts("float v = o[0]; for (int d = 0; d < n; ++d) v += o[d]; for (int d = 2; d >= 1; d /= 2) v += __shfl_xor_sync(0xffffffff, v, d); o[0] = v;")
                .first()
                .and_then(|(_, span)| *span),
            Some(4)
        );
        assert_eq!(
            facts("float v = o[0]; for (int d = 1; d < G; d *= 2) v += __shfl_xor_sync(0xffffffff, v, d); o[0] = v;")
                .first()
                .and_then(|(_, span)| *span),
            Some(4)
        );
    }
}
