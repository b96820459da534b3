//! Warp collectives (`__shfl_*_sync`, `__ballot_sync`, ...) and whether the conditions in force
//! where they run can hold for some lanes of a warp and not for others.
//!
//! A thread's `threadIdx.x` is `32 * w + l`, its warp `w` and its lane `l`. A value is *aligned*
//! when it is the lane plus a multiple of 32 that the whole warp shares (`threadIdx.x`, the
//! global index `blockIdx.x * blockDim.x + threadIdx.x`, `tid % 64`, `tid & 31`, a loop variable
//! that starts aligned and steps by whole warps): a comparison of an aligned value with a
//! warp-uniform bound is the same for all lanes of a warp exactly when the bound is a multiple of
//! 32 (`tid < 64`, `tid < warpSize`, `i < n` only when `n` is). A value divided by a multiple of
//! 32 (`tid / 32`, `tid >> 5`) is the warp's. Block widths are taken to be whole warps, as a
//! warp-synchronous kernel is written for, so `threadIdx.y` and `blockIdx.x * blockDim.x` are the
//! same for all lanes of a warp. What the reasoning cannot place (a helper's result, a value
//! read from memory) is taken as uniform: only a split it can show is reported.

use super::*;

/// A call that exchanges values or votes between the lanes its mask names.
#[derive(Debug, Clone)]
pub struct WarpCollective<'t> {
    /// The call (for a helper that reaches one, the call of the helper).
    pub node: Node<'t>,
    /// The intrinsic (`__shfl_down_sync`).
    pub intrinsic: String,
    /// The mask argument, when the call is the intrinsic itself.
    pub mask: Option<Node<'t>>,
    /// Whether the mask names all 32 lanes (`0xffffffff`, `-1`, `FULL_MASK`).
    pub full_mask: bool,
    /// The condition in force that holds for some lanes of a warp and not for others.
    pub splitting_condition: Option<Node<'t>>,
    /// Whether that condition is an early `return`, `continue` or `break` before the call.
    pub after_early_exit: bool,
    /// Whether the threads that left took a `return` (they have exited) rather than a `continue`
    /// or `break` (they are alive elsewhere).
    pub exited: bool,
    /// For a call of a device function that reaches a collective, where it is.
    pub via: Option<BarrierVia>,
    /// When lanes of the warp may have returned before the call: the size of the aligned lane
    /// groups they leave in, the smallest over the returns in force (32: whole warps only; 1:
    /// single lanes). See `lane_groups`.
    pub exit_group: Option<u32>,
    /// For a shuffle: the size of the aligned lane group that holds every lane it reads from
    /// (`__shfl_xor_sync(m, v, 1)`: 2; `__shfl_down_sync(m, v, d)`: 32).
    pub partner_span: Option<u32>,
}

/// The warp intrinsics that name their lanes with a mask as first argument.
pub fn is_collective(name: &str) -> bool {
    matches!(
        name,
        "__shfl_sync"
            | "__shfl_up_sync"
            | "__shfl_down_sync"
            | "__shfl_xor_sync"
            | "__ballot_sync"
            | "__any_sync"
            | "__all_sync"
            | "__uni_sync"
            | "__match_any_sync"
            | "__match_all_sync"
            | "__reduce_add_sync"
            | "__reduce_min_sync"
            | "__reduce_max_sync"
            | "__reduce_and_sync"
            | "__reduce_or_sync"
            | "__reduce_xor_sync"
    )
}

/// Whether a lane that reads another's value needs that lane present: the shuffles. A vote,
/// match or reduction counts only the lanes that have not exited.
pub fn reads_other_lanes(name: &str) -> bool {
    matches!(
        name,
        "__shfl_sync" | "__shfl_down_sync" | "__shfl_xor_sync" | "__shfl_up_sync"
    )
}

/// How a value varies across the 32 lanes of one warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LaneForm {
    /// The same for every lane of a warp.
    Uniform,
    /// The lane plus a multiple of 32 shared by the warp.
    Aligned,
    /// Differs between lanes in some other way (`tid * 2`, `tid + 1`, `tid == 0`).
    Varying,
    /// Not known (a helper's result, a local with no visible definition): taken as uniform.
    Unknown,
}

