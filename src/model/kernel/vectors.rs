//! Vector loads and stores through a typed view of a buffer whose guard bounds only the first
//! element of each vector.
//!
//! `const uchar4* in4 = (const uchar4*)src;` reads four `uchar`s of `src` per index: `in4[e]`
//! covers `src[4 * e]` to `src[4 * e + 3]`. A guard written on the first of them
//! (`if ((e << 2) >= cols) return;`) leaves the last thread reading up to three elements past
//! `cols` whenever `cols` is not a multiple of four. The index's range, scaled to the buffer's
//! own elements, says so: its largest value times the width plus the lanes past the first must
//! stay below the size the guard tests, `4 * ((cols - 1) / 4) + 3` does not, `4 * ((cols - 4) /
//! 4) + 3` (a guard on `e * 4 + 3`) and `4 * (n4 - 1) + 3` (a count of vectors) do.

use super::accesses::subscript_element;
use super::ranges::OwnSizes;
use super::*;
use crate::model::ranges::{RangeContext, Ranges};
use crate::model::size::{builtin_size, Sym};

/// An access through a view `lanes` elements wide whose index the guards bound by its first
/// element only.
#[derive(Debug, Clone)]
pub struct VectorTail<'t> {
    /// The access (`in4[e]`).
    pub node: Node<'t>,
    pub kind: AccessKind,
    /// The pointer accessed and the kernel parameter it views.
    pub pointer: String,
    pub parameter: String,
    /// The view's element and the parameter's (`uchar4` over `uchar`), and how many of the
    /// parameter's elements one access covers.
    pub view: String,
    pub element: String,
    pub lanes: i128,
    /// The size the guard tests, in the parameter's elements (`cols`).
    pub size: String,
    /// How many elements past `size` the last thread may reach (up to `lanes - 1`).
    pub past: i128,
    /// The test that bounds the index by its first element.
    pub guard: Option<Node<'t>>,
}