impl<'a, 't> Analyzer<'a, 't> {
    /// A warp collective called here: `__shfl_down_sync(mask, ...)` itself, or a device function
    /// whose body reaches one with a full mask.
    pub(super) fn record_collective(&mut self, call: Node<'t>) {
        let Some(function) = call.field("function") else {
            return;
        };
        let name = self.text(function);
        let (intrinsic, mask, full_mask, via) = if is_collective(name) {
            let mask = call
                .field("arguments")
                .and_then(|a| named_children(a).find(|c| c.node_kind() != "comment"));
            let full = mask.is_some_and(|m| self.names_all_lanes(m, 0));
            (name.to_string(), mask, full, None)
        } else {
            let Some((summary, _)) = self.helper_call(call) else {
                return;
            };
            let Some(site) = summary.collective.as_ref() else {
                return;
            };
            let file = self
                .helpers
                .foreign_file(&site.function, site.arity)
                .map(std::path::Path::to_path_buf);
            let start = self.helpers.start(&site.function, site.arity);
            if start.is_none() && file.is_none() {
                return;
            }
            let via = BarrierVia {
                helper: summary.name.clone(),
                function: site.function.clone(),
                span: start.map(|start| start + site.span.start..start + site.span.end),
                file,
            };
            (site.intrinsic.clone(), None, true, Some(via))
        };
        // a helper's collectives read inside the groups its summary gives
        let partner_span = match &via {
            None => self.partner_span(call),
            Some(_) => self
                .helper_call(call)
                .and_then(|(summary, _)| summary.collective.as_ref()?.partner_span),
        };
        let returns_splitting: Vec<(Node<'t>, u32)> = self
            .facts
            .iter()
            .filter(|fact| {
                fact.exit == Exit::Return
                    && !self.exits_no_thread(fact.condition.node)
                    && self.splits_warp(fact.condition.node)
            })
            .map(|fact| {
                (
                    fact.condition.node,
                    self.lane_group_size(fact.condition.node),
                )
            })
            .collect();
        let exit_group = returns_splitting.iter().map(|(_, group)| *group).min();
        // lanes that return in whole groups leave no hole in a group the shuffle reads inside
        let leaves_partners = |condition: Node<'t>| {
            partner_span.is_some_and(|span| {
                returns_splitting
                    .iter()
                    .any(|(c, group)| *c == condition && *group >= span)
            })
        };
        let splitting = self
            .facts
            .iter()
            .filter(|fact| {
                fact.exit != Exit::Stated
                    && (fact.exit != Exit::Return || reads_other_lanes(&intrinsic))
                    && (fact.exit != Exit::Return || !self.exits_no_thread(fact.condition.node))
                    && (fact.exit != Exit::Return || !leaves_partners(fact.condition.node))
                    && (fact.exit != Exit::None || !self.exits_no_thread(fact.condition.node))
                    && !self.has_uniform_trip_count(fact.condition.node)
                    && !self.compares_two_thread_values(fact.condition.node)
            })
            .find(|fact| self.splits_warp(fact.condition.node))
            .copied();
        self.out.collectives.push(WarpCollective {
            node: call,
            intrinsic,
            mask,
            full_mask,
            splitting_condition: splitting.map(|f| f.condition.node),
            after_early_exit: splitting
                .is_some_and(|f| matches!(f.exit, Exit::Skip | Exit::Return)),
            exited: splitting.is_some_and(|f| f.exit == Exit::Return),
            via,
            exit_group,
            partner_span,
        });
    }

    /// Whether `condition` can hold for some lanes of a warp and not for others.
    pub(crate) fn splits_warp(&self, condition: Node<'t>) -> bool {
        self.deps_where_read(syntax::condition_value(condition))
            .varies_within_block()
            && self.condition_form(condition, 0) == LaneForm::Varying
    }

    /// How a condition's truth varies across a warp: `Uniform` when every lane of a warp gets
    /// the same answer, `Varying` when the reasoning shows lanes that differ.
    fn condition_form(&self, condition: Node<'t>, depth: usize) -> LaneForm {
        if depth > 12 {
            return LaneForm::Unknown;
        }
        let condition = strip(syntax::condition_value(condition), self.source);
        match condition.node_kind() {
            "unary_expression" if operator(condition, self.source) == "!" => condition
                .field("argument")
                .map_or(LaneForm::Unknown, |a| self.condition_form(a, depth + 1)),
            "binary_expression" => {
                let (Some(left), Some(right)) = (condition.field("left"), condition.field("right"))
                else {
                    return LaneForm::Unknown;
                };
                let op = operator(condition, self.source);
                match op {
                    "&&" | "||" => {
                        let (a, b) = (
                            self.condition_form(left, depth + 1),
                            self.condition_form(right, depth + 1),
                        );
                        if a == LaneForm::Varying || b == LaneForm::Varying {
                            LaneForm::Varying
                        } else {
                            LaneForm::Uniform
                        }
                    }
                    "<" | "<=" | ">" | ">=" | "==" | "!=" => {
                        self.comparison_form(left, op, right, depth)
                    }
                    _ => self.value_as_condition(condition, depth),
                }
            }
            "identifier" => {
                // a flag holding a test (`const bool leader = lane == 0;`)
                match guards::Flags::flag_value(self, self.text(condition)) {
                    Some(value) if strip(value, self.source) != condition => {
                        self.condition_form(value, depth + 1)
                    }
                    _ => self.value_as_condition(condition, depth),
                }
            }
            _ => self.value_as_condition(condition, depth),
        }
    }

    /// A value tested for being non-zero (`if (lane)`, `if (tid & 1)`).
    fn value_as_condition(&self, value: Node<'t>, depth: usize) -> LaneForm {
        match self.lane_form(value, depth + 1) {
            LaneForm::Uniform => LaneForm::Uniform,
            LaneForm::Unknown => LaneForm::Unknown,
            // `if (tid)`: lane 0 of warp 0 differs from the others
            LaneForm::Aligned | LaneForm::Varying => LaneForm::Varying,
        }
    }

    /// `left op right`: the same for a whole warp when both sides are, or when an aligned value
    /// is compared with a uniform bound at a warp boundary (`tid < 64`, `tid <= 31`).
    fn comparison_form(&self, left: Node<'t>, op: &str, right: Node<'t>, depth: usize) -> LaneForm {
        let (a, b) = (
            self.lane_form(left, depth + 1),
            self.lane_form(right, depth + 1),
        );
        use LaneForm::*;
        match (a, b) {
            (Uniform, Uniform) => Uniform,
            (Unknown, _) | (_, Unknown) => Unknown,
            (Aligned, Uniform) => self.boundary_form(op, right, false),
            (Uniform, Aligned) => self.boundary_form(op, left, true),
            // two per-lane values (`i < j`): whether they split a warp is not known
            (Aligned, Aligned) => Unknown,
            _ => Varying,
        }
    }

    /// An aligned value compared with the uniform `bound`: the same for a whole warp when the
    /// bound sits at a warp boundary for that relation. `flipped`: the bound is on the left.
    fn boundary_form(&self, op: &str, bound: Node<'t>, flipped: bool) -> LaneForm {
        // `lane == 0` splits the warp
        let Some(offset) = split_offset(op, flipped) else {
            return LaneForm::Varying;
        };
        if self.multiple_of_warp(bound, offset, 0) {
            LaneForm::Uniform
        } else if offset == 0 && self.is_opaque_compile_time_constant(bound) {
            // `idx >= kMathThreads` with `constexpr int kMathThreads = size(TiledMma{});`, or a
            // traits member `Traits::kNThreads`: fixed when the kernel is compiled, written as a
            // split between groups of warps, and of a value this reading cannot compute
            LaneForm::Unknown
        } else {
            LaneForm::Varying
        }
    }

    /// A name fixed at compile time whose value is not known here: a `constexpr` local or file
    /// constant initialised by a call (`size(TiledMma{})`), or a member of a type
    /// (`Traits::kNThreads`).
    fn is_opaque_compile_time_constant(&self, bound: Node<'t>) -> bool {
        let bound = strip(bound, self.source);
        if self.constant_value(bound, 0).is_some() {
            return false;
        }
        match bound.node_kind() {
            "qualified_identifier" => true,
            "identifier" => {
                let name = self.text(bound);
                if self.updated.contains(name) {
                    return false;
                }
                let Some([definition]) = self.definitions.get(name).map(Vec::as_slice) else {
                    return false;
                };
                let declaration = definition
                    .up()
                    .filter(|d| d.node_kind() == "init_declarator")
                    .and_then(|d| d.up())
                    .filter(|d| d.node_kind() == "declaration");
                declaration.is_some_and(|declaration| {
                    syntax::words_before_type(declaration, self.source)
                        .split_whitespace()
                        .any(|w| w == "constexpr")
                })
            }
            _ => false,
        }
    }