impl<'t> Analyzer<'_, 't> {
    /// The element type `pointer` is read as at `node`: the cast's at a subscript of a cast
    /// (`((float4*)p)[i]`), else the local view's declared element (`const float4* p4 = ...`).
    fn viewed_element(&self, node: Node<'t>, pointer: &str) -> Option<String> {
        if let Some(Some(element)) = subscript_element(node, pointer, self.source) {
            return Some(element);
        }
        self.pointer_elements.get(pointer).cloned()
    }

    /// The byte size of an element type, after the file's aliases.
    fn element_size(&self, type_text: &str) -> Option<i128> {
        let resolved = match self.model {
            Some(model) => model.resolve_type(type_text),
            None => crate::model::size::normalize_type(type_text),
        };
        builtin_size(&resolved)
            .or_else(|| builtin_size(type_text))
            .or_else(|| vector_component_alias_size(&resolved))
    }

    /// Records the access at `node` when it reads through a view wider than the parameter's
    /// element and the guards in force bound its first element only.
    pub(super) fn note_vector_tail(
        &mut self,
        node: Node<'t>,
        pointer: &str,
        parameter_index: usize,
        index: Node<'t>,
    ) {
        if let Some(tail) = self.vector_tail(node, pointer, parameter_index, index) {
            self.out.vector_tails.push(tail);
        }
    }

    fn vector_tail(
        &self,
        node: Node<'t>,
        pointer: &str,
        parameter_index: usize,
        index: Node<'t>,
    ) -> Option<VectorTail<'t>> {
        let parameter = self.function.parameters.get(parameter_index)?;
        let view = self.viewed_element(node, pointer)?;
        if !parameter.is_pointer || syntax::text(parameter.declaration, self.source).contains("**")
        {
            return None;
        }
        let element = parameter.type_text.trim();
        if self
            .function
            .template_parameters
            .iter()
            .any(|t| t == element)
        {
            return None;
        }
        let (view_size, element_size) = (self.element_size(&view)?, self.element_size(element)?);
        if element_size <= 0 || view_size <= element_size || view_size % element_size != 0 {
            return None;
        }
        let lanes = view_size / element_size;
        let split = self.current_comparisons();
        let range = Ranges::new(&OwnSizes::grid_and_block(self)).range(index, &split.0);
        // the bound written in the guard's size (`n`), though the launches' constants for the
        // size may give a smaller one: the tail is past the size whatever it is
        // (a bound that ends the tail before the size proves it safe, however loose the others)
        let reaches: Vec<(String, i128)> = range
            .upper_bounds()
            .filter_map(|highest| Self::last_past_one_size(highest, lanes))
            .collect();
        if reaches.iter().any(|(_, constant)| *constant < 0) {
            return None;
        }
        let (size, constant) = reaches.into_iter().next()?;
        if self.size_is_stated_multiple(&size, lanes, &split.0) {
            return None;
        }
        let guard = split
            .0
            .iter()
            .find(|c| {
                syntax::contains_identifier(self.text(c.left), &size)
                    || syntax::contains_identifier(self.text(c.right), &size)
            })
            .map(|c| c.origin);
        Some(VectorTail {
            node,
            kind: access_kind(node, self.source),
            pointer: pointer.to_string(),
            parameter: parameter.name.clone(),
            view: crate::model::size::normalize_type(&view),
            element: element.to_string(),
            lanes,
            size,
            past: constant + 1,
            guard,
        })
    }

    /// The last element the last thread covers, in the parameter's elements, when the index's
    /// upper bound `highest` makes it `size + constant` of one size (`cols`, not `blockDim` or
    /// `gridDim`): the size, reached `constant + 1` past its end (not at all below 0).
    fn last_past_one_size(highest: &Sym, lanes: i128) -> Option<(String, i128)> {
        let mut last = highest.times(lanes)?.add(&Sym::constant(lanes - 1))?;
        // rounded down: reached exactly whenever the size is not a multiple of the lanes
        last.floored = false;
        let terms = last.integer_terms()?;
        let constant: i128 = terms
            .iter()
            .filter(|(_, monomial)| monomial.is_empty())
            .map(|(c, _)| *c)
            .sum();
        let sized: Vec<&(i128, Vec<String>)> =
            terms.iter().filter(|(_, m)| !m.is_empty()).collect();
        let [sized] = sized.as_slice() else {
            return None;
        };
        let [size] = sized.1.as_slice() else {
            return None;
        };
        if sized.0 != 1 || size.starts_with("blockDim") || size.starts_with("gridDim") {
            return None;
        }
        Some((size.clone(), constant))
    }

    /// Whether `size` is stated to be a multiple of `lanes`: by a test the kernel makes
    /// (`if (cols % 4) return;`), or, for a parameter, by every visible launch's caller
    /// (`assert((cols & 3) == 0)` before the launch).
    fn size_is_stated_multiple(
        &self,
        size: &str,
        lanes: i128,
        facts: &[crate::model::guards::Comparison<'t>],
    ) -> bool {
        let stated_in_kernel = facts.iter().any(|fact| {
            let divisor = match fact.stated_divisor(size, self.source) {
                Some(crate::model::guards::StatedDivisor::Modulus(m)) => {
                    RangeContext::constant(&OwnSizes::grid_and_block(self), m)
                }
                Some(crate::model::guards::StatedDivisor::Mask(m)) => {
                    RangeContext::constant(&OwnSizes::grid_and_block(self), m).map(|mask| mask + 1)
                }
                None => None,
            };
            divisor.is_some_and(|d| d > 0 && d % lanes == 0)
        });
        if stated_in_kernel {
            return true;
        }
        let Some(position) = self.function.parameters.iter().position(|p| p.name == size) else {
            return false;
        };
        !self.out.launches.is_empty()
            && self.out.launches.iter().all(|launch| {
                launch
                    .argument_factors
                    .get(position)
                    .is_some_and(|factor| factor % lanes == 0)
            })
    }
}

/// The names CUDA's vector types give their components (`uchar` in `uchar4`, `ushort` in
/// `ushort2`), which OpenCV-style code defines in a header of its own: their sizes.
fn vector_component_alias_size(type_text: &str) -> Option<i128> {
    match type_text {
        "uchar" | "schar" => Some(1),
        "ushort" => Some(2),
        _ => None,
    }
}