    /// Whether `value + offset` is a multiple of 32 for every launch: a constant that is, a
    /// product with such a factor, `warpSize`, `blockDim.x` (block widths are whole warps).
    pub(super) fn multiple_of_warp(&self, value: Node<'t>, offset: i64, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        if let Some(constant) = self.constant_value(value, 0) {
            return (constant + offset).rem_euclid(32) == 0;
        }
        if depth == 0 && self.multiple_at_every_instantiation(value, offset) {
            return true;
        }
        let value = strip(value, self.source);
        // `headDim == 128 ? 64 : 512`: whichever the test picks
        if value.node_kind() == "conditional_expression" {
            return [value.field("consequence"), value.field("alternative")]
                .into_iter()
                .all(|arm| arm.is_some_and(|arm| self.multiple_of_warp(arm, offset, depth + 1)));
        }
        if offset != 0 {
            return false;
        }
        match value.node_kind() {
            "field_expression" => syntax::same_text(value, self.source, "blockDim.x"),
            "identifier" => {
                let name = self.text(value);
                if self.updated.contains(name) {
                    return false;
                }
                match self.definitions.get(name).map(Vec::as_slice) {
                    Some([definition]) => self.multiple_of_warp(*definition, 0, depth + 1),
                    Some(_) => false,
                    // a parameter every visible launch passes a multiple of 32 (`kx_padded`
                    // computed as `pad(kx, 512)`), or one the kernel asserts is
                    None => {
                        self.passed_multiple_of_warp(name) || self.asserted_multiple_of_warp(name)
                    }
                }
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (value.field("left"), value.field("right")) else {
                    return false;
                };
                match operator(value, self.source) {
                    "*" => {
                        self.multiple_of_warp(left, 0, depth + 1)
                            || self.multiple_of_warp(right, 0, depth + 1)
                    }
                    "+" | "-" => {
                        self.multiple_of_warp(left, 0, depth + 1)
                            && self.multiple_of_warp(right, 0, depth + 1)
                    }
                    "<<" => self.constant_value(right, 0).is_some_and(|s| s >= 5),
                    _ => false,
                }
            }
            "call_expression" => self.helper_returns_multiple_of_warp(value, depth),
            _ => false,
        }
    }

    /// Whether `value + offset`, a constant of the kernel's template parameters
    /// (`kThreads / TokensPerBlock`), is a multiple of 32 with the template arguments of each
    /// visible launch put in (`post_kernel<4, true>` and `post_kernel<1, false>`: 64 and 256).
    fn multiple_at_every_instantiation(&self, value: Node<'t>, offset: i64) -> bool {
        let parameters = &self.function.template_parameters;
        if parameters.is_empty()
            || self.out.launches.is_empty()
            || self.template_values.borrow().is_some()
        {
            return false;
        }
        let every = self.out.launches.iter().all(|launch| {
            let values = launch.template_bindings(self.function);
            if values.is_empty() {
                return false;
            }
            *self.template_values.borrow_mut() = Some(values);
            let constant = self.constant_value(value, 0);
            *self.template_values.borrow_mut() = None;
            constant.is_some_and(|c| (c + offset).rem_euclid(32) == 0)
        });
        every
    }

    /// Whether a `static_assert` of the kernel (or a macro wrapping one, `DG_STATIC_ASSERT(...)`)
    /// states `name % M == 0` or `name == M` for a multiple `M` of 32, alone or as a conjunct: a
    /// thread count template parameter split from the rest on a warp boundary.
    fn asserted_multiple_of_warp(&self, name: &str) -> bool {
        let mut conditions = Vec::new();
        syntax::walk_iterative(self.function.body, |node| {
            match node.node_kind() {
                "static_assert_declaration" => conditions.extend(node.field("condition")),
                "call_expression" => {
                    let asserts = node.field("function").is_some_and(|f| {
                        self.text(f).to_ascii_lowercase().ends_with("static_assert")
                    });
                    if asserts {
                        conditions.extend(
                            node.field("arguments").and_then(|a| {
                                named_children(a).find(|c| c.node_kind() != "comment")
                            }),
                        );
                    }
                }
                _ => {}
            }
            true
        });
        let mut facts = Vec::new();
        for condition in conditions {
            guards::comparisons(
                guards::Condition {
                    node: condition,
                    holds: true,
                },
                self.source,
                &guards::NoFlags,
                &mut facts,
                &mut Vec::new(),
            );
        }
        let multiple_of_warp = |value: Node<'t>| {
            self.constant_value(value, 0)
                .is_some_and(|m| m > 0 && m % 32 == 0)
        };
        facts.iter().any(|fact| {
            let pinned = fact.relation == guards::Relation::Equal
                && [fact.oriented(true), fact.oriented(false)]
                    .iter()
                    .any(|side| {
                        syntax::same_text(side.left, self.source, name)
                            && multiple_of_warp(side.right)
                    });
            pinned
                || matches!(
                    fact.stated_divisor(name, self.source),
                    Some(guards::StatedDivisor::Modulus(modulus)) if multiple_of_warp(modulus)
                )
        })
    }

    /// Whether `name` is a parameter that every visible launch (one at least) passes a value
    /// known to be a multiple of 32.
    fn passed_multiple_of_warp(&self, name: &str) -> bool {
        let Some(position) = self.function.parameters.iter().position(|p| p.name == name) else {
            return false;
        };
        let arity = self.function.parameters.len();
        !self.out.launches.is_empty()
            && self.out.launches.iter().all(|launch| {
                launch.arity == Some(arity)
                    && launch
                        .argument_factors
                        .get(position)
                        .is_some_and(|factor| factor % 32 == 0)
            })
    }

    /// `round_up(w, 32)` with `round_up(x, y)` returning `div_up(x, y) * y`: a helper of the
    /// file whose value is a multiple of one of its arguments (or of a constant) that is a
    /// multiple of 32 (`launch::returned_multiple_of`, the fact the launch's factors read).
    fn helper_returns_multiple_of_warp(&self, call: Node<'t>, depth: usize) -> bool {
        let Some(model) = self.model else {
            return false;
        };
        let Some(callee) = call.field("function") else {
            return false;
        };
        let name = self.text(callee);
        let arguments = syntax::call_arguments(call);
        let Some(helper) = model
            .functions
            .iter()
            .find(|f| f.name == name && f.parameters.len() == arguments.len())
        else {
            return false;
        };
        match crate::model::launch::returned_multiple_of(helper, self.source) {
            Some(crate::model::launch::ReturnedMultiple::Constant(factor)) => factor % 32 == 0,
            Some(crate::model::launch::ReturnedMultiple::Argument(position)) => arguments
                .get(position)
                .is_some_and(|argument| self.multiple_of_warp(*argument, 0, depth + 1)),
            None => false,
        }
    }

    /// An offset that keeps an aligned value aligned: a multiple of 32, or the rows before the
    /// thread's in its block (`threadIdx.x + TILE * threadIdx.y`, `x + W * (y + H * z)` is the
    /// thread's linear number in a block `TILE` wide, whose warps are runs of 32 of those numbers).
    fn whole_warps_or_rows(&self, offset: Node<'t>) -> bool {
        if self.multiple_of_warp(offset, 0, 0) {
            return true;
        }
        let offset = strip(offset, self.source);
        if offset.node_kind() != "binary_expression" || operator(offset, self.source) != "*" {
            return false;
        }
        // a factor that depends on the thread but is the same across a warp: its row or layer
        [offset.field("left"), offset.field("right")]
            .into_iter()
            .flatten()
            .any(|factor| {
                self.expression_deps(factor, 0).contains(Deps::THREAD)
                    && self.lane_form(factor, 0) == LaneForm::Uniform
            })
    }

    /// How `value` varies across the lanes of a warp.
    pub(crate) fn lane_form(&self, value: Node<'t>, depth: usize) -> LaneForm {
        self.lane_form_of(value, depth, &mut Vec::new())
    }

    fn lane_form_of(&self, value: Node<'t>, depth: usize, visiting: &mut Vec<&'a str>) -> LaneForm {
        use LaneForm::*;
        if depth > 16 {
            return Unknown;
        }
        let value = strip(value, self.source);
        if !self.expression_deps(value, 0).varies_within_block() {
            return Uniform;
        }
        match value.node_kind() {
            "field_expression" => {
                let argument = value.field("argument").map(|a| self.text(a));
                let field = value.field("field").map(|f| self.text(f));
                match (argument, field) {
                    (Some("threadIdx"), Some("x")) => Aligned,
                    (Some("threadIdx"), _) => Uniform,
                    _ => Unknown,
                }
            }
            "identifier" => {
                let name = self.text(value);
                if visiting.contains(&name) {
                    return Unknown;
                }
                // `i++` moves it off the warp's alignment (one of this `i`: a sibling loop's
                // `++i` steps another variable of the name)
                let stepped_by_one = self.updated.contains(name)
                    && self.steps.get(name).is_some_and(|steps| {
                        steps.iter().any(|step| {
                            step.up()
                                .is_some_and(|u| u.node_kind() == "update_expression")
                                && self.in_scope(*step, value)
                        })
                    });
                let Some(values) = self.definitions_in_scope(name, value) else {
                    return if stepped_by_one { Varying } else { Unknown };
                };
                if self.all_reduced_before(name, value, &values) {
                    return Uniform;
                }
                visiting.push(name);
                let mut form: Option<LaneForm> = None;
                // a uniform step that is not whole warps keeps a uniform value uniform but moves
                // an aligned one off the warp's alignment
                let mut misaligning = false;
                let mut alignment_unknown = false;
                for definition in &values {
                    let this = match self.step_of(*definition) {
                        Some(true) => match self.lane_form_of(*definition, depth + 1, visiting) {
                            Uniform => {
                                // a step by a compile-time constant of unknown value
                                // (`idx -= kMathThreads`) may keep the alignment or not
                                if self.is_opaque_compile_time_constant(*definition) {
                                    alignment_unknown = true;
                                } else {
                                    misaligning |= !self.multiple_of_warp(*definition, 0, 0);
                                }
                                continue;
                            }
                            Unknown => Unknown,
                            _ => Varying,
                        },
                        Some(false) => Varying,
                        None => self.lane_form_of(*definition, depth + 1, visiting),
                    };
                    form = Some(match form {
                        None => this,
                        Some(so_far) => combine(so_far, this),
                    });
                }
                if misaligning && form == Some(Aligned) {
                    form = Some(Varying);
                } else if alignment_unknown && form == Some(Aligned) {
                    form = Some(Unknown);
                }
                visiting.pop();
                // a step by one keeps a value the whole warp shares shared (`for (b = warp *
                // per_warp; b < end; b++)`), and moves any other off the warp's alignment
                if stepped_by_one && form != Some(Uniform) {
                    return Varying;
                }
                form.unwrap_or(Unknown)
            }
            "binary_expression" => {
                let (Some(left), Some(right)) = (value.field("left"), value.field("right")) else {
                    return Unknown;
                };
                let op = operator(value, self.source);
                if matches!(op, "<" | "<=" | ">" | ">=" | "==" | "!=" | "&&" | "||") {
                    return match self.condition_form(value, depth + 1) {
                        Varying | Aligned => Varying,
                        other => other,
                    };
                }
                let (a, b) = (
                    self.lane_form_of(left, depth + 1, visiting),
                    self.lane_form_of(right, depth + 1, visiting),
                );
                if a == Unknown || b == Unknown {
                    return Unknown;
                }
                if a == Uniform && b == Uniform {
                    return Uniform;
                }
                match op {
                    "+" => match (a, b) {
                        (Aligned, Uniform) if self.whole_warps_or_rows(right) => Aligned,
                        (Uniform, Aligned) if self.whole_warps_or_rows(left) => Aligned,
                        _ => Varying,
                    },
                    "-" => match (a, b) {
                        (Aligned, Uniform) if self.multiple_of_warp(right, 0, 0) => Aligned,
                        _ => Varying,
                    },
                    // `tid / 32`, `tid / blockDim.x`: the warp's (or the block's) number
                    "/" if a != Varying && b == Uniform && self.multiple_of_warp(right, 0, 0) => {
                        Uniform
                    }
                    ">>" if a != Varying
                        && b == Uniform
                        && self.constant_value(right, 0).is_some_and(|s| s >= 5) =>
                    {
                        Uniform
                    }
                    // `tid % 32`, `tid % 64`: the lane, plus whole warps
                    "%" if a == Aligned && b == Uniform && self.multiple_of_warp(right, 0, 0) => {
                        Aligned
                    }
                    "&" | "|" | "^" => {
                        let mask = match (a, b) {
                            (_, Uniform) => self.constant_value(right, 0),
                            (Uniform, _) => self.constant_value(left, 0),
                            _ => None,
                        };
                        match (op, mask) {
                            // `tid & 31`, `tid & 63`: the lane kept whole
                            ("&", Some(m)) if a != Varying && b != Varying && m & 31 == 31 => {
                                Aligned
                            }
                            // `tid & 32`, `tid & ~31`: only the warp's bits
                            ("&", Some(m)) if a != Varying && b != Varying && m & 31 == 0 => {
                                Uniform
                            }
                            _ => Varying,
                        }
                    }
                    _ => Varying,
                }
            }
            "conditional_expression" => {
                let (Some(condition), Some(yes), Some(no)) = (
                    value.field("condition"),
                    value.field("consequence"),
                    value.field("alternative"),
                ) else {
                    return Unknown;
                };
                match self.condition_form(condition, depth + 1) {
                    Uniform => combine(
                        self.lane_form_of(yes, depth + 1, visiting),
                        self.lane_form_of(no, depth + 1, visiting),
                    ),
                    other => other,
                }
            }
            "call_expression" => {
                let name = value.field("function").map(|f| self.text(f)).unwrap_or("");
                if name.ends_with("laneid") || name == "__lane_id" {
                    return Aligned;
                }
                if name.ends_with("thread_rank") && name.contains("this_thread_block") {
                    return Aligned;
                }
                Unknown
            }
            _ => Unknown,
        }
    }

    /// Whether `name`, read at `read`, holds the result of a butterfly all-reduce over the whole
    /// warp (`for (o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);`), the same
    /// in every lane: the loop runs on every path to the read, after every other definition of
    /// `values` (those that reach the read).
    fn all_reduced_before(&self, name: &str, read: Node<'t>, values: &[Node<'t>]) -> bool {
        let source = self.source;
        let butterfly_loop = |definition: Node<'t>| -> Option<Node<'t>> {
            let call = strip(definition, source);
            let assignment = definition.up()?;
            if call.node_kind() != "call_expression"
                || assignment.node_kind() != "assignment_expression"
                || !matches!(
                    operator(assignment, source),
                    "+=" | "|=" | "&=" | "^=" | "*="
                )
                || !assignment
                    .field("left")
                    .is_some_and(|l| syntax::same_text(l, source, name))
            {
                return None;
            }
            let function = call.field("function").map(|f| self.text(f))?;
            let arguments: Vec<Node<'t>> = syntax::call_arguments(call);
            let (mask, shuffled, offset) = match (function, arguments.as_slice()) {
                ("__shfl_xor_sync", [mask, shuffled, offset, ..]) => (*mask, *shuffled, *offset),
                _ => return None,
            };
            if !self.names_all_lanes(mask, 0) || !syntax::same_text(shuffled, source, name) {
                return None;
            }
            let counter = strip(offset, source);
            if counter.node_kind() != "identifier" {
                return None;
            }
            let counter = self.text(counter);
            let mut for_loop = assignment.up();
            while let Some(node) = for_loop {
                match node.node_kind() {
                    "for_statement" => break,
                    "function_definition" | "lambda_expression" => return None,
                    _ => for_loop = node.up(),
                }
            }
            let for_loop = for_loop?;
            self.halves_from_sixteen(for_loop, counter)
                .then_some(for_loop)
        };
        let Some(for_loop) = values.iter().find_map(|v| butterfly_loop(*v)) else {
            return false;
        };
        let before = |definition: &Node<'t>| definition.end_byte() <= for_loop.start_byte();
        for_loop.end_byte() <= read.start_byte()
            && values
                .iter()
                .all(|v| butterfly_loop(*v) == Some(for_loop) || before(v))
            && crate::model::reaching::on_every_path(for_loop, read, self.function.body)
    }

    /// Whether the `for` loop runs its counter through 16, 8, 4, 2, 1 (or 1, 2, 4, 8, 16): every
    /// lane pair of a butterfly over 32 lanes.
    fn halves_from_sixteen(&self, for_loop: Node<'t>, counter: &str) -> bool {
        let source = self.source;
        let text = |field: &str| for_loop.field(field).map(|n| syntax::normalized(n, source));
        let (Some(initializer), Some(condition), Some(update)) = (
            for_loop.field("initializer"),
            text("condition"),
            text("update"),
        ) else {
            return false;
        };
        let start = {
            let mut value = None;
            syntax::walk_iterative(initializer, |node| {
                if value.is_none()
                    && matches!(
                        node.node_kind(),
                        "init_declarator" | "assignment_expression"
                    )
                {
                    value = node.field("value").or_else(|| node.field("right"));
                }
                value.is_none()
            });
            value.and_then(|v| self.constant_value(v, 0))
        };
        let down = [
            format!("{counter}>0"),
            format!("{counter}>=1"),
            format!("0<{counter}"),
        ];
        let halving = [
            format!("{counter}>>=1"),
            format!("{counter}/=2"),
            format!("{counter}={counter}/2"),
            format!("{counter}={counter}>>1"),
        ];
        let up = [
            format!("{counter}<32"),
            format!("{counter}<=16"),
            format!("{counter}<warpSize"),
        ];
        let doubling = [
            format!("{counter}<<=1"),
            format!("{counter}*=2"),
            format!("{counter}={counter}*2"),
            format!("{counter}={counter}<<1"),
        ];
        match start {
            Some(16) => down.contains(&condition) && halving.contains(&update),
            Some(1) => up.contains(&condition) && doubling.contains(&update),
            _ => false,
        }
    }

    /// For the value of an assignment: `Some(true)` for `+=`/`-=` (a step by it), `Some(false)`
    /// for another compound assignment, None for a plain definition.
    fn step_of(&self, value: Node<'t>) -> Option<bool> {
        let assignment = value.up()?;
        if assignment.node_kind() != "assignment_expression"
            || assignment.field("right") != Some(value)
        {
            return None;
        }
        match operator(assignment, self.source) {
            "=" => None,
            "+=" | "-=" => Some(true),
            _ => Some(false),
        }
    }

    /// The integer value of a constant expression: literals, `warpSize`, `#define`s and
    /// file-scope constants, locals defined once as one, and arithmetic on them.
    pub(crate) fn constant_value(&self, node: Node<'t>, depth: usize) -> Option<i64> {
        if depth > 8 {
            return None;
        }
        let node = strip(node, self.source);
        match node.node_kind() {
            "number_literal" => crate::model::size::parse_number(self.text(node))
                .and_then(|v| i64::try_from(v).ok()),
            "identifier" => {
                let name = self.text(node);
                if name == "warpSize" {
                    return Some(32);
                }
                if let Some(values) = self.template_values.borrow().as_ref() {
                    if let Some((_, value)) = values.iter().find(|(n, _)| n == name) {
                        return Some(*value);
                    }
                }
                if self.function.parameter(name).is_some() || self.updated.contains(name) {
                    return None;
                }
                if let Some(values) = self.definitions.get(name) {
                    return match values.as_slice() {
                        [value] => self.constant_value(*value, depth + 1),
                        _ => None,
                    };
                }
                self.model?.shared_scope().named_constant(name)
            }
            // `LoadBalancing::Threshold::BlockLevel`, `config::kTile`: an enumerator or a
            // constant of a namespace of the file
            "qualified_identifier" => {
                let mut name = node;
                while name.node_kind() == "qualified_identifier" {
                    name = name.field("name")?;
                }
                if name.node_kind() != "identifier" {
                    return None;
                }
                self.model?.shared_scope().named_constant(self.text(name))
            }
            "unary_expression" => {
                let inner = self.constant_value(node.field("argument")?, depth + 1)?;
                match operator(node, self.source) {
                    "-" => inner.checked_neg(),
                    "~" => Some(!inner),
                    "+" => Some(inner),
                    _ => None,
                }
            }
            "binary_expression" => {
                let left = self.constant_value(node.field("left")?, depth + 1)?;
                let right = self.constant_value(node.field("right")?, depth + 1)?;
                integer_operation(operator(node, self.source), left, right)
            }
            _ => None,
        }
    }

    /// Whether a mask names all 32 lanes: `0xffffffff`, `-1`, `~0`, `FULL_MASK`, a local or
    /// constant holding one.
    pub(crate) fn names_all_lanes(&self, mask: Node<'t>, depth: usize) -> bool {
        self.constant_value(mask, depth)
            .is_some_and(|value| value & 0xffff_ffff == 0xffff_ffff)
    }
}

/// Two definitions of one local: the form both share, else the weaker claim.
fn combine(a: LaneForm, b: LaneForm) -> LaneForm {
    use LaneForm::*;
    match (a, b) {
        (x, y) if x == y => x,
        (Unknown, _) | (_, Unknown) => Unknown,
        (Varying, _) | (_, Varying) => Varying,
        // a lane-dependent value on some paths and a uniform one on others
        _ => Varying,
    }
}

/// Where an ordering comparison of a value with a bound splits the values: `x < b` and `x >= b`
/// at `b` (0), `x <= b` and `x > b` at `b + 1` (1); `flipped` when the bound is on the left.
/// None for a relation that splits at no single point (`==`, `!=`).
pub(super) fn split_offset(op: &str, flipped: bool) -> Option<i64> {
    let op = match (op, flipped) {
        ("<", true) => ">",
        (">", true) => "<",
        ("<=", true) => ">=",
        (">=", true) => "<=",
        (op, _) => op,
    };
    match op {
        "<" | ">=" => Some(0),
        "<=" | ">" => Some(1),
        _ => None,
    }
}

/// `left op right` for an arithmetic or bitwise operator on constants; None for another
/// operator, or where the result overflows or divides by zero.
pub(super) fn integer_operation(op: &str, left: i64, right: i64) -> Option<i64> {
    match op {
        "+" => left.checked_add(right),
        "-" => left.checked_sub(right),
        "*" => left.checked_mul(right),
        "/" => left.checked_div(right),
        "%" => left.checked_rem(right),
        "&" => Some(left & right),
        "|" => Some(left | right),
        "^" => Some(left ^ right),
        "<<" => u32::try_from(right).ok().and_then(|s| left.checked_shl(s)),
        ">>" => u32::try_from(right).ok().and_then(|s| left.checked_shr(s)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    /// For each collective of the kernel `k`, whether a condition in force splits its warp.
    fn splits(body: &str) -> Vec<bool> {
        splits_after("", body)
    }

    /// `splits` with file-scope declarations before the kernel.
    fn splits_after(file_scope: &str, body: &str) -> Vec<bool> {
        let source = format!(
            "#define WARP_SIZE 32\n{file_scope}\n__global__ void k(float* o, int n) {{ {body} }}"
        );
        crate::verify::with_model(std::path::Path::new("k.cu"), &source, |model| {
            model
                .kernel_facts()
                .flat_map(|(_, facts)| facts.collectives.iter())
                .map(|c| c.splitting_condition.is_some())
                .collect()
        })
        .unwrap_or_default()
    }

    #[test]
    fn enumerators_and_namespace_constants_divide_as_their_values() {
        let scope = "namespace LoadBalancing {\n  enum Threshold { GridLevel = 256, BlockLevel = 32, SubWarpLevel = 8 };\n}\nnamespace cfg { constexpr int kLanes = 32; }\nenum Implicit { Zero, One, Two };";
        let per_warp = "int w = (threadIdx.x + blockIdx.x * blockDim.x) / DIVISOR; if (w >= n) return; o[0] = __shfl_sync(0xffffffff, o[1], 0);";
        for divisor in [
            "LoadBalancing::Threshold::BlockLevel",
            "cfg::kLanes",
            "BlockLevel",
        ] {
            assert_eq!(
                splits_after(scope, &per_warp.replace("DIVISOR", divisor)),
                [false],
                "{divisor}"
            );
        }
        // a smaller enumerator leaves lanes of one warp on both sides
        for divisor in ["LoadBalancing::Threshold::SubWarpLevel", "Two"] {
            assert_eq!(
                splits_after(scope, &per_warp.replace("DIVISOR", divisor)),
                [true],
                "{divisor}"
            );
        }
    }

    #[test]
    fn conditions_true_for_whole_warps_do_not_split_one() {
        for condition in [
            "threadIdx.x < 32",
            "threadIdx.x >= 64",
            "threadIdx.x <= 31",
            "threadIdx.x < warpSize",
            "threadIdx.x < 4 * WARP_SIZE",
            "threadIdx.x < 32 * n",
            "threadIdx.x / 32 == 0",
            "(threadIdx.x >> 5) < n",
            "(threadIdx.x & 32) == 0",
            "blockIdx.x < n",
            "threadIdx.y < n",
            "n > 3",
            "blockIdx.x * blockDim.x + threadIdx.x < 64 * n",
        ] {
            let body = format!(
                "float v = o[0]; if ({condition}) v = __shfl_xor_sync(0xffffffff, v, 1); o[0] = v;"
            );
            assert_eq!(splits(&body), [false], "{condition}");
        }
        // through locals: a warp number, a lane loop over whole warps
        assert_eq!(splits("int warp = threadIdx.x / WARP_SIZE; if (warp == 1) o[0] = __shfl_sync(0xffffffff, o[1], 0);"), [false]);
        assert_eq!(splits("int lane = threadIdx.x & 31; for (int j = lane; j < 64; j += 32) o[j] = __shfl_sync(0xffffffff, o[j], 0);"), [false]);
        // a row loop stepped by the block's height, the warp number of a linear thread number
        assert_eq!(splits("const int ty = threadIdx.y; for (int q = ty; q < 32; q += blockDim.y) o[q] = __shfl_sync(0xffffffff, o[q], 0);"), [false]);
        assert_eq!(splits("unsigned tid(threadIdx.x + 16 * threadIdx.y); unsigned warp(tid >> 5); if (warp == 0) o[0] = __shfl_sync(0xffffffff, o[1], 0);"), [false]);
        assert_eq!(splits("unsigned warp((threadIdx.x + 4 * (threadIdx.y + 4 * threadIdx.z)) >> 5); if (warp == 0) o[0] = __shfl_sync(0xffffffff, o[1], 0);"), [false]);
        // a count chosen between whole warps by a test
        assert_eq!(splits("const int active = n == 128 ? 64 : 512; if (threadIdx.x < active) o[0] = __shfl_sync(0xffffffff, o[1], 0);"), [false]);
        assert_eq!(splits("const int active = n == 128 ? 64 : 40; if (threadIdx.x < active) o[0] = __shfl_sync(0xffffffff, o[1], 0);"), [true]);
    }

    #[test]
    fn a_counter_stepped_by_one_from_a_warp_shared_start_stays_shared() {
        // each warp walks its own run of blocks: the counter is the same in all its lanes
        let per_warp = "int warp = threadIdx.x / 32; int start = warp * n; \
            for (int b = start; b < start + n; b++) { if (b >= n * 3) continue; \
            o[b] = __shfl_sync(0xffffffff, o[b], 0); }";
        assert_eq!(splits(per_warp), [false]);
        // from a lane's own start, one step leaves lanes of one warp on both sides of a test
        let per_lane = "int lane = threadIdx.x % 32; \
            for (int b = lane; b < n; b++) { if (b >= 16) continue; \
            o[b] = __shfl_sync(0xffffffff, o[b], 0); }";
        assert_eq!(splits(per_lane), [true]);
    }

    #[test]
    fn a_butterfly_over_the_whole_warp_leaves_every_lane_the_same_value() {
        let kernel = |butterfly: &str, after: &str| {
            format!(
                "int lane = threadIdx.x % 32; int any = lane < n ? 1 : 0; {butterfly} {after} \
                 if (any == 0) {{ float v = o[lane]; v += __shfl_xor_sync(0xffffffff, v, 1); o[lane] = v; }}"
            )
        };
        let full = "for (int s = 16; s > 0; s >>= 1) any |= __shfl_xor_sync(0xffffffff, any, s);";
        assert_eq!(splits(&kernel(full, "")), [false, false]);
        let upward = "for (int s = 1; s < 32; s <<= 1) any += __shfl_xor_sync(0xffffffff, any, s);";
        assert_eq!(splits(&kernel(upward, "")), [false, false]);
        // half the warp's pairs: two halves may differ
        let half = "for (int s = 8; s > 0; s >>= 1) any |= __shfl_xor_sync(0xffffffff, any, s);";
        assert_eq!(splits(&kernel(half, "")), [false, true]);
        // a lane's own change after the reduction
        assert_eq!(
            splits(&kernel(full, "if (lane == 3) any = 0;")),
            [false, true]
        );
        // a reduction only some paths run
        let sometimes = "if (n > 4) { for (int s = 16; s > 0; s >>= 1) any |= __shfl_xor_sync(0xffffffff, any, s); }";
        assert_eq!(splits(&kernel(sometimes, "")), [false, true]);
    }

    /// A template parameter pinned to a whole number of warps by a `static_assert`.
    #[test]
    fn a_thread_count_pinned_by_a_static_assert() {
        let kernel = |assertion: &str| {
            let source = format!(
                "template <int kMath, int kTma> __global__ void k(float* o) {{ {assertion}
                 if (threadIdx.x >= kMath) return;
                 o[0] = __shfl_sync(0xffffffff, o[1], 0); }}"
            );
            crate::verify::with_model(std::path::Path::new("k.cu"), &source, |model| {
                model
                    .kernel_facts()
                    .flat_map(|(_, facts)| facts.collectives.iter())
                    .map(|c| c.splitting_condition.is_some())
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
        };
        assert_eq!(
            kernel("static_assert(kTma == 128 && kMath == 256, \"sizes\");"),
            [false]
        );
        assert_eq!(kernel("static_assert(kMath == 48, \"sizes\");"), [true]);
        assert_eq!(kernel(""), [true]);
    }

    #[test]
    fn conditions_that_split_a_warp() {
        for condition in [
            "threadIdx.x < 16",
            "threadIdx.x == 0",
            "threadIdx.x % 32 < 8",
            "(threadIdx.x & 31) > 0",
            "threadIdx.x % 2 == 0",
            "threadIdx.x < n",
            "blockIdx.x * blockDim.x + threadIdx.x < n",
            "threadIdx.x < blockDim.x / 3",
            "threadIdx.x + 1 < 32",
        ] {
            let body = format!(
                "float v = o[0]; if ({condition}) v = __shfl_xor_sync(0xffffffff, v, 1); o[0] = v;"
            );
            assert_eq!(splits(&body), [true], "{condition}");
        }
        assert_eq!(splits("const bool leader = threadIdx.x % 32 == 0; if (leader) o[0] = __shfl_sync(0xffffffff, o[1], 0);"), [true]);
        assert_eq!(splits("for (int j = threadIdx.x; j < n; j += blockDim.x) o[j] = __shfl_sync(0xffffffff, o[j], 0);"), [true]);
    }
}
