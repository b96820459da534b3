//! The text of one file: line/column mapping and the preprocessing view that tree-sitter parses.
//!
//! The view has exactly the same length as the original text, so every byte offset taken from the
//! parse of the view is valid in the original: diagnostics always point at what the user wrote.

use std::collections::{HashMap, HashSet};

/// Macros blanked where they qualify a declaration, with what they stand for: looked up for
/// every identifier of a file.
type QualifierMacros = rustc_hash::FxHashMap<String, String>;
use std::ops::Range;

/// Maps byte offsets to 1-based lines and columns (columns count characters).
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { line_starts }
    }

    /// 0-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line)
            .copied()
            .unwrap_or_else(|| *self.line_starts.last().unwrap_or(&0))
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 1-based (line, column) of a byte offset; the column counts characters.
    pub fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.line_start(line).min(offset);
        let column = text[start..offset].chars().count();
        (line + 1, column + 1)
    }

    /// Byte range of a 0-based line, without its line terminator.
    pub fn line_range(&self, text: &str, line: usize) -> Range<usize> {
        let start = self.line_start(line).min(text.len());
        let end = self
            .line_starts
            .get(line + 1)
            .map(|s| s - 1)
            .unwrap_or(text.len())
            .max(start);
        let end = if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end - 1
        } else {
            end
        };
        start..end
    }
}

pub fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A macro that the view replaced by blanks, with what it expands to (for function qualifiers).
#[derive(Debug, Clone)]
pub struct Neutralised {
    pub span: Range<usize>,
    pub expansion: String,
}

/// The text tree-sitter parses: inactive `#if` branches and conditional directives blanked,
/// attribute-like macros neutralised, `;` supplied after statement macros.
#[derive(Debug, Clone)]
pub struct PreprocessedView {
    pub text: String,
    pub neutralised: Vec<Neutralised>,
    /// Object-like `#define NAME <number>` constants, folded by the size and launch reasoning.
    pub defines: HashMap<String, String>,
    /// Names `#define`d with different bodies in the file (in two branches of an `#if` whose
    /// condition is not known, or redefined): the body in `defines` is one of several.
    pub ambiguous_defines: std::collections::HashSet<String>,
    /// Function-like macros whose body queries the last CUDA or HIP error
    /// (`#define CHECK_KERNEL(s) { cudaError_t e = cudaGetLastError(); ... }`), sorted.
    pub last_error_macros: Vec<String>,
    /// Qualifier macros this text defines (`#define DS_D_INLINE __device__ __forceinline__`), with
    /// what they stand for, sorted: a file that includes it reads them as qualifiers too.
    pub defined_qualifiers: Vec<(String, String)>,
    /// Names `#define`d with different bodies where the choice between them was not decided: one
    /// of them sits under a condition the view could not decide, or kept code defines the name
    /// again with another body. Their body in `defines` is a guess.
    pub unsettled_defines: HashSet<String>,
    /// Names whose definedness a conditional read as compiled decided as "not defined" because
    /// neither `-D` nor the text above defined them (`#ifdef RD_WG_SIZE` taking the `#else`):
    /// the choice holds only while nothing the text is read with defines them.
    pub assumed_undefined: HashSet<String>,
    /// The object-like constants of the project headers the file includes (`IncludedDefines`),
    /// empty until `with_included` attaches them.
    pub included: std::sync::Arc<IncludedDefines>,
    /// The value of each object-like macro, the file's or an included header's, whose body is an
    /// integer constant expression of numbers and such macros (`#define NVAR (VAR_ENERGY + 1)`),
    /// as decimal text.
    pub integer_defines: HashMap<String, String>,
}

/// The object-like `#define`s a file sees through the project headers it includes, each header
/// read with its conditionals chosen as compiled: `-D` definitions decide, and a name neither
/// given nor defined takes the default path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IncludedDefines {
    /// Each name with the one body every header that defines it gives it.
    pub values: HashMap<String, String>,
    /// Names whose value is not known: defined differently on different paths, by two headers, or
    /// by a header and the file itself.
    pub unknown: HashSet<String>,
    /// Every name a header defines as a macro, on any path and with or without parameters (a
    /// `#define __shfl(v, l, w) __shfl_sync(...)` shim under `#if CUDA_VERSION >= 9000`).
    pub names: HashSet<String>,
    /// The function-like macros of the headers whose body launches a kernel (a project's
    /// `CUDA_KERNEL_CALL(kernel, blocks, threads, shmem, stream, ...)`), in include order.
    pub launch_macros: Vec<MacroDefinition>,
    /// The function-like macros of the headers that hand out a vector's device pointer
    /// (`#define D_PTR(X) thrust::raw_pointer_cast((X).data())`), in include order.
    pub data_macros: Vec<MacroDefinition>,
    /// The function-like macros of the headers that allocate or free device memory (`#define
    /// SAFE_ALOC_GPU(X, Y) cudaSafeCall(cudaMalloc((void **)&(X), (Y)))`), in include order.
    pub memory_macros: Vec<MacroDefinition>,
    /// The names of the headers' macros that write a launch's grid and block together (see
    /// `launch_shape_macro_names`).
    pub launch_shape_macros: Vec<String>,
    /// The members the headers release (`cudaFree(this->TermaBEV)` in a destructor): see
    /// `HeaderDefines::freed_members`.
    pub freed_members: HashSet<String>,
}

/// The last name of each argument `text` hands to `cudaFree` or `hipFree` (`this->TermaBEV`,
/// `beam.dose`, `(void*)ws->grad` give `TermaBEV`, `dose`, `grad`).
fn freed_members(text: &str) -> Vec<String> {
    let mut members = Vec::new();
    for api in ["cudaFree(", "hipFree("] {
        let mut rest = text;
        while let Some(at) = rest.find(api) {
            rest = &rest[at + api.len()..];
            // the argument, up to the parenthesis that closes the call
            let mut depth = 0usize;
            let end = rest
                .char_indices()
                .find(|&(_, c)| match c {
                    '(' => {
                        depth += 1;
                        false
                    }
                    ')' if depth == 0 => true,
                    ')' => {
                        depth -= 1;
                        false
                    }
                    ',' => depth == 0,
                    _ => false,
                })
                .map_or(rest.len(), |(end, _)| end);
            let argument = rest[..end].trim_end();
            let start = argument
                .char_indices()
                .rev()
                .find(|&(_, c)| !(c.is_alphanumeric() || c == '_'))
                .map_or(0, |(at, c)| at + c.len_utf8());
            let last = &argument[start..];
            if !last.is_empty() && !members.iter().any(|m| m == last) {
                members.push(last.to_string());
            }
            if members.len() >= 256 {
                return members;
            }
        }
    }
    members
}

/// A function-like macro as written: `#define NAME(a, b, ...) body`, the body's line
/// continuations joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroDefinition {
    pub name: String,
    pub parameters: Vec<String>,
    pub variadic: bool,
    pub body: String,
}

/// The function-like macros of `text` whose body launches a kernel (`<<<`, `cudaLaunchKernel`,
/// `hipLaunchKernelGGL`).
pub fn launch_macro_definitions(text: &str) -> Vec<MacroDefinition> {
    function_macro_definitions(text)
        .into_iter()
        .filter(launches_a_kernel)
        .collect()
}

fn launches_a_kernel(definition: &MacroDefinition) -> bool {
    let body = &definition.body;
    body.contains("<<<") || body.contains("cudaLaunchKernel") || body.contains("hipLaunchKernelGGL")
}

/// The function-like macros of `text` that write a launch's grid and block together, as a list
/// of two values (`#define DIM(n, nb) MIN((n + nb - 1) / nb, NG1D), MIN(n, nb)`, used
/// as `k<<<DIM(n, 256), 0, stream>>>`): their names.
pub fn launch_shape_macro_names(text: &str) -> Vec<String> {
    let definitions = function_macro_definitions(text);
    let named: Vec<(&str, &str)> = definitions
        .iter()
        .map(|m| (m.name.as_str(), m.body.as_str()))
        .collect();
    launch_shape_names(&named, &[])
}

/// The names among `definitions` (name and body) that write a launch's grid and block
/// together: a body of two values, or one use of such a macro, of `definitions` or of `known`
/// (`#define DIM2(nx, ny, nb) DIM3(nx, ny, nb, 1)`).
pub fn launch_shape_names(definitions: &[(&str, &str)], known: &[String]) -> Vec<String> {
    let mut names: Vec<String> = definitions
        .iter()
        .filter(|(_, body)| is_launch_shape_body(body))
        .map(|(name, _)| name.to_string())
        .collect();
    let is_shape = |names: &[String], called: &str| {
        names.iter().any(|n| n == called)
            || (known.iter().any(|n| n == called)
                && !definitions.iter().any(|(name, _)| *name == called))
    };
    for _ in 0..4 {
        let before = names.len();
        for (name, body) in definitions {
            if !names.iter().any(|n| n == name)
                && macro_called_by(body).is_some_and(|called| is_shape(&names, called))
            {
                names.push(name.to_string());
            }
        }
        if names.len() == before {
            break;
        }
    }
    names
}

/// The macro or function a body consists of one call of (`DIM3(nx, ny, nb, 1)`).
fn macro_called_by(body: &str) -> Option<&str> {
    let body = body.trim();
    let name = leading_identifier(body);
    let rest = body.get(name.len()..)?.trim_start();
    if name.is_empty() || !rest.starts_with('(') || !rest.ends_with(')') {
        return None;
    }
    let mut depth = 0i32;
    for (at, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        // the call's own parentheses close only at the end
        if depth == 0 && at + 1 != rest.len() {
            return None;
        }
    }
    Some(name)
}

/// Whether a macro body is a list of two values at its top level (a grid and a block), with no
/// launch or statement of its own.
fn is_launch_shape_body(body: &str) -> bool {
    let body = body.trim();
    if body.is_empty() || body.contains("<<<") || body.contains(';') || body.contains('{') {
        return false;
    }
    let mut depth = 0i32;
    let mut commas = 0;
    for c in body.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => commas += 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0 && commas == 1
}

/// The function-like macros of `text`, as written.
pub fn function_macro_definitions(text: &str) -> Vec<MacroDefinition> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let mut definition = rest.trim_start().to_string();
        while definition.ends_with('\\') {
            definition.pop();
            definition.push('\n');
            match lines.next() {
                Some(next) => definition.push_str(next),
                None => break,
            }
        }
        let name = leading_identifier(&definition).to_string();
        let Some(after_name) = definition.get(name.len()..) else {
            continue;
        };
        // a function-like macro has its `(` right after the name
        let Some(parameters_and_body) = after_name.strip_prefix('(') else {
            continue;
        };
        let Some(close) = parameters_and_body.find(')') else {
            continue;
        };
        let body = parameters_and_body[close + 1..].trim();
        if name.is_empty() {
            continue;
        }
        let mut parameters = Vec::new();
        let mut variadic = false;
        for parameter in parameters_and_body[..close].split(',') {
            let parameter = parameter.trim();
            if parameter.ends_with("...") {
                variadic = true;
            } else if !parameter.is_empty() {
                parameters.push(parameter.to_string());
            }
        }
        found.push(MacroDefinition {
            name,
            parameters,
            variadic,
            body: body.to_string(),
        });
    }
    found
}

impl PreprocessedView {
    /// The body of the object-like macro `name` as the file sees it: its own `#define`, else the
    /// one of an included header; None where the headers and the file disagree or a header's
    /// value depends on a path not decided.
    pub fn define(&self, name: &str) -> Option<&str> {
        if self.included.unknown.contains(name) {
            return None;
        }
        self.integer_defines
            .get(name)
            .or_else(|| self.defines.get(name))
            .or_else(|| self.included.values.get(name))
            .map(String::as_str)
    }

    /// The object-like macros whose body is not a guess (see `unsettled_defines`), with it.
    pub fn settled_defines(&self) -> impl Iterator<Item = (&str, &str)> {
        self.defines
            .iter()
            .filter(|(name, _)| !self.unsettled_defines.contains(*name))
            .map(|(name, body)| (name.as_str(), body.as_str()))
    }

    /// The view with the constants `headers` define attached: `headers` are what each included
    /// header offers, in include order (`HeaderDefines`). A name two of them, or one of them and
    /// this file, define with different bodies is unknown; so is every name a header chose by
    /// assuming another name undefined that this file or another header defines.
    /// `given` are the `-D` definitions (`NAME` or `NAME=VALUE`) the headers were read with: a
    /// header's `#define FILL_BLOCK SOLVER_FILL_BLOCK` with `-DSOLVER_FILL_BLOCK=256` is 256.
    pub fn with_included(
        mut self,
        headers: &[&HeaderDefines],
        given: &[String],
    ) -> PreprocessedView {
        if headers.is_empty() && given.is_empty() {
            return self;
        }
        let mut included = IncludedDefines::default();
        for header in headers {
            for (name, body) in &header.values {
                match included.values.get(name) {
                    Some(known) if known != body => {
                        included.unknown.insert(name.clone());
                    }
                    Some(_) => {}
                    None => {
                        included.values.insert(name.clone(), body.clone());
                    }
                }
            }
            included.unknown.extend(header.unknown.iter().cloned());
            included.names.extend(header.names.iter().cloned());
            included
                .launch_macros
                .extend(header.launch_macros.iter().cloned());
            included
                .data_macros
                .extend(header.data_macros.iter().cloned());
            included
                .memory_macros
                .extend(header.memory_macros.iter().cloned());
            included
                .launch_shape_macros
                .extend(header.launch_shape_macros.iter().cloned());
            included
                .freed_members
                .extend(header.freed_members.iter().cloned());
        }
        for (index, header) in headers.iter().enumerate() {
            let defined_elsewhere = |name: &String| {
                self.defines.contains_key(name)
                    || headers
                        .iter()
                        .enumerate()
                        .any(|(other, h)| other != index && h.defines_name(name))
            };
            if header.assumed_undefined.iter().any(defined_elsewhere) {
                included.unknown.extend(header.chosen.iter().cloned());
            }
        }
        for (name, body) in &self.defines {
            if included
                .values
                .get(name)
                .is_some_and(|known| normalized(known) != normalized(body))
            {
                included.unknown.insert(name.clone());
            }
        }
        included
            .values
            .retain(|name, _| !included.unknown.contains(name));
        let mut visible: HashMap<String, String> = given
            .iter()
            .map(|d| match d.split_once('=') {
                Some((name, value)) => (name.trim().to_string(), value.trim().to_string()),
                None => (d.trim().to_string(), "1".to_string()),
            })
            .collect();
        visible.extend(included.values.clone());
        for (name, body) in &self.defines {
            if !included.unknown.contains(name) {
                visible.insert(name.clone(), body.clone());
            }
        }
        self.integer_defines = integer_values(&visible);
        self.included = std::sync::Arc::new(included);
        self
    }
}

/// What one header offers the files that include it: its object-like `#define`s read as compiled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderDefines {
    /// Each name defined with one body on the path compiled.
    pub values: HashMap<String, String>,
    /// Names defined with different bodies where the choice was not decided.
    pub unknown: HashSet<String>,
    /// Names defined with different bodies where the compiled reading chose one (`values` holds
    /// it): unknown when an assumption of `assumed_undefined` does not hold.
    pub chosen: HashSet<String>,
    /// See `PreprocessedView::assumed_undefined`.
    pub assumed_undefined: HashSet<String>,
    /// Every name the header defines, on any path.
    pub names: HashSet<String>,
    /// Its function-like macros that launch a kernel.
    pub launch_macros: Vec<MacroDefinition>,
    /// Its function-like macros that hand out a vector's device pointer.
    pub data_macros: Vec<MacroDefinition>,
    /// Its function-like macros that allocate or free device memory.
    pub memory_macros: Vec<MacroDefinition>,
    /// Its macros that write a launch's grid and block together.
    pub launch_shape_macros: Vec<String>,
    /// Its quoted includes.
    pub includes: Vec<String>,
    /// Its `#include <...>` targets (a project header named from the project's root).
    pub angle_includes: Vec<String>,
    /// Its qualifier macros, with what they stand for (`#define HOST_DEVICE_FUNCTION __host__
    /// __device__ inline`): an includer's functions declared with them keep their kind.
    pub qualifiers: Vec<(String, String)>,
    /// The members its code hands to `cudaFree` (`cudaFree(this->fluence)`, `cudaFree(b.dose)`,
    /// `cudaFree(dose)` in a method): a class's destructor or release method that an includer's
    /// allocations of those members rely on.
    pub freed_members: Vec<String>,
}

impl HeaderDefines {
    /// Reads a header's text with the `-D` definitions `given` (`NAME` or `NAME=VALUE`): every
    /// conditional is read as compiled, so an `#ifdef` chain choosing a block size gives the
    /// branch a build without those definitions compiles.
    pub fn of(text: &str, given: &[String]) -> HeaderDefines {
        let view = preprocess_with(
            text,
            &ViewOptions {
                defines: given.to_vec(),
                as_compiled: true,
                compiled_everywhere: true,
                ..ViewOptions::default()
            },
        );
        let mut header = HeaderDefines {
            includes: crate::model::index::quoted_includes(text),
            angle_includes: crate::model::index::angle_includes(text),
            assumed_undefined: view.assumed_undefined.clone(),
            ..HeaderDefines::default()
        };
        header.names = all_define_names(text);
        header.qualifiers = view.defined_qualifiers.clone();
        if text.contains("#define") {
            let definitions = function_macro_definitions(text);
            header.launch_macros = definitions
                .iter()
                .filter(|m| launches_a_kernel(m))
                .cloned()
                .collect();
            let named: Vec<(&str, &str)> = definitions
                .iter()
                .map(|m| (m.name.as_str(), m.body.as_str()))
                .collect();
            header.launch_shape_macros = launch_shape_names(&named, &[]);
        }
        if ["Malloc", "Free", "HostAlloc", "MemAlloc"]
            .iter()
            .any(|api| text.contains(api))
        {
            header.memory_macros = function_macro_definitions(text)
                .into_iter()
                .filter(|m| {
                    ["Malloc", "Free", "HostAlloc", "MemAlloc"]
                        .iter()
                        .any(|api| m.body.contains(api))
                })
                .collect();
        }
        header.freed_members = freed_members(text);
        if text.contains("data()") || text.contains("[0]") {
            header.data_macros = function_macro_definitions(text)
                .into_iter()
                .filter(crate::model::launch::is_data_macro)
                .collect();
        }
        for (name, body) in view.settled_defines() {
            header.values.insert(name.to_string(), normalized(body));
            if view.ambiguous_defines.contains(name) {
                header.chosen.insert(name.to_string());
            }
        }
        header.unknown = view.unsettled_defines.clone();
        // `constexpr uint32_t THREADS_PER_WARP = 32;`: an includer reads the name as that number
        // as it reads an object-like macro
        for (name, body) in file_scope_integer_constants(&view.text) {
            match header.values.get(&name) {
                Some(known) if *known != body => {
                    header.unknown.insert(name);
                }
                Some(_) => {}
                None => {
                    header.values.insert(name, body);
                }
            }
        }
        header
    }

    fn defines_name(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

/// The integer constants a text declares at file or namespace scope, one per line
/// (`constexpr int kWarps = 8;`, `static const unsigned TILE(16);`), and the static constant
/// members of its classes (`static const unsigned WARP_SIZE = 32;`, read as
/// `RadixSort::WARP_SIZE`), with their initialisers. A name declared twice with different
/// initialisers, or inside a function or enum, is left out.
pub fn file_scope_integer_constants(text: &str) -> Vec<(String, String)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Scope {
        Namespace,
        Class,
        Other,
    }
    let mut found: Vec<(String, String)> = Vec::new();
    let mut twice: HashSet<String> = HashSet::new();
    // per open brace: what it opened (a namespace or `extern "C"` block, a class, anything else)
    let mut scopes: Vec<Scope> = Vec::new();
    let mut namespace_pending = false;
    let mut class_pending = false;
    let mut in_block_comment = false;
    for line in text.lines() {
        let mut code = line;
        if in_block_comment {
            match code.find("*/") {
                Some(end) => code = &code[end + 2..],
                None => continue,
            }
        }
        let code = code.split("//").next().unwrap_or("");
        let (code, opens_comment) = match code.find("/*") {
            Some(start) if !code[start..].contains("*/") => (&code[..start], true),
            _ => (code, false),
        };
        let trimmed = code.trim();
        let (inner, outer) = scopes
            .split_last()
            .map_or((None, &[][..]), |(l, o)| (Some(*l), o));
        let at_namespace_scope = outer.iter().all(|s| *s == Scope::Namespace)
            && match inner {
                None | Some(Scope::Namespace) => true,
                Some(Scope::Class) => trimmed.starts_with("static "),
                Some(Scope::Other) => false,
            };
        if at_namespace_scope {
            if let Some((name, body)) = integer_constant_declaration(trimmed) {
                match found.iter().position(|(known, _)| *known == name) {
                    Some(at) if found[at].1 != body => {
                        twice.insert(name);
                    }
                    Some(_) => {}
                    None => found.push((name, body)),
                }
            }
        }
        // `namespace sgm` with its `{` on the next line opens the namespace there
        let opens_namespace = namespace_pending
            || trimmed.starts_with("namespace")
            || trimmed.starts_with("extern \"C\"");
        namespace_pending = opens_namespace && !code.contains(['{', ';']);
        // `template <> struct Vec<half>` opens a class too
        let declared = match trimmed.strip_prefix("template") {
            Some(rest) => after_template_parameters(rest),
            None => trimmed,
        };
        let opens_class = class_pending
            || ["class ", "struct "]
                .iter()
                .any(|k| declared.starts_with(k) && !declared.contains(['(', '=']));
        class_pending = opens_class && !code.contains(['{', ';']);
        for c in code.chars() {
            match c {
                '{' if scopes.len() >= 64 => scopes.push(Scope::Other),
                '{' if opens_namespace => scopes.push(Scope::Namespace),
                '{' if opens_class => scopes.push(Scope::Class),
                '{' => scopes.push(Scope::Other),
                '}' => {
                    scopes.pop();
                }
                _ => {}
            }
        }
        in_block_comment = opens_comment;
    }
    found.retain(|(name, _)| !twice.contains(name));
    found
}

/// What follows a template's parameter list (`<typename T, typename U = Vec<T>>`): the text after
/// its closing `>`, or "" when it does not close on the line.
fn after_template_parameters(text: &str) -> &str {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if depth <= 1 => return text[at + 1..].trim_start(),
            '>' => depth -= 1,
            _ => {}
        }
    }
    ""
}

/// `[static|inline] (constexpr|const) TYPE NAME = VALUE;` (or `NAME(VALUE)`, `NAME{VALUE}`) with
/// an integer type: the name and the value's text.
fn integer_constant_declaration(line: &str) -> Option<(String, String)> {
    let statement = line.strip_suffix(';')?.trim();
    let mut rest = statement;
    for qualifier in ["static ", "inline "] {
        rest = rest.strip_prefix(qualifier).unwrap_or(rest).trim_start();
    }
    let mut constant = false;
    for qualifier in ["constexpr ", "const "] {
        if let Some(after) = rest.strip_prefix(qualifier) {
            rest = after.trim_start();
            constant = true;
        }
    }
    if !constant {
        return None;
    }
    let (declarator, value) = match rest.split_once('=') {
        Some((declarator, value)) => (declarator.trim(), value.trim()),
        None => {
            let open = rest.find(['(', '{'])?;
            let inner = rest[open + 1..].strip_suffix([')', '}'])?;
            (rest[..open].trim(), inner.trim())
        }
    };
    let (type_text, name) = declarator.rsplit_once(char::is_whitespace)?;
    if !crate::model::shared_memory::is_integer_type(type_text.trim_start_matches("std::")) {
        return None;
    }
    let is_name = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name || value.is_empty() || value.contains(['{', '}', '"']) {
        return None;
    }
    Some((name.to_string(), normalized(value)))
}

/// The macros of `defines` whose bodies are integer constant expressions over numbers and other
/// such macros, each with its value in decimal: `(VAR_MOMENTUM + NDIM)` with `VAR_MOMENTUM` 1 and
/// `NDIM` 3 is 4. A body with anything else (a float, a cast, a call, an unknown name) has none.
pub fn integer_values(defines: &HashMap<String, String>) -> HashMap<String, String> {
    let mut values: HashMap<String, String> = HashMap::new();
    let bodies: Vec<(&String, Vec<String>)> = defines
        .iter()
        .map(|(name, body)| {
            let body = body.split("//").next().unwrap_or("");
            let body = body.split("/*").next().unwrap_or("");
            (name, condition_tokens(body))
        })
        .filter(|(_, tokens)| !tokens.is_empty() && !tokens.iter().any(|t| t == "defined"))
        .collect();
    // a macro of macros is known once they are: a round per level of nesting
    for _ in 0..16 {
        let mut added = false;
        for (name, tokens) in &bodies {
            if values.contains_key(*name) {
                continue;
            }
            let mut parser = ConditionParser {
                tokens,
                position: 0,
                given: &values,
                depth: 0,
                pinned: None,
            };
            let value = parser.ternary();
            if let Some(value) = value.filter(|_| parser.position == tokens.len()) {
                values.insert((*name).clone(), value.to_string());
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    values
}

/// A macro body with its whitespace collapsed, so `( 256 )` and `(256)` over two spellings agree.
fn normalized(body: &str) -> String {
    body.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every name a text `#define`s, on any path.
fn all_define_names(text: &str) -> HashSet<String> {
    text.lines()
        .filter_map(|line| {
            let directive = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = directive.strip_prefix("define")?;
            rest.starts_with(char::is_whitespace)
                .then(|| leading_identifier(rest.trim_start()).to_string())
        })
        .filter(|name| !name.is_empty())
        .collect()
}

/// Macros that behave like attributes or qualifiers in real CUDA code and confuse the grammar.
const ATTRIBUTE_MACROS_WITH_ARGS: &[&str] = &[
    "__align__",
    "__declspec",
    "__attribute__",
    "__cluster_dims__",
    "__maxnreg__",
    "C10_LAUNCH_BOUNDS_0",
    "C10_LAUNCH_BOUNDS_1",
    "C10_LAUNCH_BOUNDS_2",
    "alignas",
];
const QUALIFIER_MACROS: &[&str] = &[
    "__restrict",
    "__host__",
    "__device__",
    "__forceinline__",
    "__noinline__",
    "__inline__",
];

/// Qualifier and calling-convention macros of common CUDA projects, with what they stand for
/// (the function kind depends on it). The `qualifier-macros` setting adds to these.
const DEFAULT_QUALIFIER_MACROS: &[(&str, &str)] = &[
    ("CUTLASS_HOST_DEVICE", "__host__ __device__"),
    ("CUTLASS_DEVICE", "__device__"),
    ("CUTLASS_GLOBAL", "__global__"),
    ("CUTE_HOST_DEVICE", "__host__ __device__"),
    ("CUTE_DEVICE", "__device__"),
    ("CUTE_HOST", "__host__"),
    ("CUTE_HOST_RTC", "__host__"),
    ("C10_HOST_DEVICE", "__host__ __device__"),
    ("C10_DEVICE", "__device__"),
    ("C10_HOST", "__host__"),
    ("_CCCL_HOST_DEVICE", "__host__ __device__"),
    ("_CCCL_DEVICE", "__device__"),
    ("CUB_RUNTIME_FUNCTION", "__host__ __device__"),
    ("MGPU_HOST_DEVICE", "__host__ __device__"),
    ("MGPU_DEVICE", "__device__"),
    ("HOST_DEVICE", "__host__ __device__"),
    ("HOST_DEVICE_INLINE", "__host__ __device__"),
    ("DEVICE_INLINE", "__device__"),
    ("FORCE_INLINE", ""),
    ("FORCEINLINE", ""),
    ("CUDART_CB", ""),
    ("CUDAAPI", ""),
    ("CALLBACK", ""),
    ("WINAPI", ""),
    ("VKAPI_ATTR", ""),
    ("VKAPI_CALL", ""),
    ("__stdcall", ""),
    ("__cdecl", ""),
    ("__forceinline", ""),
];

/// What the user told the view: extra qualifier macros and `-D` definitions choosing branches.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// Macro names to blank wherever they appear before a declaration.
    pub qualifier_macros: Vec<String>,
    /// `NAME` or `NAME=VALUE`, as given to the compiler with `-D`.
    pub defines: Vec<String>,
    /// Blocks that only choose macro definitions (`configuration_blocks`) are read as the
    /// compiler reads them: a name tested with `#ifdef` or `defined()` that is neither given nor
    /// defined above is undefined, so `#ifdef RD_WG_SIZE ... #else #define BLOCK_SIZE 16` gives
    /// 16. Elsewhere, and without it, an undecided condition keeps its first branch, so that
    /// code under `#ifdef USE_X` is read.
    pub as_compiled: bool,
    /// Every conditional, not only the blocks choosing definitions, is read as `as_compiled`
    /// reads those: for a project header that `--verify` writes into the program, whose platform
    /// switches (`#ifdef __HIP_PLATFORM_AMD__ ... #else`, `#ifdef _WIN32`) must give the branch a
    /// build for this device compiles.
    pub compiled_everywhere: bool,
    /// Qualifier macros defined elsewhere (in a header included before), with their expansion.
    pub known_qualifiers: Vec<(String, String)>,
}

pub fn preprocess(text: &str, extra_qualifiers: &[String]) -> PreprocessedView {
    preprocess_with(
        text,
        &ViewOptions {
            qualifier_macros: extra_qualifiers.to_vec(),
            defines: Vec::new(),
            as_compiled: false,
            compiled_everywhere: false,
            known_qualifiers: Vec::new(),
        },
    )
}

pub fn preprocess_with(text: &str, options: &ViewOptions) -> PreprocessedView {
    let mut bytes = text.as_bytes().to_vec();
    let mut defines = HashMap::new();
    let mut last_error_macros = Vec::new();
    let mut qualifier_macros: QualifierMacros = QualifierMacros::default();
    let given: HashMap<String, String> = options
        .defines
        .iter()
        .map(|d| match d.split_once('=') {
            Some((name, value)) => (name.trim().to_string(), value.trim().to_string()),
            None => (d.trim().to_string(), "1".to_string()),
        })
        .collect();
    // a value the build gives (`-DBLOCK_DIM=64`) is the macro's value in code too, in launch
    // geometry and ranges, unless the file defines the name again
    defines.extend(
        given
            .iter()
            .map(|(name, value)| (name.clone(), value.clone())),
    );
    let mut bodies = DefineBodies::default();
    let compiled_blocks = if options.as_compiled {
        configuration_blocks(text)
            .into_iter()
            .map(|block| block.start)
            .collect()
    } else {
        Vec::new()
    };
    blank_inactive_branches(
        text,
        &mut bytes,
        &BranchChoice {
            given: &given,
            compiled_blocks: &compiled_blocks,
            compiled_everywhere: options.compiled_everywhere,
            as_compiled: options.as_compiled,
        },
        &mut defines,
        &mut qualifier_macros,
        &mut bodies,
        &mut last_error_macros,
    );
    last_error_macros.sort_unstable();
    last_error_macros.dedup();
    let mut defined_qualifiers: Vec<(String, String)> = qualifier_macros
        .iter()
        .map(|(name, expansion)| (name.clone(), expansion.clone()))
        .collect();
    defined_qualifiers.sort_unstable();
    for (name, expansion) in &options.known_qualifiers {
        qualifier_macros
            .entry(name.clone())
            .or_insert_with(|| expansion.clone());
    }
    for name in &options.qualifier_macros {
        qualifier_macros.entry(name.clone()).or_default();
    }
    for (name, expansion) in DEFAULT_QUALIFIER_MACROS {
        qualifier_macros
            .entry(name.to_string())
            .or_insert_with(|| expansion.to_string());
    }
    blank_pragmas(text, &mut bytes);
    let mut neutralised = Vec::new();
    neutralise_macros(text, &mut bytes, &qualifier_macros, &mut neutralised);
    repair(&mut bytes, &defines, &mut neutralised);
    join_spaced_launch_chevrons(&mut bytes);
    // Only ASCII bytes were replaced by ASCII spaces or `;`, and only outside multi-byte sequences,
    // so the view is valid UTF-8; fall back to the original text if that ever fails.
    let text = String::from_utf8(bytes).unwrap_or_else(|_| text.to_string());
    let integer_defines = integer_values(&defines);
    PreprocessedView {
        text,
        neutralised,
        defines,
        unsettled_defines: bodies.unsettled(),
        ambiguous_defines: bodies.ambiguous,
        last_error_macros,
        defined_qualifiers,
        integer_defines,
        assumed_undefined: std::mem::take(&mut bodies.assumed_undefined),
        included: Default::default(),
    }
}

/// `#pragma` lines (with their continuations) become spaces: the grammar takes a directive
/// for a statement only inside a block, so `else` or a braceless `for` followed by
/// `#pragma unroll` and then a loop parses as broken code, and the kernel's findings are lost.
/// No lint reads a pragma.
fn blank_pragmas(text: &str, bytes: &mut [u8]) {
    // a file without the word has no pragma: one search spares reading it line by line
    if !text.contains("pragma") {
        return;
    }
    let mut continued = false;
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let end = start + line.len();
        let directive = line.trim_start().strip_prefix('#').map(str::trim_start);
        if continued || directive.is_some_and(|d| d.starts_with("pragma")) {
            for byte in bytes.get_mut(start..end).into_iter().flatten() {
                if *byte != b'\n' && *byte != b'\r' {
                    *byte = b' ';
                }
            }
            continued = line.trim_end().ends_with('\\');
        }
        start = end;
    }
}

/// Every object-like `#define` of a file, active or not: the first body of each name, and the
/// names defined again with another.
#[derive(Default)]
struct DefineBodies {
    first: HashMap<String, String>,
    ambiguous: HashSet<String>,
    /// Names with a definition under a conditional not decided.
    guessed: HashSet<String>,
    /// The body each name was last defined with in kept code, and the names kept code defined
    /// again with another body.
    kept: HashMap<String, String>,
    redefined: HashSet<String>,
    /// See `PreprocessedView::assumed_undefined`.
    assumed_undefined: HashSet<String>,
}

impl DefineBodies {
    /// Notes a `#define` (the text after the directive); `settled` when every conditional around
    /// it was decided, `kept` when it is in kept code.
    fn note(&mut self, rest: &str, settled: bool, kept: bool) {
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() || rest[name.len()..].starts_with('(') {
            return;
        }
        let body: String = rest[name.len()..]
            .split("//")
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !settled {
            self.guessed.insert(name.clone());
        }
        if kept {
            if let Some(previous) = self.kept.insert(name.clone(), body.clone()) {
                if previous != body {
                    self.redefined.insert(name.clone());
                }
            }
        }
        match self.first.get(&name) {
            Some(first) if *first != body => {
                self.ambiguous.insert(name);
            }
            Some(_) => {}
            None => {
                self.first.insert(name, body);
            }
        }
    }

    /// Names with several bodies whose choice was not decided (`unsettled_defines`).
    fn unsettled(&self) -> HashSet<String> {
        self.ambiguous
            .iter()
            .filter(|name| self.guessed.contains(*name) || self.redefined.contains(*name))
            .cloned()
            .collect()
    }
}

fn blank(bytes: &mut [u8], range: Range<usize>) {
    for b in &mut bytes[range] {
        if *b != b'\n' && *b != b'\r' && b.is_ascii() {
            *b = b' ';
        } else if !b.is_ascii() {
            // keep multi-byte characters intact so the view stays UTF-8; the parser treats them as junk
        }
    }
}

/// The conditionals of `source` that only choose macro definitions (`#ifdef RD_WG_SIZE_0
/// #define BLOCK_SIZE RD_WG_SIZE_0 #else #define BLOCK_SIZE 16 #endif`), outermost first, by byte
/// range from `#if` to the end of `#endif`. The view keeps one branch of a condition it cannot
/// decide; `--verify` writes such a block out whole where the view's definition was, so the
/// compiler decides with the build's own definitions, and reads it as compiled
/// (`ViewOptions::as_compiled`) for the launch's constants.
pub fn configuration_blocks(source: &str) -> Vec<Range<usize>> {
    let mut blocks: Vec<Range<usize>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let Some(directive) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let directive = directive.trim_start();
        if directive.starts_with("if") {
            open.push(start);
        } else if directive.starts_with("endif") {
            let Some(opened) = open.pop() else { continue };
            let block = opened..offset;
            if is_configuration_block(&source[block.clone()]) {
                // An enclosing block found later replaces the ones it holds.
                blocks.retain(|b| !(block.start <= b.start && b.end <= block.end));
                blocks.push(block);
            }
        }
    }
    blocks
}

fn is_configuration_block(block: &str) -> bool {
    const DIRECTIVES: &[&str] = &[
        "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif", "define", "undef",
    ];
    let mut continued = false;
    let mut in_comment = false;
    for line in block.lines() {
        let trimmed = line.trim();
        let was_continued = continued;
        continued = trimmed.ends_with('\\');
        if was_continued || trimmed.is_empty() || trimmed.starts_with("//") {
            continue;
        }
        if in_comment || trimmed.starts_with("/*") {
            in_comment = !trimmed.contains("*/");
            continue;
        }
        let Some(directive) = trimmed.strip_prefix('#') else {
            return false;
        };
        let word: String = directive
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if !DIRECTIVES.contains(&word.as_str()) {
            return false;
        }
    }
    block.trim_start().starts_with('#')
}

/// What decides a conditional: the `-D` definitions, and the blocks read as compiled (their
/// `#if` offsets, sorted).
#[derive(Clone, Copy)]
struct BranchChoice<'a> {
    given: &'a HashMap<String, String>,
    compiled_blocks: &'a [usize],
    compiled_everywhere: bool,
    /// Whether the view is read as compiled at all (`ViewOptions::as_compiled`): then a test of
    /// another platform's name is decided everywhere.
    as_compiled: bool,
}

struct Conditional {
    /// Whether the branch being read is the one kept.
    active: bool,
    /// Whether some earlier branch of this chain was kept.
    taken: bool,
    /// Whether every enclosing chain is active.
    parent_active: bool,
    /// Whether the chain is a configuration block read as compiled.
    as_compiled: bool,
    /// Whether every condition read up to the branch kept was decided (by `-D`, or as compiled).
    decided: bool,
}

/// Keeps the first branch of each `#if` chain (or the `#else` of `#if 0`), blanks the others and the
/// directives themselves, and collects `#define`s.
fn blank_inactive_branches(
    text: &str,
    bytes: &mut [u8],
    choice: &BranchChoice,
    defines: &mut HashMap<String, String>,
    qualifier_macros: &mut QualifierMacros,
    bodies: &mut DefineBodies,
    last_error_macros: &mut Vec<String>,
) {
    let BranchChoice {
        given,
        compiled_blocks,
        compiled_everywhere,
        as_compiled: platforms_decided,
    } = *choice;
    let mut stack: Vec<Conditional> = Vec::new();
    // The object-like macros whose value is certain here: those given, then those the file
    // defines on a path every conditional above decides (`#define blockSize RED_BSIZE`), which
    // decide later tests (`#if blockSize >= 512`) as the compiler would.
    let mut known: HashMap<String, String> = given.clone();
    // Every macro name defined so far in kept code, for the blocks read as compiled.
    let mut defined: std::collections::HashSet<String> = std::collections::HashSet::new();
    // Names an undecided `#ifdef` was read as defined by (its first branch kept).
    let mut assumed_defined: std::collections::HashSet<String> = std::collections::HashSet::new();
    let read_as_undefined = names_whose_absence_keeps_more_cuda(text);
    let mut in_block_comment = false;
    for (offset, line) in logical_lines(text) {
        let end = offset + line.len();
        let active = stack
            .last()
            .map(|c| c.active && c.parent_active)
            .unwrap_or(true);
        let settled = stack.iter().all(|c| c.decided);
        let trimmed = line.trim_start();
        if !in_block_comment && trimmed.starts_with('#') {
            let directive = trimmed[1..].trim_start();
            let word: String = directive
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let rest = directive[word.len()..].trim();
            match word.as_str() {
                "if" | "ifdef" | "ifndef" => {
                    let as_compiled =
                        compiled_everywhere || compiled_blocks.binary_search(&offset).is_ok();
                    let decided = decide_condition(
                        &word,
                        rest,
                        &known,
                        (given, &defined),
                        (as_compiled, platforms_decided),
                        &mut bodies.assumed_undefined,
                    );
                    // an include guard (`#ifndef UTIL_H` then `#define UTIL_H`) is entered
                    let decided = decided.or_else(|| {
                        (word == "ifndef" && is_include_guard(&text[end..], rest)).then_some(true)
                    });
                    let false_condition = word == "if" && is_false_condition(rest);
                    // one reading of a name per file: a name this file defines above, or that
                    // an `#ifdef` above was read as defined by keeping its first branch, is
                    // defined at a later `#ifndef` too (`#ifdef USE_CUDA` kernels, then the
                    // launches in the `#else` of `#ifndef USE_CUDA`)
                    let assumed = match (decided, tested_name(&word, rest)) {
                        (None, Some((name, negated)))
                            if defined.contains(name) || assumed_defined.contains(name) =>
                        {
                            Some(!negated)
                        }
                        (None, Some((name, negated))) if read_as_undefined.contains(name) => {
                            Some(negated)
                        }
                        (None, Some((name, false))) if active && !false_condition => {
                            assumed_defined.insert(name.to_string());
                            None
                        }
                        _ => None,
                    };
                    let keep_first = match decided.or(assumed) {
                        Some(value) => value,
                        None => !false_condition,
                    };
                    stack.push(Conditional {
                        active: keep_first,
                        taken: keep_first,
                        parent_active: active,
                        as_compiled,
                        decided: decided.is_some() || false_condition,
                    });
                    blank(bytes, offset..end);
                }
                "elif" | "elifdef" | "elifndef" => {
                    if let Some(top) = stack.last_mut() {
                        let decided = decide_condition(
                            &word,
                            rest,
                            &known,
                            (given, &defined),
                            (top.as_compiled, platforms_decided),
                            &mut bodies.assumed_undefined,
                        );
                        let false_condition = word == "elif" && is_false_condition(rest);
                        if !top.taken {
                            top.decided &= decided.is_some() || false_condition;
                        }
                        let chosen = match decided {
                            Some(value) => value,
                            None => !false_condition,
                        };
                        let keep = !top.taken && chosen;
                        top.active = keep;
                        top.taken |= keep;
                    }
                    blank(bytes, offset..end);
                }
                "else" => {
                    if let Some(top) = stack.last_mut() {
                        top.active = !top.taken;
                        top.taken = true;
                    }
                    blank(bytes, offset..end);
                }
                "endif" => {
                    stack.pop();
                    blank(bytes, offset..end);
                }
                "define" if active => {
                    note_known_value(&mut known, rest, settled);
                    defined.insert(leading_identifier(rest).to_string());
                    bodies.note(rest, settled, true);
                    record_define(rest, defines, qualifier_macros, last_error_macros);
                }
                "define" => {
                    // a definition an undecided test may have kept leaves the value uncertain
                    if !settled {
                        known.remove(leading_identifier(rest));
                    }
                    bodies.note(rest, settled, false);
                    blank(bytes, offset..end);
                }
                "undef" if active => {
                    known.remove(leading_identifier(rest));
                    defined.remove(leading_identifier(rest));
                }
                _ if !active => blank(bytes, offset..end),
                _ => {}
            }
        } else if !active {
            blank(bytes, offset..end);
        }
        in_block_comment = block_comment_state(line, in_block_comment);
    }
}

/// The names tested for being defined whose absence keeps more of the file's CUDA code (kernel
/// definitions, `<<<...>>>` and API launches) than their presence: an optional library's switch
/// (`#ifdef cCUDNN` handles at the top, then `#ifndef cCUDNN` hand-written launches `#else`
/// library calls). Read as defined, such a name would hide the only launches of the kernels.
fn names_whose_absence_keeps_more_cuda(text: &str) -> HashSet<String> {
    struct Open<'a> {
        /// The name tested, and whether the first branch is the one kept when it is defined;
        /// None for another test or a chain with `#elif`.
        name: Option<(&'a str, bool)>,
        /// 0 in the first branch, 1 in the `#else`.
        branch: usize,
        cuda: [usize; 2],
    }
    let mut stack: Vec<Open> = Vec::new();
    // per name: CUDA kept when it is defined, and when it is not
    let mut kept: HashMap<&str, [usize; 2]> = HashMap::new();
    for (_, line) in logical_lines(text) {
        let trimmed = line.trim_start();
        let Some(directive) = trimmed.strip_prefix('#') else {
            if stack.is_empty() {
                continue;
            }
            let cuda = [
                "<<<",
                "__global__",
                "LaunchKernel",
                "LaunchCooperativeKernel",
            ]
            .iter()
            .map(|construct| line.matches(construct).count())
            .sum::<usize>();
            if cuda > 0 {
                for open in &mut stack {
                    if let Some(count) = open.cuda.get_mut(open.branch) {
                        *count += cuda;
                    }
                }
            }
            continue;
        };
        let directive = directive.trim_start();
        let word_end = directive
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(directive.len());
        let (word, rest) = directive.split_at(word_end);
        match word {
            "if" | "ifdef" | "ifndef" => stack.push(Open {
                name: tested_name(word, rest.trim())
                    .filter(|(name, _)| !name.is_empty())
                    .map(|(name, negated)| (name, !negated)),
                branch: 0,
                cuda: [0, 0],
            }),
            "elif" | "elifdef" | "elifndef" => {
                if let Some(top) = stack.last_mut() {
                    top.name = None;
                }
            }
            "else" => {
                if let Some(top) = stack.last_mut() {
                    top.branch = 1;
                }
            }
            "endif" => {
                if let Some(Open {
                    name: Some((name, first_when_defined)),
                    cuda: [first, second],
                    ..
                }) = stack.pop()
                {
                    let entry = kept.entry(name).or_default();
                    let (when_defined, when_not) = if first_when_defined {
                        (first, second)
                    } else {
                        (second, first)
                    };
                    entry[0] += when_defined;
                    entry[1] += when_not;
                }
            }
            _ => {}
        }
    }
    kept.into_iter()
        .filter(|(_, [when_defined, when_not])| when_not > when_defined)
        .map(|(name, _)| name.to_string())
        .collect()
}

/// The logical lines of `text` with their offsets: physical lines joined by trailing
/// backslashes, without their line terminator.
fn logical_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    std::iter::from_fn(move || {
        if offset >= text.len() {
            return None;
        }
        let mut end = offset;
        loop {
            let line_end = text[end..]
                .find('\n')
                .map(|i| end + i)
                .unwrap_or(text.len());
            let content = text[end..line_end].trim_end_matches('\r');
            if content.ends_with('\\') && line_end < text.len() {
                end = line_end + 1;
                continue;
            }
            end = line_end;
            break;
        }
        let start = offset;
        offset = end + 1;
        Some((start, &text[start..end]))
    })
}

/// The value of an `#if`/`#elif`/`#ifdef` test when something decides it: the values known
/// above (`known`), the passes of a build over `__CUDA_ARCH__`, or, in a block read as compiled
/// (`compiled.0`) or where platforms are decided (`compiled.1`), the definedness of the name it
/// tests (`names`: the `-D` definitions and the names defined above).
fn decide_condition(
    word: &str,
    rest: &str,
    known: &HashMap<String, String>,
    names: (&HashMap<String, String>, &HashSet<String>),
    compiled: (bool, bool),
    assumed_undefined: &mut HashSet<String>,
) -> Option<bool> {
    let (given, defined) = names;
    let (as_compiled, platforms_decided) = compiled;
    condition_value(word, rest, known)
        .or_else(|| architecture_condition_value(word, rest, known))
        .or_else(|| {
            // a name no compiler defines is decided in every reading
            let (name, negated) = tested_name(word, rest)?;
            RETIRED_NAMES
                .contains(&name)
                .then(|| (given.contains_key(name) || defined.contains(name)) != negated)
        })
        .or_else(|| {
            (as_compiled || platforms_decided)
                .then(|| {
                    compiled_definedness(
                        word,
                        rest,
                        given,
                        defined,
                        !as_compiled,
                        assumed_undefined,
                    )
                })
                .flatten()
        })
}

/// Records what `#define` text `rest` makes certain: an object-like macro's body, when every
/// conditional around it is decided; otherwise the name's value is no longer known.
fn note_known_value(known: &mut HashMap<String, String>, rest: &str, settled: bool) {
    let name = leading_identifier(rest);
    if name.is_empty() {
        return;
    }
    let body = &rest[name.len()..];
    if !settled || body.starts_with('(') {
        known.remove(name);
        return;
    }
    let body = body.split("//").next().unwrap_or("").trim();
    let body = if body.is_empty() { "1" } else { body };
    known.insert(name.to_string(), body.to_string());
}

/// Whether the directive after an `#ifndef NAME` (whose condition is `rest`) that `after`
/// follows defines `NAME`: the opening of an include guard.
fn is_include_guard(after: &str, rest: &str) -> bool {
    let name = leading_identifier(rest.trim());
    if name.is_empty() {
        return false;
    }
    let Some(next) = after.lines().map(str::trim).find(|line| !line.is_empty()) else {
        return false;
    };
    next.strip_prefix('#')
        .map(str::trim_start)
        .and_then(|d| d.strip_prefix("define"))
        .is_some_and(|d| {
            d.starts_with(char::is_whitespace) && leading_identifier(d.trim_start()) == name
        })
}

fn block_comment_state(line: &str, mut inside: bool) -> bool {
    // one pass over the bytes: inside a comment its end is looked for, outside the first `//`
    // or `/*`, whichever starts first (searching the line for each pattern cost a searcher's
    // setup per line, a seventh of the view's time, and most lines hold neither)
    let bytes = line.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (inside, bytes[i], bytes[i + 1]) {
            (true, b'*', b'/') => {
                inside = false;
                i += 2;
            }
            (false, b'/', b'/') => return false,
            (false, b'/', b'*') => {
                inside = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
    inside
}

/// The value of a conditional directive when the `-D` definitions decide it; None when it depends
/// on anything else (then the first branch is kept, as before).
fn condition_value(word: &str, rest: &str, given: &HashMap<String, String>) -> Option<bool> {
    if given.is_empty() {
        return None;
    }
    let rest = rest.split("//").next().unwrap_or("").trim();
    match word {
        "ifdef" | "elifdef" => given.contains_key(leading_identifier(rest)).then_some(true),
        "ifndef" | "elifndef" => given
            .contains_key(leading_identifier(rest))
            .then_some(false),
        _ => {
            let tokens = condition_tokens(rest);
            let mut parser = ConditionParser {
                tokens: &tokens,
                position: 0,
                given,
                depth: 0,
                pinned: None,
            };
            let value = parser.ternary()?;
            (parser.position == tokens.len()).then_some(value != 0)
        }
    }
}

/// The values `__CUDA_ARCH__` takes in the device passes of a build: every architecture
/// shipped (`major * 100 + minor * 10`), and one far past them for architectures to come.
const DEVICE_ARCHITECTURES: &[i64] = &[
    200, 300, 350, 370, 500, 520, 530, 600, 610, 620, 700, 720, 750, 800, 860, 870, 890, 900, 1000,
    1010, 1030, 1100, 1200, 1210, 9990,
];

/// The oldest architecture a toolkit still in use builds (CUDA 12 dropped everything before
/// `sm_50`): code kept only for Fermi and Kepler runs on no GPU a build of today targets.
const OLDEST_BUILT_ARCHITECTURE: i64 = 500;

/// The value of an `#if`/`#elif` over `__CUDA_ARCH__` when every pass of a build agrees on it:
/// the host pass (the name undefined) and a device pass per architecture. A test of
/// `__CUDA_ARCH__ >= 4000000` holds in none, so its branch is never compiled; one of
/// `__CUDA_ARCH__ >= 700` differs between passes and stays undecided (its first branch kept).
fn architecture_condition_value(
    word: &str,
    rest: &str,
    given: &HashMap<String, String>,
) -> Option<bool> {
    const NAME: &str = "__CUDA_ARCH__";
    if !matches!(word, "if" | "elif") || given.contains_key(NAME) {
        return None;
    }
    let rest = rest.split("//").next().unwrap_or("").trim();
    let tokens = condition_tokens(rest);
    if !tokens.iter().any(|t| t == NAME) {
        return None;
    }
    let evaluate = |architecture: Option<i64>| {
        let mut parser = ConditionParser {
            tokens: &tokens,
            position: 0,
            given,
            depth: 0,
            pinned: Some((NAME, architecture)),
        };
        let value = parser.ternary()?;
        (parser.position == tokens.len()).then_some(value != 0)
    };
    let on_host = evaluate(None)?;
    let mut on_devices = Vec::with_capacity(DEVICE_ARCHITECTURES.len());
    for architecture in DEVICE_ARCHITECTURES {
        on_devices.push((*architecture, evaluate(Some(*architecture))?));
    }
    if on_devices.iter().all(|(_, value)| *value == on_host) {
        return Some(on_host);
    }
    // A test of the version (`!defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 300`) chooses device
    // code by architecture; the host pass never runs that code, so the passes of the
    // architectures built today decide it when they agree.
    if !compares_the_version(&tokens, NAME) {
        return None;
    }
    let mut built = on_devices
        .iter()
        .filter(|(architecture, _)| *architecture >= OLDEST_BUILT_ARCHITECTURE)
        .map(|(_, value)| *value);
    let first = built.next()?;
    built.all(|value| value == first).then_some(first)
}

/// Whether `name` is compared with something in the condition's tokens (`__CUDA_ARCH__ < 300`,
/// `700 <= __CUDA_ARCH__`), rather than only tested for being defined.
fn compares_the_version(tokens: &[String], name: &str) -> bool {
    const COMPARISONS: &[&str] = &["<", "<=", ">", ">=", "==", "!="];
    tokens.iter().enumerate().any(|(position, token)| {
        token == name
            && [position.checked_sub(1), Some(position + 1)]
                .into_iter()
                .flatten()
                .filter_map(|neighbour| tokens.get(neighbour))
                .any(|neighbour| COMPARISONS.contains(&neighbour.as_str()))
    })
}

/// A test of whether one name is defined (`#ifdef N`, `#ifndef N`, `#if defined(N)`,
/// `#elif !defined N`), decided as the compiler would when the name is neither given nor defined
/// above: undefined. Names the compiler predefines (`__CUDACC__`, ...) and other conditions stay
/// undecided; with `only_other_platform`, every name but another platform's does.
fn compiled_definedness(
    word: &str,
    rest: &str,
    given: &HashMap<String, String>,
    defined: &HashSet<String>,
    only_other_platform: bool,
    assumed_undefined: &mut HashSet<String>,
) -> Option<bool> {
    let (name, negated) = tested_name(word, rest)?;
    // Other reserved names may be the compiler's own (`__CUDACC__`, `__CUDA_ARCH__`).
    let other_platform = OTHER_PLATFORM_PREFIXES.iter().any(|p| name.starts_with(p))
        || RETIRED_NAMES.contains(&name);
    if name.is_empty() || (name.starts_with("__") || only_other_platform) && !other_platform {
        return None;
    }
    let is_defined = given.contains_key(name) || defined.contains(name);
    if !is_defined {
        assumed_undefined.insert(name.to_string());
    }
    Some(is_defined != negated)
}

/// The one name a conditional tests for being defined, and whether the test is negated:
/// `#ifdef N`, `#ifndef N`, `#if defined(N)`, `#elif !defined N`. None for any other test.
fn tested_name<'r>(word: &str, rest: &'r str) -> Option<(&'r str, bool)> {
    let rest = rest.split("//").next().unwrap_or("").trim();
    Some(match word {
        "ifdef" | "elifdef" => (leading_identifier(rest), false),
        "ifndef" | "elifndef" => (leading_identifier(rest), true),
        _ => {
            let (negated, test) = match rest.strip_prefix('!') {
                Some(test) => (true, test.trim_start()),
                None => (false, rest),
            };
            let operand = match test.strip_prefix("defined") {
                Some(operand) => operand.trim(),
                // `#if __DEVICE_EMULATION__`: a name never defined is 0, as it is undefined
                None if RETIRED_NAMES.contains(&test) => return Some((test, negated)),
                None => return None,
            };
            let operand = operand
                .strip_prefix('(')
                .and_then(|o| o.strip_suffix(')'))
                .unwrap_or(operand)
                .trim();
            if leading_identifier(operand).len() != operand.len() {
                return None;
            }
            (operand, negated)
        }
    })
}

/// Reserved names that only AMD's compilers define (`__HIP_PLATFORM_AMD__`, `__HIPCC__`,
/// `__AMDGCN_WAVEFRONT_SIZE`): undefined in a build for an NVIDIA device.
const OTHER_PLATFORM_PREFIXES: &[&str] = &["__HIP", "__HCC", "__AMDGCN", "__gfx", "__clang_hip"];

/// Reserved names no compiler of today defines: `__DEVICE_EMULATION__` was nvcc's device
/// emulation mode, removed in CUDA 3.0 (old code still guards `EMUSYNC` barriers with it).
const RETIRED_NAMES: &[&str] = &["__DEVICE_EMULATION__"];

fn leading_identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

fn condition_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if is_ident_byte(b) {
            let start = i;
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            tokens.push(text[start..i].to_string());
        } else {
            let two = text.get(i..i + 2).unwrap_or("");
            if matches!(two, "&&" | "||" | "==" | "!=" | "<=" | ">=" | "<<" | ">>") {
                tokens.push(two.to_string());
                i += 2;
            } else {
                let width = text[i..].chars().next().map(char::len_utf8).unwrap_or(1);
                tokens.push(text[i..i + width].to_string());
                i += width;
            }
        }
    }
    tokens
}

/// Evaluates `#if` expressions over the `-D` definitions; an unknown name makes the result unknown.
struct ConditionParser<'a> {
    tokens: &'a [String],
    position: usize,
    given: &'a HashMap<String, String>,
    depth: usize,
    /// A name whose value the pass evaluated fixes, whatever `given` says: `None` for a name
    /// undefined there (`defined(name)` is 0, and so is the name itself, as the preprocessor
    /// reads an undefined identifier), or its value.
    pinned: Option<(&'a str, Option<i64>)>,
}

impl ConditionParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.position).map(String::as_str)
    }

    fn eat(&mut self, token: &str) -> bool {
        if self.peek() == Some(token) {
            self.position += 1;
            true
        } else {
            false
        }
    }

    fn ternary(&mut self) -> Option<i64> {
        self.depth += 1;
        if self.depth > 64 {
            return None;
        }
        let condition = self.binary(0)?;
        if self.eat("?") {
            let then = self.ternary()?;
            if !self.eat(":") {
                return None;
            }
            let otherwise = self.ternary()?;
            return Some(if condition != 0 { then } else { otherwise });
        }
        Some(condition)
    }

    fn binary(&mut self, level: usize) -> Option<i64> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        let Some(operators) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut left = self.binary(level + 1)?;
        while let Some(op) = self
            .peek()
            .filter(|t| operators.contains(t))
            .map(str::to_string)
        {
            self.position += 1;
            let right = self.binary(level + 1);
            // `0 && unknown` and `1 || unknown` are decided anyway
            let right = match (op.as_str(), right) {
                ("&&", None) if left == 0 => 0,
                ("||", None) if left != 0 => 1,
                (_, right) => right?,
            };
            left = match op.as_str() {
                "||" => i64::from(left != 0 || right != 0),
                "&&" => i64::from(left != 0 && right != 0),
                "==" => i64::from(left == right),
                "!=" => i64::from(left != right),
                "<" => i64::from(left < right),
                ">" => i64::from(left > right),
                "<=" => i64::from(left <= right),
                ">=" => i64::from(left >= right),
                "+" => left.wrapping_add(right),
                "-" => left.wrapping_sub(right),
                "*" => left.wrapping_mul(right),
                "/" => left.checked_div(right)?,
                _ => left.checked_rem(right)?,
            };
        }
        Some(left)
    }

    fn unary(&mut self) -> Option<i64> {
        self.depth += 1;
        if self.depth > 256 {
            return None;
        }
        if self.eat("!") {
            return Some(i64::from(self.unary()? == 0));
        }
        if self.eat("-") {
            return Some(self.unary()?.wrapping_neg());
        }
        if self.eat("(") {
            let value = self.ternary()?;
            return self.eat(")").then_some(value);
        }
        let token = self.peek()?.to_string();
        self.position += 1;
        if token == "defined" {
            let parenthesised = self.eat("(");
            let name = self.peek()?.to_string();
            self.position += 1;
            if parenthesised && !self.eat(")") {
                return None;
            }
            if let Some((_, value)) = self.pinned.filter(|(p, _)| *p == name) {
                return Some(i64::from(value.is_some()));
            }
            // a name not given with -D may still come from a header or the build: unknown
            return self.given.contains_key(&name).then_some(1);
        }
        if let Some(value) = parse_integer(&token) {
            return Some(value);
        }
        if let Some((_, value)) = self.pinned.filter(|(p, _)| *p == token) {
            return Some(value.unwrap_or(0));
        }
        let value = self.given.get(&token)?.trim();
        if let Some(value) = parse_integer(value) {
            return Some(value);
        }
        // a macro of macros (`#define blockSize RED_BSIZE`): its body, read as an expression
        let tokens = condition_tokens(value);
        let mut body = ConditionParser {
            tokens: &tokens,
            position: 0,
            given: self.given,
            depth: self.depth,
            pinned: self.pinned,
        };
        let value = body.ternary()?;
        self.depth = body.depth;
        (body.position == tokens.len()).then_some(value)
    }
}

fn parse_integer(token: &str) -> Option<i64> {
    let token = token.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = token
        .strip_prefix("0x")
        .or_else(|| token.strip_prefix("0X"))
    {
        return i64::from_str_radix(hex, 16).ok();
    }
    token.parse().ok()
}

fn is_false_condition(condition: &str) -> bool {
    let condition = condition.split("//").next().unwrap_or("").trim();
    condition == "0" || condition == "(0)" || condition == "false"
}

fn record_define(
    rest: &str,
    defines: &mut HashMap<String, String>,
    qualifier_macros: &mut QualifierMacros,
    last_error_macros: &mut Vec<String>,
) {
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        return;
    }
    if rest[name.len()..].starts_with('(') {
        let body = rest[name.len()..].split_once(')').map_or("", |(_, b)| b);
        if queries_last_error(body) {
            last_error_macros.push(name);
        }
        return;
    }
    let body = rest[name.len()..]
        .split("//")
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    // `#define CHECK_KERNEL { cudaError_t e = cudaGetLastError(); ... }`, used as a statement
    if queries_last_error(&body) {
        last_error_macros.push(name.clone());
    }
    let words_only = strip_attribute_calls(&body);
    if !body.is_empty()
        && !words_only.trim().is_empty()
        && words_only
            .split_whitespace()
            .all(|word| QUALIFIER_MACROS.contains(&word) || is_cuda_qualifier(word))
    {
        qualifier_macros.insert(name.clone(), body.clone());
    }
    defines.insert(name, body);
}

/// Whether macro text calls `cudaGetLastError`/`cudaPeekAtLastError` (or HIP's).
pub fn queries_last_error(text: &str) -> bool {
    [
        "cudaGetLastError",
        "cudaPeekAtLastError",
        "hipGetLastError",
        "hipPeekAtLastError",
    ]
    .iter()
    .any(|name| text.contains(name))
}

fn is_cuda_qualifier(word: &str) -> bool {
    matches!(
        word,
        "__host__"
            | "__device__"
            | "__global__"
            | "__forceinline__"
            | "__noinline__"
            | "inline"
            | "static"
            | "__inline__"
            | "constexpr"
            | "extern"
            | "__managed__"
            | "__forceinline"
    )
}

/// `__attribute__((always_inline)) __device__` → ` __device__`: attribute calls say nothing about
/// where a function runs.
fn strip_attribute_calls(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some(position) = ["__attribute__", "__launch_bounds__", "__declspec"]
        .iter()
        .filter_map(|a| rest.find(a))
        .min()
    {
        out.push_str(&rest[..position]);
        let after = &rest[position..];
        let Some(open) = after.find('(') else {
            return out;
        };
        let mut depth = 0usize;
        let mut close = None;
        for (k, c) in after.char_indices().skip(open) {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        close = Some(k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { return out };
        out.push(' ');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// Blanks attribute-like macros (`__align__(8)`, `HD` defined as `__host__ __device__`) so the
/// declaration after them parses; records what each stood for.
fn neutralise_macros(
    text: &str,
    bytes: &mut [u8],
    qualifier_macros: &QualifierMacros,
    neutralised: &mut Vec<Neutralised>,
) {
    let src = text.as_bytes();
    // the first bytes the qualifier macros start with: most words start with none of them, and
    // are passed over without hashing them
    let mut first_bytes = [false; 256];
    for name in qualifier_macros.keys() {
        if let Some(first) = name.bytes().next() {
            first_bytes[usize::from(first)] = true;
        }
    }
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if b == b'/' && src.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map(|n| i + n).unwrap_or(src.len());
            continue;
        }
        if b == b'/' && src.get(i + 1) == Some(&b'*') {
            i = text[i + 2..]
                .find("*/")
                .map(|n| i + 2 + n + 2)
                .unwrap_or(src.len());
            continue;
        }
        if b == b'"' {
            i = skip_string(src, i);
            continue;
        }
        if (b.is_ascii_alphabetic() || b == b'_') && (i == 0 || !is_ident_byte(src[i - 1])) {
            let start = i;
            while i < src.len() && is_ident_byte(src[i]) {
                i += 1;
            }
            let word = &text[start..i];
            if bytes[start] == b' ' {
                continue; // already blanked as part of an inactive branch
            }
            if ATTRIBUTE_MACROS_WITH_ARGS.contains(&word) {
                let mut j = i;
                while j < src.len() && (src[j] == b' ' || src[j] == b'\t') {
                    j += 1;
                }
                if src.get(j) == Some(&b'(') {
                    if let Some(close) = matching_paren(src, j) {
                        blank(bytes, start..close + 1);
                        neutralised.push(Neutralised {
                            span: start..close + 1,
                            expansion: String::new(),
                        });
                        i = close + 1;
                    }
                }
            } else if word == "__restrict" {
                blank(bytes, start..i);
            } else if let Some(expansion) = first_bytes[usize::from(b)]
                .then(|| qualifier_macros.get(word))
                .flatten()
            {
                if !is_inside_directive(text, start) {
                    blank(bytes, start..i);
                    neutralised.push(Neutralised {
                        span: start..i,
                        expansion: expansion.clone(),
                    });
                }
            }
            continue;
        }
        i += 1;
    }
}

fn is_ident_byte(b: u8) -> bool {
    IDENT_BYTES[usize::from(b)]
}

/// Per byte, whether it is a letter, a digit or `_`: the view's scans ask it of nearly every
/// byte of the file, and a table answers in one load where the comparisons took several.
const IDENT_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || byte == b'_';
        b += 1;
    }
    table
};

fn skip_string(src: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < src.len() {
        match src[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    src.len()
}

fn matching_paren(src: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &b) in src.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(k);
                }
            }
            b'\n' if k > open + 200 => return None,
            _ => {}
        }
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenKind {
    Identifier,
    Number,
    Literal,
    Punct,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    start: usize,
    end: usize,
    kind: TokenKind,
    /// First token on its line.
    line_start: bool,
}

/// Tokens of the code in the view (comments, directives and blanks left out).
fn tokenize(bytes: &[u8]) -> Vec<Token> {
    // code has a token per three or four bytes: reserved once, the vector is seldom regrown
    let mut tokens = Vec::with_capacity(bytes.len() / 4);
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(bytes.len());
            }
            b'#' if line_start => {
                // a directive runs to the end of its logical line
                while i < bytes.len() && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    } else if bytes[i] == b'\\'
                        && bytes.get(i + 1) == Some(&b'\r')
                        && bytes.get(i + 2) == Some(&b'\n')
                    {
                        i += 2;
                    }
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                tokens.push(Token {
                    start,
                    end: i,
                    kind: TokenKind::Literal,
                    line_start,
                });
                line_start = false;
            }
            _ if is_ident_byte(b) => {
                let start = i;
                let number = b.is_ascii_digit();
                while i < bytes.len()
                    && (is_ident_byte(bytes[i])
                        || (number && (bytes[i] == b'.' || bytes[i] == b'\''))
                        || (number
                            && matches!(bytes[i], b'+' | b'-')
                            && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P')))
                {
                    i += 1;
                }
                // raw string literal R"delim( ... )delim"
                if !number
                    && bytes.get(i) == Some(&b'"')
                    && matches!(&bytes[start..i], b"R" | b"LR" | b"uR" | b"UR" | b"u8R")
                {
                    let open = i;
                    let paren = bytes[open..]
                        .iter()
                        .position(|c| *c == b'(')
                        .map(|p| open + p);
                    if let Some(paren) = paren {
                        let mut closing = vec![b')'];
                        closing.extend_from_slice(&bytes[open + 1..paren]);
                        closing.push(b'"');
                        let end = bytes[paren..]
                            .windows(closing.len())
                            .position(|w| w == closing.as_slice());
                        i = end
                            .map(|e| paren + e + closing.len())
                            .unwrap_or(bytes.len());
                        tokens.push(Token {
                            start,
                            end: i,
                            kind: TokenKind::Literal,
                            line_start,
                        });
                        line_start = false;
                        continue;
                    }
                }
                let kind = if number {
                    TokenKind::Number
                } else {
                    TokenKind::Identifier
                };
                tokens.push(Token {
                    start,
                    end: i,
                    kind,
                    line_start,
                });
                line_start = false;
            }
            _ => {
                let start = i;
                i += 1;
                if b >= 0x80 {
                    while i < bytes.len() && (bytes[i] & 0xC0) == 0x80 {
                        i += 1;
                    }
                } else if b == b':' && bytes.get(i) == Some(&b':') {
                    i += 1;
                }
                tokens.push(Token {
                    start,
                    end: i,
                    kind: TokenKind::Punct,
                    line_start,
                });
                line_start = false;
            }
        }
    }
    tokens
}

/// Built-in type keywords: an argument made only of these (and `*`, `&`, `const`) is a type.
fn is_type_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"int"
            | b"float"
            | b"double"
            | b"char"
            | b"short"
            | b"long"
            | b"unsigned"
            | b"signed"
            | b"bool"
            | b"void"
            | b"const"
            | b"volatile"
            | b"struct"
    )
}

/// Words that start declarations: a macro written before one of them is an attribute.
fn starts_declaration(word: &[u8]) -> bool {
    is_type_keyword(word)
        || matches!(
            word,
            b"static"
                | b"inline"
                | b"extern"
                | b"auto"
                | b"constexpr"
                | b"template"
                | b"class"
                | b"typename"
                | b"__device__"
                | b"__global__"
                | b"__host__"
                | b"__forceinline__"
                | b"__noinline__"
                | b"__inline__"
                | b"__managed__"
                | b"__shared__"
                | b"__constant__"
        )
}

fn is_statement_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"if"
            | b"for"
            | b"while"
            | b"switch"
            | b"return"
            | b"sizeof"
            | b"catch"
            | b"else"
            | b"do"
            | b"case"
            | b"new"
            | b"delete"
            | b"template"
            | b"operator"
            | b"decltype"
            | b"alignof"
            | b"__alignof__"
            | b"typeid"
            | b"static_assert"
            | b"noexcept"
            | b"throw"
            | b"defined"
            | b"__launch_bounds__"
            | b"__attribute__"
            | b"__declspec"
            | b"alignas"
            | b"_Alignas"
            | b"__typeof__"
            | b"typeof"
            | b"asm"
            | b"__asm__"
            | b"volatile"
            | b"__volatile__"
            | b"goto"
            | b"using"
            | b"typedef"
    )
}

fn is_macro_case(word: &[u8]) -> bool {
    word.len() >= 2
        && word.iter().any(u8::is_ascii_uppercase)
        && word
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
}

/// `k << < grid, block >> > (args)`: nvcc takes a launch's chevrons with blanks between them,
/// the grammar only whole. Each `<< <` is written `<<< ` and the next `>> >` before the end of
/// the statement `>>> `, keeping every byte offset. A shift cannot be followed by `<`, so nothing
/// else changes (a template's `>> >` is rewritten only after a launch's opening).
fn join_spaced_launch_chevrons(bytes: &mut [u8]) {
    let close = |bytes: &mut [u8], third: usize, from: usize| {
        bytes[from] = bytes[third];
        for byte in &mut bytes[from + 1..=third] {
            *byte = b' ';
        }
    };
    let mut at = 0;
    while at + 2 < bytes.len() {
        let Some(third) = spaced_launch_opening(bytes, at) else {
            at += 1;
            continue;
        };
        close(bytes, third, at + 2);
        let mut end = third + 1;
        while end + 2 < bytes.len() && !matches!(bytes[end], b';' | b'{' | b'}') {
            if bytes[end] == b'>' && bytes[end + 1] == b'>' {
                if let Some(last) = after_blanks(bytes, end + 2, b'>') {
                    close(bytes, last, end + 2);
                }
                break;
            }
            end += 1;
        }
        at = end;
    }
}

/// Whether `text` holds a launch's opening written with blanks (`<< <`), which the parsed view
/// joins: a quick look before a function's launches are sought.
pub fn has_spaced_launch_opening(text: &str) -> bool {
    text.match_indices("<<")
        .any(|(at, _)| spaced_launch_opening(text.as_bytes(), at).is_some())
}

/// Where the third `<` of a spaced opening `<< <` that starts at `at` is.
fn spaced_launch_opening(bytes: &[u8], at: usize) -> Option<usize> {
    let opens = bytes.get(at) == Some(&b'<')
        && bytes.get(at + 1) == Some(&b'<')
        && (at == 0 || bytes[at - 1] != b'<');
    opens.then(|| after_blanks(bytes, at + 2, b'<')).flatten()
}

/// Where the lone `sign` (not doubled, not followed by `=`) is that ends the run of blanks from
/// `from`, when there is such a run.
fn after_blanks(bytes: &[u8], from: usize, sign: u8) -> Option<usize> {
    let mut at = from;
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\t') {
        at += 1;
    }
    let after = bytes.get(at + 1).copied();
    (at > from && bytes.get(at) == Some(&sign) && after != Some(sign) && after != Some(b'='))
        .then_some(at)
}

/// Edits on the view that let the grammar parse common macro idioms; each keeps every byte offset.
fn repair(bytes: &mut [u8], defines: &HashMap<String, String>, neutralised: &mut Vec<Neutralised>) {
    let tokens = tokenize(bytes);
    let is = |bytes: &[u8], t: Option<&Token>, text: &[u8]| {
        t.is_some_and(|t| &bytes[t.start..t.end] == text)
    };
    let mut removed = vec![false; tokens.len()];
    let matching = matching_tokens(bytes, &tokens);

    for (k, token) in tokens.iter().enumerate() {
        if removed[k] || token.kind != TokenKind::Identifier {
            continue;
        }
        // what each rule asks of the token's text, read before any rule edits the view (the
        // text is not copied: there is one per identifier of the file)
        let current = &bytes[token.start..token.end];
        let is_new = current == b"new";
        let is_typeid = current == b"typeid";
        let is_execution_space = current == b"__device__" || current == b"__host__";
        let is_keyword = is_statement_keyword(current);
        let is_unknown_macro = token.line_start
            && is_macro_case(current)
            && !defines.contains_key(String::from_utf8_lossy(current).as_ref());
        // `new int*[n]`: the grammar takes no pointer declarator there; the stars do not change
        // what the model reads from the expression.
        if is_new {
            let mut j = k + 1;
            while tokens
                .get(j)
                .is_some_and(|t| t.kind == TokenKind::Identifier || is(bytes, Some(t), b"::"))
            {
                j += 1;
            }
            let first_star = j;
            while is(bytes, tokens.get(j), b"*") {
                j += 1;
            }
            if j > first_star && first_star > k + 1 && is(bytes, tokens.get(j), b"[") {
                for t in &tokens[first_star..j] {
                    blank(bytes, t.start..t.end);
                }
            }
        }
        // `[=] __device__ (int i) { ... }`: an extended lambda's execution space
        if is_execution_space && k > 0 && is(bytes, tokens.get(k - 1), b"]") {
            let mut j = k;
            while tokens
                .get(j)
                .is_some_and(|t| matches!(&bytes[t.start..t.end], b"__device__" | b"__host__"))
            {
                j += 1;
            }
            if is(bytes, tokens.get(j), b"(") {
                for t in &tokens[k..j] {
                    blank(bytes, t.start..t.end);
                }
                for r in removed.iter_mut().take(j).skip(k) {
                    *r = true;
                }
                continue;
            }
        }
        // `"%d\t" fNID "\n"`, `"v" XSTR(V) "\n"`: a macro pasted between string literals
        if k > 0
            && tokens[k - 1].kind == TokenKind::Literal
            && bytes[tokens[k - 1].start] == b'"'
            && !is_keyword
        {
            let mut end = k;
            if is(bytes, tokens.get(k + 1), b"(") {
                if let Some(close) = matching.get(k + 1).copied().flatten() {
                    end = close;
                }
            }
            if tokens
                .get(end + 1)
                .is_some_and(|t| t.kind == TokenKind::Literal && bytes[t.start] == b'"')
            {
                blank(bytes, token.start..tokens[end].end);
                for r in removed.iter_mut().take(end + 1).skip(k) {
                    *r = true;
                }
                continue;
            }
        }
        // an unknown macro before a declaration: `HDI void f()`, `DEV static int g()`
        if is_unknown_macro {
            let previous_ends_statement = k == 0
                || matches!(
                    &bytes[tokens[k - 1].start..tokens[k - 1].end],
                    b";" | b"{" | b"}" | b">"
                );
            let next = tokens.get(k + 1);
            let before_keyword = next.is_some_and(|t| {
                t.kind == TokenKind::Identifier && starts_declaration(&bytes[t.start..t.end])
            });
            let before_declaration = looks_like_declaration_head(bytes, &tokens, k + 1);
            if previous_ends_statement && (before_keyword || before_declaration) {
                blank(bytes, token.start..token.end);
                neutralised.push(Neutralised {
                    span: token.start..token.end,
                    expansion: String::new(),
                });
                removed[k] = true;
                continue;
            }
        }
        // `TEST_CASE("inserts keys", "[map]") { ... }`: a test framework's macro opens a
        // function whose head names it with strings or numbers, which no declarator holds; as
        // identifiers of the same length they make the head of a definition the grammar reads
        // (as `TEST(Suite, Name) { ... }` is read)
        if is_unknown_macro && is(bytes, tokens.get(k + 1), b"(") {
            if let Some(close) = matching.get(k + 1).copied().flatten() {
                let arguments = tokens.get(k + 2..close).unwrap_or_default();
                let opens_body = is(bytes, tokens.get(close + 1), b"{");
                let names_with_values = arguments
                    .iter()
                    .any(|t| matches!(t.kind, TokenKind::Literal | TokenKind::Number));
                let plain = arguments.iter().all(|t| {
                    t.kind != TokenKind::Punct || matches!(&bytes[t.start..t.end], b"," | b"::")
                });
                let single_line = arguments
                    .iter()
                    .all(|t| !bytes[t.start..t.end].contains(&b'\n'));
                if opens_body && names_with_values && plain && single_line {
                    for t in arguments {
                        if matches!(t.kind, TokenKind::Literal | TokenKind::Number) {
                            bytes[t.start..t.end].fill(b'_');
                        }
                    }
                    continue;
                }
            }
        }
        // a type passed to a macro: `CTALLOC(double, n)`, `va_arg(list, char*)`
        if is(bytes, tokens.get(k + 1), b"(") && !is_keyword || is_typeid {
            if let Some(close) = matching.get(k + 1).copied().flatten() {
                let callee_position_is_expression = k == 0
                    || tokens[k - 1].kind == TokenKind::Punct
                        && !matches!(
                            &bytes[tokens[k - 1].start..tokens[k - 1].end],
                            b"*" | b"&" | b">" | b"::" | b"~" | b"."
                        )
                    || matches!(&bytes[tokens[k - 1].start..tokens[k - 1].end], b"return");
                if callee_position_is_expression {
                    blank_type_arguments(bytes, &tokens, &matching, k + 1, close, is_typeid);
                }
            }
        }
    }
    supply_statement_semicolons(bytes, &tokens, &matching);
    supply_semicolons_after_block_macros(bytes, &tokens, defines);
    separate_statements_in_macro_arguments(bytes, &tokens);
    unmistake_comparisons_for_templates(bytes, &tokens, &matching);
    unmistake_parenthesized_names_for_casts(bytes, &tokens);
}

/// `(tid_k) + (tid_i) * nx`: the grammar reads `(tid_k)` as a cast to a type named `tid_k` of
/// `+(tid_i)`, so the sum becomes a product (`((tid_k) +(tid_i)) * nx`) and the term `tid_k` is
/// lost to every reader of the tree. Where the name is a variable of the file (declared with a
/// value or as a parameter: `int tid_k = ...`, `int nx,`) and never declared as a type, the two
/// parentheses become blanks in the view, which then holds the sum it was written as. A cast of a
/// signed value to a type (`(Real) -x`) is left alone: the type is not a variable of the file.
fn unmistake_parenthesized_names_for_casts(bytes: &mut [u8], tokens: &[Token]) {
    let text = |t: &Token| &bytes[t.start..t.end];
    let punct = |t: Option<&Token>, c: &[u8]| {
        t.is_some_and(|t| t.kind == TokenKind::Punct && &bytes[t.start..t.end] == c)
    };
    // a lone `+` or `-` (not `++`, `+=`, `->`) that starts the value the cast would take
    let sign = |t: Option<&Token>| {
        t.is_some_and(|t| {
            t.kind == TokenKind::Punct
                && matches!(bytes[t.start], b'+' | b'-')
                && !matches!(bytes.get(t.start + 1), Some(b'+' | b'-' | b'=' | b'>'))
        })
    };
    let mut candidates = Vec::new();
    for k in 0..tokens.len() {
        let name = tokens.get(k + 1);
        if !punct(tokens.get(k), b"(")
            || !name.is_some_and(|n| n.kind == TokenKind::Identifier)
            || !punct(tokens.get(k + 2), b")")
            || !sign(tokens.get(k + 3))
        {
            continue;
        }
        // after a name, a `)` or a `>` the parentheses are a call's or a cast's: `f(x) - 1`,
        // `(float)(x) - 1`, `static_cast<int>(x) - 1`; after `return` they hold a value
        let after_value = k
            .checked_sub(1)
            .and_then(|p| tokens.get(p))
            .is_some_and(|p| match p.kind {
                TokenKind::Identifier => text(p) != b"return",
                TokenKind::Number | TokenKind::Literal => true,
                TokenKind::Punct => matches!(text(p), b")" | b"]" | b">"),
            });
        if !after_value {
            candidates.push(k);
        }
    }
    if candidates.is_empty() {
        return;
    }
    let mut variables: HashSet<&[u8]> = HashSet::new();
    let mut types: HashSet<&[u8]> = HashSet::new();
    let mut in_typedef = false;
    for (j, token) in tokens.iter().enumerate() {
        if token.kind == TokenKind::Punct {
            if text(token) == b";" {
                if in_typedef {
                    // `typedef double Real;`: the last name declares the type
                    if let Some(last) = j.checked_sub(1).and_then(|p| tokens.get(p)) {
                        if last.kind == TokenKind::Identifier {
                            types.insert(text(last));
                        }
                    }
                }
                in_typedef = false;
            }
            continue;
        }
        if token.kind != TokenKind::Identifier {
            continue;
        }
        let before = j.checked_sub(1).and_then(|p| tokens.get(p));
        match text(token) {
            b"typedef" => in_typedef = true,
            b"using" | b"struct" | b"class" | b"union" | b"enum" | b"typename" => {
                if let Some(next) = tokens
                    .get(j + 1)
                    .filter(|n| n.kind == TokenKind::Identifier)
                {
                    types.insert(text(next));
                }
            }
            _ => {}
        }
        let declared_after = before.is_some_and(|b| match b.kind {
            TokenKind::Identifier => !matches!(
                text(b),
                b"using"
                    | b"typename"
                    | b"class"
                    | b"struct"
                    | b"union"
                    | b"enum"
                    | b"typedef"
                    | b"return"
                    | b"goto"
                    | b"case"
                    | b"namespace"
                    | b"new"
                    | b"delete"
                    | b"else"
                    | b"operator"
                    | b"sizeof"
                    | b"template"
                    | b"throw"
            ),
            TokenKind::Punct => matches!(text(b), b"*" | b"&"),
            _ => false,
        });
        let next = tokens.get(j + 1);
        let ends_declarator = next.is_some_and(|n| {
            n.kind == TokenKind::Punct
                && match text(n) {
                    b"=" => bytes.get(n.end) != Some(&b'='),
                    b"," | b")" | b";" => true,
                    _ => false,
                }
        });
        // the later names of a list, `int tid, tid_i, tid_k;`
        let listed = punct(before, b",")
            && next.is_some_and(|n| {
                n.kind == TokenKind::Punct
                    && matches!(text(n), b"," | b";" | b"=")
                    && bytes.get(n.end) != Some(&b'=')
            });
        if ((declared_after && ends_declarator) || listed) && !in_typedef {
            variables.insert(text(token));
        }
    }
    let mut blanks = Vec::new();
    for k in candidates {
        let (Some(name), Some(close)) = (tokens.get(k + 1), tokens.get(k + 2)) else {
            continue;
        };
        let name = text(name);
        if variables.contains(name) && !types.contains(name) {
            blanks.extend([tokens[k].start, close.start]);
        }
    }
    for at in blanks {
        bytes[at] = b' ';
    }
}

/// `i < n && m < i && score > -1.0f`: the grammar reads `m<i && score>` as a template's
/// arguments followed by `- 1.0f`, and the test `i < n` is lost inside them (`y < rows && c >= 0`
/// likewise, followed by `= 0`). A `<` after a name
/// that a `&&` or `||` and then a `>` follow, in one expression, becomes `>` in the view: both
/// compare with one precedence, so the tree has the comparisons' shape, and every reader takes
/// the operator from the file's text, where it is still `<`. A template's arguments seldom hold
/// an unparenthesised `&&`; a template declaration's (`template <bool B = X && Y>`) are left
/// alone.
fn unmistake_comparisons_for_templates(
    bytes: &mut [u8],
    tokens: &[Token],
    matching: &[Option<usize>],
) {
    let lone = |bytes: &[u8], t: &Token, c: u8| {
        bytes[t.start] == c
            && !matches!(bytes.get(t.end), Some(b'<' | b'>' | b'='))
            && !t
                .start
                .checked_sub(1)
                .is_some_and(|b| matches!(bytes[b], b'<' | b'>' | b'-' | b'='))
    };
    let at_least = |bytes: &[u8], t: &Token| {
        bytes[t.start] == b'>'
            && bytes.get(t.end) == Some(&b'=')
            && bytes.get(t.end + 1) != Some(&b'=')
            && !t
                .start
                .checked_sub(1)
                .is_some_and(|b| matches!(bytes[b], b'<' | b'>' | b'-' | b'='))
    };
    let mut swaps = Vec::new();
    for k in 1..tokens.len() {
        let token = &tokens[k];
        let name = &tokens[k - 1];
        if token.kind != TokenKind::Punct
            || !lone(bytes, token, b'<')
            || name.kind != TokenKind::Identifier
            || matches!(&bytes[name.start..name.end], b"template" | b"operator")
        {
            continue;
        }
        let mut logical = false;
        let mut j = k + 1;
        while let Some(next) = tokens.get(j) {
            if next.kind == TokenKind::Punct {
                match &bytes[next.start..next.end] {
                    b"(" | b"[" | b"{" => match matching.get(j).copied().flatten() {
                        Some(close) => {
                            j = close + 1;
                            continue;
                        }
                        None => break,
                    },
                    b")" | b"]" | b"}" | b";" | b"," | b"?" | b":" => break,
                    b"&" | b"|" if bytes.get(next.end) == Some(&bytes[next.start]) => {
                        logical = true;
                        j += 2;
                        continue;
                    }
                    // `c >= 0` closes the arguments as well: the grammar reads `= 0` after them
                    b">" if lone(bytes, next, b'>') || at_least(bytes, next) => {
                        if logical {
                            swaps.push(token.start);
                        }
                        break;
                    }
                    _ => {}
                }
            }
            j += 1;
        }
    }
    for at in swaps {
        bytes[at] = b'>';
    }
}

/// `TYPE_SWITCH(dtype, T, k<T><<<g, b>>>(p, n););`: a macro's last argument is often a
/// statement, or several, which the grammar does not take in an argument list. A `;` directly
/// inside the parentheses of a call (not a `for`, `if`, `while` or `switch` header) becomes `,`
/// between two statements and a blank before the `)`, so each statement parses as an argument.
fn separate_statements_in_macro_arguments(bytes: &mut [u8], tokens: &[Token]) {
    // the open brackets around the current token: each `(`'s token index and whether it opens
    // a call's arguments
    let mut open: Vec<(u8, bool)> = Vec::new();
    for (k, token) in tokens.iter().enumerate() {
        if token.kind != TokenKind::Punct {
            continue;
        }
        match bytes[token.start] {
            b'(' => {
                let called = k > 0
                    && tokens[k - 1].kind == TokenKind::Identifier
                    && !matches!(
                        &bytes[tokens[k - 1].start..tokens[k - 1].end],
                        b"for" | b"if" | b"while" | b"switch" | b"return" | b"sizeof"
                    );
                open.push((b'(', called));
            }
            b'[' | b'{' => open.push((bytes[token.start], false)),
            b')' | b']' | b'}' => {
                open.pop();
            }
            b';' if token.end == token.start + 1 && open.last() == Some(&(b'(', true)) => {
                let closes = tokens
                    .get(k + 1)
                    .is_some_and(|t| t.kind == TokenKind::Punct && bytes[t.start] == b')');
                bytes[token.start] = if closes { b' ' } else { b',' };
            }
            _ => {}
        }
    }
}

/// For every `(`, `[`, `{` token, the index of its closing token.
fn matching_tokens(bytes: &[u8], tokens: &[Token]) -> Vec<Option<usize>> {
    let mut result = vec![None; tokens.len()];
    let mut stack: Vec<(u8, usize)> = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if t.kind != TokenKind::Punct {
            continue;
        }
        match bytes[t.start] {
            open @ (b'(' | b'[' | b'{') => stack.push((open, k)),
            close @ (b')' | b']' | b'}') => {
                let open = match close {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                // unbalanced code: drop inner openers until the matching kind
                while let Some(&(kind, index)) = stack.last() {
                    stack.pop();
                    if kind == open {
                        result[index] = Some(k);
                        break;
                    }
                    if close != b'}' {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    result
}

/// `T name (`, `T* name(`, `ns::T<A> name(` after a macro: a function declaration's head.
fn looks_like_declaration_head(bytes: &[u8], tokens: &[Token], from: usize) -> bool {
    let mut identifiers = 0;
    let mut j = from;
    let mut angle = 0usize;
    while let Some(t) = tokens.get(j) {
        let text = &bytes[t.start..t.end];
        match (t.kind, text) {
            (TokenKind::Identifier, _) => identifiers += 1,
            (TokenKind::Punct, b"<") => angle += 1,
            (TokenKind::Punct, b">") if angle > 0 => angle -= 1,
            (TokenKind::Punct, b"*" | b"&" | b"::" | b",") => {}
            (TokenKind::Number, _) if angle > 0 => {}
            (TokenKind::Punct, b"(") => {
                return angle == 0
                    && identifiers >= 2
                    && tokens
                        .get(j - 1)
                        .is_some_and(|p| p.kind == TokenKind::Identifier)
            }
            _ => return false,
        }
        if j > from + 24 {
            return false;
        }
        j += 1;
    }
    false
}

/// Turns arguments that are bare types (`double`, `char*`, `unsigned int`) into one identifier of
/// the same length, when the call also has an argument that is not a type (a prototype such as
/// `f(int, float)` has none).
fn blank_type_arguments(
    bytes: &mut [u8],
    tokens: &[Token],
    matching: &[Option<usize>],
    open: usize,
    close: usize,
    single_allowed: bool,
) {
    let mut arguments = Vec::new();
    let mut start = open + 1;
    let mut j = open + 1;
    while j < close {
        let t = tokens[j];
        if matches!(bytes[t.start], b'(' | b'[' | b'{') && t.kind == TokenKind::Punct {
            j = matching.get(j).copied().flatten().unwrap_or(j) + 1;
            continue;
        }
        if t.kind == TokenKind::Punct && bytes[t.start] == b',' {
            arguments.push(start..j);
            start = j + 1;
        }
        j += 1;
    }
    arguments.push(start..close);
    let is_type = |range: &Range<usize>| -> bool {
        let parts = &tokens[range.clone()];
        if parts.is_empty() || parts.len() > 6 {
            return false;
        }
        let mut keywords = 0;
        for (index, t) in parts.iter().enumerate() {
            let text = &bytes[t.start..t.end];
            match t.kind {
                TokenKind::Identifier if is_type_keyword(text) => keywords += 1,
                TokenKind::Identifier => {}
                TokenKind::Punct if index > 0 && matches!(text, b"*" | b"&" | b"::") => {}
                _ => return false,
            }
        }
        let ends_with_pointer = parts
            .last()
            .is_some_and(|t| matches!(&bytes[t.start..t.end], b"*" | b"&"));
        let identifiers = parts
            .iter()
            .filter(|t| t.kind == TokenKind::Identifier)
            .count();
        // `a * b` and `x` are expressions; `char*`, `double`, `unsigned int`, `const T*` are types
        (keywords > 0 && (identifiers == keywords || ends_with_pointer))
            || (ends_with_pointer && identifiers == 1)
    };
    let types: Vec<bool> = arguments.iter().map(is_type).collect();
    let has_value = types.iter().any(|t| !t);
    if !(has_value || single_allowed && arguments.len() == 1) {
        return;
    }
    for (range, is_type) in arguments.iter().zip(types) {
        if !is_type || range.is_empty() {
            continue;
        }
        let span = tokens[range.start].start..tokens[range.end - 1].end;
        if bytes[span.clone()]
            .iter()
            .any(|b| matches!(b, b'/' | b'\n' | b'\r'))
        {
            continue;
        }
        for b in &mut bytes[span] {
            *b = b'_';
        }
    }
}

/// `CUDA_CHECK(cudaFree(p))` on a line of its own, without `;`: the grammar needs the `;`, so one
/// replaces a blank after the call (on its line, or on the next line before any code).
fn supply_statement_semicolons(bytes: &mut [u8], tokens: &[Token], matching: &[Option<usize>]) {
    for (k, token) in tokens.iter().enumerate() {
        if token.kind != TokenKind::Identifier
            || !token.line_start
            || is_statement_keyword(&bytes[token.start..token.end])
        {
            continue;
        }
        if !tokens
            .get(k + 1)
            .is_some_and(|t| bytes[t.start] == b'(' && t.kind == TokenKind::Punct)
        {
            continue;
        }
        let Some(close) = matching.get(k + 1).copied().flatten() else {
            continue;
        };
        if tokens[close].end - token.start > 4000 {
            continue;
        }
        let previous_ends_statement = k == 0
            || matches!(
                &bytes[tokens[k - 1].start..tokens[k - 1].end],
                b";" | b"{" | b"}" | b")" | b":" | b"else"
            );
        if !previous_ends_statement {
            continue;
        }
        // after `if (c)` only one statement follows; after `)` of a declarator this is no statement
        if k > 0
            && bytes[tokens[k - 1].start] == b':'
            && k > 1
            && !matches!(
                tokens[k - 2].kind,
                TokenKind::Identifier | TokenKind::Number
            )
        {
            continue;
        }
        let next = tokens.get(close + 1);
        let next_is_statement_start = match next {
            None => true,
            Some(t) if !t.line_start => false,
            // `const int n = ...;` declares; `const {`, `const override` qualify a declarator
            Some(t) if &bytes[t.start..t.end] == b"const" => {
                tokens.get(close + 2).is_some_and(|u| {
                    u.kind == TokenKind::Identifier
                        && !is_declarator_qualifier(&bytes[u.start..u.end])
                })
            }
            Some(t) => match t.kind {
                TokenKind::Identifier => !matches!(
                    &bytes[t.start..t.end],
                    b"const"
                        | b"override"
                        | b"final"
                        | b"noexcept"
                        | b"throw"
                        | b"try"
                        | b"volatile"
                        | b"requires"
                        | b"mutable"
                ),
                TokenKind::Punct => bytes[t.start] == b'}',
                _ => false,
            },
        };
        if !next_is_statement_start {
            continue;
        }
        if let Some(position) = semicolon_position(bytes, tokens[close].end) {
            bytes[position] = b';';
        }
    }
}

/// `CHECK_KERNEL` alone on its line, an object-like macro whose body is a block (`{ cudaError_t e
/// = cudaGetLastError(); ... }`): the compiler needs no `;` after it, the grammar does, or it reads
/// the macro as the type of a declaration that swallows the next statement (a launch).
fn supply_semicolons_after_block_macros(
    bytes: &mut [u8],
    tokens: &[Token],
    defines: &HashMap<String, String>,
) {
    for (k, token) in tokens.iter().enumerate() {
        if token.kind != TokenKind::Identifier || !token.line_start {
            continue;
        }
        if tokens.get(k + 1).is_some_and(|next| !next.line_start) {
            continue;
        }
        let previous_ends_statement = k == 0
            || matches!(
                &bytes[tokens[k - 1].start..tokens[k - 1].end],
                b";" | b"{" | b"}" | b")" | b"else"
            );
        if !previous_ends_statement {
            continue;
        }
        let Ok(name) = std::str::from_utf8(&bytes[token.start..token.end]) else {
            continue;
        };
        let is_block = defines.get(name).is_some_and(|body| {
            // the body keeps its line continuations
            let body = body.trim_matches(|c: char| c.is_whitespace() || c == '\\');
            body.starts_with('{') && body.ends_with('}')
        });
        if !is_block {
            continue;
        }
        if let Some(position) = semicolon_position(bytes, token.end) {
            bytes[position] = b';';
        }
    }
}

/// Words that follow a function declarator's `const`: `f() const override`, `f() const noexcept`.
fn is_declarator_qualifier(word: &[u8]) -> bool {
    matches!(
        word,
        b"override"
            | b"final"
            | b"noexcept"
            | b"throw"
            | b"try"
            | b"volatile"
            | b"requires"
            | b"mutable"
    )
}

fn semicolon_position(bytes: &[u8], after: usize) -> Option<usize> {
    match bytes.get(after) {
        Some(b' ' | b'\t' | b'\r') => return Some(after),
        Some(b'\n') => {}
        Some(b'/') if bytes.get(after + 1) == Some(&b'/') => {}
        None => return None,
        _ => return None,
    }
    let line_end = bytes[after..]
        .iter()
        .position(|b| *b == b'\n')
        .map(|p| after + p)?;
    // the next line: its first blank, unless a directive starts it
    let next = line_end + 1;
    let first_code = bytes[next..]
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        .map(|p| next + p)
        .unwrap_or(bytes.len());
    if first_code > next && bytes.get(first_code) != Some(&b'#') {
        return Some(next);
    }
    if bytes.get(first_code) == Some(&b'\n') && first_code > next {
        return Some(next);
    }
    if bytes.get(after) == Some(&b'\n')
        && bytes.get(first_code) != Some(&b'#')
        && first_code == next
    {
        return Some(after);
    }
    None
}

fn is_inside_directive(text: &str, offset: usize) -> bool {
    let line_start = text[..offset].rfind('\n').map(|i| i + 1).unwrap_or(0);
    text[line_start..offset].trim_start().starts_with('#')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_that_write_a_grid_and_a_block_together_are_found() {
        let text = "#define MIN(a, b) ((a) < (b) ? (a) : (b))\n\
            #define DIM(n, nb) MIN((n + nb - 1) / nb, 128), MIN(n, nb)\n\
            #define DIM3(nx, ny, nb, z) dim3(nx / nb, ny / nb), dim3(nb, nb)\n\
            #define DIM2(nx, ny, nb) DIM3(nx, ny, nb, 1)\n\
            #define GET_BLOCKS(n) ((n + 255) / 256)\n\
            #define LAUNCH(k, n) k<<<GET_BLOCKS(n), 256>>>(n)\n\
            #define ARGS(a, b, c) a, b, c\n";
        let mut names = launch_shape_macro_names(text);
        names.sort();
        assert_eq!(names, ["DIM", "DIM2", "DIM3"]);
        assert_eq!(macro_called_by("DIM3(nx, ny, nb, 1)"), Some("DIM3"));
        assert_eq!(macro_called_by("MIN(a, b) + MIN(c, d)"), None);
        // one use of a header's shape macro, unless the file defines that name otherwise
        let header = ["DIM3".to_string()];
        assert_eq!(
            launch_shape_names(&[("DIM2", "DIM3(nx, ny, nb, 1)")], &header),
            ["DIM2"]
        );
        assert!(launch_shape_names(
            &[("DIM2", "DIM3(nx, ny, nb, 1)"), ("DIM3", "((nx) / (nb))")],
            &header
        )
        .is_empty());
    }

    #[test]
    fn a_launch_written_with_blanks_in_its_chevrons_is_joined_in_the_view() {
        let joined = [
            (
                "k << < grid, block >> > (a, n);",
                "k <<<  grid, block >>>  (a, n);",
            ),
            ("k<< <g, b, 0, s>> >(a);", "k<<< g, b, 0, s>>> (a);"),
        ];
        for (text, expected) in joined {
            assert_eq!(preprocess(text, &[]).text, expected);
        }
        let untouched = [
            "int z = a << b; std::vector<std::vector<int>> > v;",
            "k<<<g, b>>>(a); std::map<int, std::vector<std::vector<int>> > m;",
            "x <<= y; if (a << 1 <= b) f();",
        ];
        for text in untouched {
            assert_eq!(preprocess(text, &[]).text, text);
            assert!(!has_spaced_launch_opening(text), "{text}");
        }
        for (text, _) in joined {
            assert!(has_spaced_launch_opening(text), "{text}");
        }
    }

    #[test]
    fn comparisons_that_read_as_template_arguments_are_made_comparisons_in_the_view() {
        let swapped = [
            (
                "if (i < n && m < i && s[m] > -1.0f) k[i] = 0;",
                "if (i > n && m > i && s[m] > -1.0f) k[i] = 0;",
            ),
            ("bool ok = x < w || y > (h);", "bool ok = x > w || y > (h);"),
            (
                "v = (y < rows && c >= 0 && c < cols) ? in[c] : 0;",
                "v = (y > rows && c >= 0 && c < cols) ? in[c] : 0;",
            ),
        ];
        for (text, expected) in swapped {
            assert_eq!(preprocess(text, &[]).text, expected);
        }
        let untouched = [
            "template <bool B = X && Y> struct S {};",
            "k<T><<<g, b>>>(p, n); int z = a << b && c > -1;",
            "if (x <= y && z > -1) f(static_cast<int>(a && b));",
            "if (i < n && p->q) f(i);",
            "auto v = t.data<float>() && ok;",
            "if (f(a < b, c > -1)) g();",
        ];
        for text in untouched {
            assert_eq!(preprocess(text, &[]).text, text);
        }
    }

    #[test]
    fn a_parenthesized_variable_before_a_sign_is_not_read_as_a_cast() {
        let unwrapped = [
            (
                "void f(int nx) { int k = t / 2; int d = (k) + (i)*nx - (nx) - 1; }",
                "void f(int nx) { int k = t / 2; int d =  k  + (i)*nx -  nx  - 1; }",
            ),
            (
                "void f() { int t, i, k; k = t; int d = (k) + (i)*2; }",
                "void f() { int t, i, k; k = t; int d =  k  + (i)*2; }",
            ),
        ];
        for (text, expected) in unwrapped {
            assert_eq!(preprocess(text, &[]).text, expected);
        }
        let untouched = [
            "typedef double Real; Real Real2 = 1; void f(Real x) { Real y = (Real) -x; }",
            "void f(int k) { int a = g(k) + 1; int b = (float)(k) - 1; int c = (k)++ ; }",
            "template <typename T> void f(T x) { T y = (T) -x; int T2 = 0; }",
            "void f(int k) { int a = (k) += 1; int b = (m) + 1; }",
        ];
        for text in untouched {
            assert_eq!(preprocess(text, &[]).text, text);
        }
    }

    #[test]
    fn statements_in_a_macro_argument_list_become_arguments() {
        let text = "void f() {\n    SWITCH(t, T,\n        k<T><<<g, b>>>(p, n););\n    SWITCH2(t, T, a(p); b(q););\n    for (;;) { if (x) break; }\n    for (int i = 0; i < n;) { g(i); }\n}\n";
        let view = preprocess(text, &[]);
        assert_eq!(view.text.len(), text.len());
        assert!(
            view.text.contains("k<T><<<g, b>>>(p, n) );"),
            "{}",
            view.text
        );
        assert!(
            view.text.contains("SWITCH2(t, T, a(p), b(q) );"),
            "{}",
            view.text
        );
        assert!(
            view.text.contains("for (;;) { if (x) break; }"),
            "{}",
            view.text
        );
        assert!(
            view.text.contains("for (int i = 0; i < n;) { g(i); }"),
            "{}",
            view.text
        );
    }

    #[test]
    fn pragma_lines_become_spaces_of_the_same_length() {
        let text = "if (a)\n    x = 1;\nelse\n#pragma unroll\n    for (;;) {}\n  # pragma omp \\\n    parallel\nint y;\n";
        let view = preprocess_with(text, &ViewOptions::default());
        assert_eq!(view.text.len(), text.len());
        assert!(!view.text.contains("pragma"), "{}", view.text);
        assert!(!view.text.contains("parallel"), "{}", view.text);
        assert!(view.text.contains("else\n"));
        assert!(view.text.contains("for (;;) {}") && view.text.ends_with("int y;\n"));
    }

    #[test]
    fn view_keeps_length_and_blanks_inactive_branch() {
        let text = "#if USE_A\nint a;\n#else\nint a = {;\n#endif\nint b;\n";
        let view = preprocess(text, &[]);
        assert_eq!(view.text.len(), text.len());
        assert!(view.text.contains("int a;"));
        assert!(!view.text.contains("{;"));
        assert!(!view.text.contains("#if"));
        assert!(view.text.contains("int b;"));
    }

    #[test]
    fn if_zero_keeps_else_branch() {
        let view = preprocess("#if 0\nbroken(\n#else\nint ok;\n#endif\n", &[]);
        assert!(view.text.contains("int ok;"));
        assert!(!view.text.contains("broken"));
    }

    #[test]
    fn device_emulation_is_never_compiled() {
        let text = "#if __DEVICE_EMULATION__\nint emulated;\n#endif\n\
            #ifdef __DEVICE_EMULATION__\nint emulated_too;\n#else\nint device;\n#endif\n\
            #if !defined(__DEVICE_EMULATION__)\nint device_too;\n#endif\n";
        let view = preprocess(text, &[]);
        assert!(!view.text.contains("emulated"));
        assert!(view.text.contains("int device;"));
        assert!(view.text.contains("int device_too;"));
        // given to the compiler, it is defined
        let options = ViewOptions {
            defines: vec!["__DEVICE_EMULATION__".into()],
            ..Default::default()
        };
        let view = preprocess_with(text, &options);
        assert!(view.text.contains("int emulated;"));
        assert!(!view.text.contains("int device;"));
    }

    #[test]
    fn architecture_tests_no_pass_of_a_build_meets_are_never_compiled() {
        let text = "#if __CUDA_ARCH__ >= 4000000\nint trial;\n#else\nint live;\n#endif\n\
            #if __CUDA_ARCH__ >= 700\nint modern;\n#else\nint legacy;\n#endif\n\
            #if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 0\nint every;\n#else\nint none;\n#endif\n\
            #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 100\nint ancient;\n#elif __CUDA_ARCH__ > 99999\nint future;\n#else\nint rest;\n#endif\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("int live;") && !view.text.contains("int trial;"));
        // passes disagree: the first branch is kept, as for any undecided test
        assert!(view.text.contains("int modern;") && !view.text.contains("int legacy;"));
        assert!(view.text.contains("int every;") && !view.text.contains("int none;"));
        assert!(view.text.contains("int rest;"));
        assert!(!view.text.contains("int ancient;") && !view.text.contains("int future;"));
    }

    #[test]
    fn code_kept_only_for_architectures_no_toolkit_of_today_builds_is_not_compiled() {
        let text = "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 300
int fermi;
#else
int shuffle;
#endif
\
            #if __CUDA_ARCH__ < 350
int no_ldg;
#else
int ldg;
#endif
\
            #if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
int native;
#else
int emulated;
#endif
\
            #ifndef __CUDA_ARCH__
int host;
#else
int device;
#endif
";
        let view = preprocess(text, &[]);
        assert!(!view.text.contains("int fermi;") && view.text.contains("int shuffle;"));
        assert!(!view.text.contains("int no_ldg;") && view.text.contains("int ldg;"));
        // sm_50 to sm_53 are still built and disagree with sm_60: undecided, first branch kept
        assert!(view.text.contains("int native;") && !view.text.contains("int emulated;"));
        // a test of definedness alone separates host from device code: undecided
        assert!(view.text.contains("int host;") && !view.text.contains("int device;"));
    }

    #[test]
    fn the_files_own_definitions_decide_later_tests() {
        let text = "#define RED_BSIZE 128\n#define blockSize RED_BSIZE\n\
            #if blockSize >= 512\nint step512;\n#endif\n#if blockSize >= 128\nint step128;\n#endif\n\
            #ifdef USE_WIDE\n#define WIDTH 64\n#endif\n#if WIDTH >= 64\nint wide;\n#else\nint narrow;\n#endif\n\
            #undef blockSize\n#if blockSize >= 512\nint after_undef;\n#endif\n";
        let view = preprocess(text, &[]);
        assert!(!view.text.contains("step512") && view.text.contains("step128"));
        // a value defined under an undecided test stays unknown: the first branch is kept
        assert!(view.text.contains("int wide;"));
        // undefined again: unknown to the view (it may come from the build)
        assert!(view.text.contains("after_undef"));
    }

    #[test]
    fn qualifier_macro_is_neutralised_and_remembered() {
        let text = "#define HD __host__ __device__\nHD float sq(float x) { return x * x; }\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("   float sq"));
        assert_eq!(view.neutralised.len(), 1);
        assert_eq!(view.neutralised[0].expansion, "__host__ __device__");
    }

    #[test]
    fn a_value_the_build_gives_is_the_macro_value_unless_the_file_defines_it() {
        let options = ViewOptions {
            defines: vec![
                "BLOCK_DIM=64".to_string(),
                "TILE=8".to_string(),
                "FAST".to_string(),
            ],
            ..ViewOptions::default()
        };
        let view = preprocess_with("#define TILE 16\nint x = BLOCK_DIM * TILE;\n", &options);
        assert_eq!(view.define("BLOCK_DIM"), Some("64"));
        assert_eq!(view.define("TILE"), Some("16"));
        assert_eq!(view.define("FAST"), Some("1"));
        assert_eq!(
            preprocess("int x = BLOCK_DIM;\n", &[]).define("BLOCK_DIM"),
            None
        );
    }

    #[test]
    fn header_defines_follow_the_compiled_path() {
        let header = "#ifndef __SOLVER_H__\n#define __SOLVER_H__\n#include \"limits.h\"\n\
            #ifdef WG_SIZE_1\n  #define BLOCK_1 WG_SIZE_1\n#elif defined(WG_SIZE)\n  #define BLOCK_1 WG_SIZE\n\
            #else\n  #define BLOCK_1 192\n#endif\n#define HALF (BLOCK_1 / 2)\n#endif\n";
        let read = HeaderDefines::of(header, &[]);
        assert_eq!(read.values.get("BLOCK_1").map(String::as_str), Some("192"));
        assert!(read.chosen.contains("BLOCK_1"));
        assert!(read.unknown.is_empty(), "{:?}", read.unknown);
        assert!(read.assumed_undefined.contains("WG_SIZE"));
        assert_eq!(read.includes, vec!["limits.h".to_string()]);
        let view = preprocess("int x;\n", &[]).with_included(&[&read], &[]);
        assert_eq!(view.define("BLOCK_1"), Some("192"));
        assert_eq!(view.define("HALF"), Some("96"));
        // a build with -DWG_SIZE=64 compiles the second branch
        let given = vec!["WG_SIZE=64".to_string()];
        let read = HeaderDefines::of(header, &given);
        let view = preprocess("int x;\n", &[]).with_included(&[&read], &given);
        assert_eq!(view.define("BLOCK_1"), Some("64"));
        assert_eq!(view.define("HALF"), Some("32"));
    }

    #[test]
    fn header_defines_on_undecided_paths_are_unknown() {
        let header = "#if __CUDA_ARCH__ >= 800\n#define W 64\n#else\n#define W 32\n#endif\n\
            #ifdef __CUDACC__\n#define ONLY 8\n#endif\n#define R 4\n#undef R\n#define R 5\n";
        let read = HeaderDefines::of(header, &[]);
        assert!(read.unknown.contains("W"));
        // defined on one path only: the one body there is
        assert!(!read.unknown.contains("ONLY"));
        // defined again with another body in kept code
        assert!(read.unknown.contains("R"));
        let view = preprocess("int x;\n", &[]).with_included(&[&read], &[]);
        assert_eq!(view.define("W"), None);
        assert_eq!(view.define("R"), None);
        assert_eq!(view.define("ONLY"), Some("8"));
    }

    #[test]
    fn header_defines_that_disagree_are_unknown() {
        let a = HeaderDefines::of("#define BLOCK 256\n#define TILE 16\n#define USE_BIG\n", &[]);
        let b = HeaderDefines::of("#define BLOCK 128\n#define TILE (16)\n", &[]);
        let c = HeaderDefines::of(
            "#ifdef USE_BIG\n#define CHUNK 512\n#else\n#define CHUNK 128\n#endif\n",
            &[],
        );
        let view =
            preprocess("#define OWN 3\n#define TILE 16\n", &[]).with_included(&[&a, &b, &c], &[]);
        assert_eq!(view.define("BLOCK"), None);
        // `(16)` and `16` are other bodies: not known to agree
        assert_eq!(view.define("TILE"), None);
        assert_eq!(view.define("OWN"), Some("3"));
        // c chose 128 assuming USE_BIG undefined, but a defines it
        assert_eq!(view.define("CHUNK"), None);
        let view = preprocess("int x;\n", &[]).with_included(&[&c], &[]);
        assert_eq!(view.define("CHUNK"), Some("128"));
        // the file's own define that agrees with the header's
        let view = preprocess("#define BLOCK 128\n", &[]).with_included(&[&b], &[]);
        assert_eq!(view.define("BLOCK"), Some("128"));
    }

    #[test]
    fn typed_constants_of_a_header_namespace_are_read_like_its_macros() {
        let header = "#pragma once
namespace tiles {
constexpr uint32_t WARP = 32;  // lanes
static constexpr int kWarps(8);
const size_t kThreads = WARP * kWarps;
constexpr float kScale = 0.5f;
struct Wide { static constexpr int kWarps = 16; };
void f() { const int local = 3; }
/* constexpr int kCommented = 1; */
enum { kEnum = 4 };
}
constexpr int kTwice = 1;
constexpr int kTwice = 2;
class RadixSort
{
public:
    static const unsigned WARP_SIZE = 32;
    const int kPerObject = 4;
    void sort() { static const int kInFunction = 5; }
};
";
        let found = file_scope_integer_constants(header);
        assert_eq!(
            found,
            [
                ("WARP".to_string(), "32".to_string()),
                ("kWarps".to_string(), "8".to_string()),
                ("kThreads".to_string(), "WARP * kWarps".to_string()),
                ("WARP_SIZE".to_string(), "32".to_string()),
            ]
        );
        let read = HeaderDefines::of(header, &[]);
        let view = preprocess("int x;\n", &[]).with_included(&[&read], &[]);
        assert_eq!(view.define("WARP"), Some("32"));
        assert_eq!(
            view.integer_defines.get("kThreads").map(String::as_str),
            Some("256")
        );
        assert_eq!(view.define("kScale"), None);
        assert_eq!(view.define("local"), None);
        // a namespace whose brace is on the next line, and a class whose brace is; two
        // specialisations giving one member two values give it none
        let spread = "namespace sgm\n{\nstatic constexpr unsigned int WARP_SIZE = 32u;\n}\n\
                      struct Traits\n{\nstatic constexpr int kHidden = 4;\n};\n\
                      template <> struct Vec<float>\n{\n  static constexpr int kWidth = 4;\n};\n\
                      template <> struct Vec<half>\n{\n  static constexpr int kWidth = 8;\n};\n\
                      template <typename T, typename U = Vec<T>> class Tile {\n  static const int kRows = 16;\n};\n";
        assert_eq!(
            file_scope_integer_constants(spread),
            [
                ("WARP_SIZE".to_string(), "32u".to_string()),
                ("kHidden".to_string(), "4".to_string()),
                ("kRows".to_string(), "16".to_string())
            ]
        );
    }

    #[test]
    fn integer_values_fold_macros_of_macros() {
        let defines: HashMap<String, String> = [
            ("VAR_MOMENTUM", "1"),
            ("NDIM", "3"),
            ("VAR_ENERGY", "(VAR_MOMENTUM+NDIM)"),
            ("NVAR", "(VAR_ENERGY+1) // components"),
            ("LIMIT", "(NVAR * 0x10 - NVAR % 3)"),
            ("GAMMA", "1.4f"),
            ("BYTES", "(sizeof(float) * NVAR)"),
            ("UNKNOWN_SUM", "(NVAR + OTHER)"),
            ("HALF", "NVAR / 0"),
        ]
        .into_iter()
        .map(|(n, b)| (n.to_string(), b.to_string()))
        .collect();
        let values = integer_values(&defines);
        assert_eq!(values.get("VAR_ENERGY").map(String::as_str), Some("4"));
        assert_eq!(values.get("NVAR").map(String::as_str), Some("5"));
        assert_eq!(values.get("LIMIT").map(String::as_str), Some("78"));
        for none in ["GAMMA", "BYTES", "UNKNOWN_SUM", "HALF"] {
            assert!(!values.contains_key(none), "{none}");
        }
    }

    #[test]
    fn defines_of_two_branches_are_ambiguous() {
        let view = preprocess(
            "#if defined(__GFX9__)\n#define W 64\n#else\n#define W 32\n#endif\n#ifndef T\n#define T 16\n#endif\n#define U 8 // eight\n#undef U\n#define U  8\n",
            &[],
        );
        assert_eq!(view.defines.get("W").map(String::as_str), Some("64"));
        assert!(view.ambiguous_defines.contains("W"));
        assert!(!view.ambiguous_defines.contains("T"));
        assert!(!view.ambiguous_defines.contains("U"));
    }

    #[test]
    fn numeric_defines_are_collected() {
        let view = preprocess("#define N 1024\n#define BLOCK (256)\n", &[]);
        assert_eq!(view.defines.get("N").map(String::as_str), Some("1024"));
        assert_eq!(view.defines.get("BLOCK").map(String::as_str), Some("(256)"));
    }

    #[test]
    fn positions_are_one_based_characters() {
        let text = "ab\ncdé f\n";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), (1, 1));
        assert_eq!(index.position(text, 3), (2, 1));
        let f = text.find('f').unwrap();
        assert_eq!(index.position(text, f), (2, 5));
    }

    fn parses_cleanly(view: &PreprocessedView) -> bool {
        crate::engine::parse(&view.text, None).is_some_and(|tree| !tree.root_node().has_error())
    }

    #[test]
    fn block_macro_alone_on_its_line_gets_a_semicolon() {
        let text = "#define CHECK_KERNEL \\\n  { \\\n    cudaError_t e = cudaGetLastError(); \\\n  }\n\
                    #define N 4\n\
                    void f(float* p) {\n  CHECK_KERNEL\n  k<<<1, 1>>>(p);\n  CHECK_KERNEL\n  int x = N\n    + 1;\n}\n";
        let view = preprocess(text, &[]);
        assert_eq!(view.text.len(), text.len());
        assert!(
            view.text.contains("CHECK_KERNEL\n; k<<<1, 1>>>(p);"),
            "{}",
            view.text
        );
        assert!(
            view.text.contains("CHECK_KERNEL\n; int x = N\n    + 1;"),
            "{}",
            view.text
        );
        assert!(parses_cleanly(&view), "{}", view.text);
    }

    #[test]
    fn a_name_is_read_one_way_in_one_file() {
        // the kernels under `#ifdef USE_CUDA` are read, so are the launches in the `#else` of
        // `#ifndef USE_CUDA`
        let text = "#ifdef USE_CUDA\nint kernels;\n#endif\n#ifndef USE_CUDA\nint cpu;\n#else\nint launches;\n#endif\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("int kernels;"), "{}", view.text);
        assert!(view.text.contains("int launches;"), "{}", view.text);
        assert!(!view.text.contains("int cpu;"), "{}", view.text);
        // a name the file defines above is defined; `#if !defined(N)` reads it the same way
        let text = "#define FAST\n#if !defined(FAST)\nint slow;\n#else\nint fast;\n#endif\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("int fast;") && !view.text.contains("int slow;"));
        // an `#ifndef` first keeps its first branch, and says nothing of a later `#ifdef`
        let text = "#ifndef USE_X\nint without;\n#endif\n#ifdef USE_X\nint with;\n#endif\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("int without;") && view.text.contains("int with;"));
    }

    #[test]
    fn a_switch_whose_absence_keeps_the_launches_is_read_as_absent() {
        // an optional library's handles at the top, then the hand-written launch in the
        // `#ifndef` branch and the library call in the `#else`
        let text = "#ifdef cCUDNN\nint handles;\n#endif\n__global__ void k(float* p) {}\nvoid f(float* p) {\n#ifndef cCUDNN\n  k<<<1, 32>>>(p);\n#else\n  library(p);\n#endif\n}\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("k<<<1, 32>>>(p);"), "{}", view.text);
        assert!(!view.text.contains("int handles;"), "{}", view.text);
        assert!(!view.text.contains("library(p);"), "{}", view.text);
        // a switch whose presence keeps the kernels is read as present, at every test
        let text = "#ifdef USE_CUDA\n__global__ void k(float* p) {}\n#endif\n#ifndef USE_CUDA\nint cpu;\n#else\nvoid f(float* p) { k<<<1, 1>>>(p); }\n#endif\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("k<<<1, 1>>>(p);"), "{}", view.text);
        assert!(!view.text.contains("int cpu;"), "{}", view.text);
    }

    #[test]
    fn statement_macro_gets_a_semicolon_in_a_blank() {
        let text =
            "void f(float* p) {\n  CUDA_CHECK(cudaFree(p)) // done\n  CHECK_LAST()\n  g();\n}\n";
        let view = preprocess(text, &[]);
        assert_eq!(view.text.len(), text.len());
        assert!(
            view.text.contains("CUDA_CHECK(cudaFree(p));// done"),
            "{}",
            view.text
        );
        assert!(view.text.contains("CHECK_LAST()\n; g();"), "{}", view.text);
        assert!(parses_cleanly(&view));
        // a declaration of a constant after the call is a statement; a declarator's `const` is not
        let text = "void f(float* p) {\n  CHECK(cudaFree(p))\n  const int n = 4;\n}\n";
        let view = preprocess(text, &[]);
        assert!(
            view.text.contains("CHECK(cudaFree(p))\n; const int n = 4;"),
            "{}",
            view.text
        );
        assert!(parses_cleanly(&view), "{}", view.text);
        let text = "struct S {\n  int v() { return 1; }\n  get(int i)\n  const { return i; }\n  int w() { return 2; }\n  at(int i)\n  const override;\n};\n";
        let view = preprocess(text, &[]);
        assert_eq!(view.text, text);
        // a call that continues on the next line, or a loop macro with a body, gets none
        let text = "void f() {\n  x = g(a)\n    + 1;\n  LOOP(i, n) {\n  }\n}\n";
        let view = preprocess(text, &[]);
        assert!(
            !view.text.contains(';') || view.text.matches(';').count() == 1,
            "{}",
            view.text
        );
    }

    #[test]
    fn type_arguments_become_identifiers() {
        let text = "void f() {\n  double* a = CTALLOC(double, n);\n  char* s = va_arg(list, char*);\n  CMP_SWP(K, a, b, unsigned int, c);\n}\nvoid g(int, float);\n";
        let view = preprocess(text, &[]);
        assert!(view.text.contains("CTALLOC(______, n)"), "{}", view.text);
        assert!(view.text.contains("va_arg(list, _____)"), "{}", view.text);
        assert!(
            view.text.contains("CMP_SWP(K, a, b, ____________, c)"),
            "{}",
            view.text
        );
        assert!(
            view.text.contains("void g(int, float);"),
            "a prototype keeps its types"
        );
        assert!(parses_cleanly(&view));
    }

    #[test]
    fn declaration_macros_and_new_pointer_arrays_are_neutralised() {
        let text = "DEV static int f(int x) { return x; }\nFORCE_INLINE uint64_t g(const uint8_t* p) { return 0; }\nvoid h(int n) { int** grid = new int*[n]; auto l = [=] __device__ (int i) { return i; }; }\nunsigned short img[64] __attribute__((aligned(1024)));\n";
        let view = preprocess(text, &[]);
        assert_eq!(view.text.len(), text.len());
        assert!(view.text.starts_with("    static int f"), "{}", view.text);
        assert!(view.text.contains("new int [n]"), "{}", view.text);
        assert!(parses_cleanly(&view), "{}", view.text);
        // a type written in capitals is left alone
        let view = preprocess("REAL x = 1;\nREAL f(REAL y) { return y; }\n", &[]);
        assert!(view.text.starts_with("REAL x"));
        assert!(view.text.contains("REAL f(REAL y)"));
    }

    #[test]
    fn pasted_macro_between_strings_is_blanked() {
        let text = "void f() { printf(\"%d\\t\"fNID\"\\n\", 1); printf(\"v \"XSTR(V)\"\\n\"); }\n";
        let view = preprocess(text, &[]);
        assert!(parses_cleanly(&view), "{}", view.text);
    }

    #[test]
    fn defines_choose_branches() {
        let text = "#ifdef USE_A\nint a;\n#else\nint b;\n#endif\n#if N > 2 && !defined(SLOW)\nint big;\n#else\nint small;\n#endif\n";
        let first = preprocess(text, &[]);
        assert!(first.text.contains("int a;") && !first.text.contains("int b;"));
        let options = ViewOptions {
            qualifier_macros: Vec::new(),
            defines: vec!["N=1".into()],
            as_compiled: false,
            compiled_everywhere: false,
            known_qualifiers: Vec::new(),
        };
        let chosen = preprocess_with(text, &options);
        // USE_A is not given but may come from elsewhere: the first branch stays
        assert!(chosen.text.contains("int a;"));
        // N=1 decides `N > 2 && ...` to be false whatever SLOW is
        assert!(
            chosen.text.contains("int small;") && !chosen.text.contains("int big;"),
            "{}",
            chosen.text
        );
        let options = ViewOptions {
            qualifier_macros: Vec::new(),
            defines: vec!["N=4".into(), "SLOW".into()],
            as_compiled: false,
            compiled_everywhere: false,
            known_qualifiers: Vec::new(),
        };
        let chosen = preprocess_with(text, &options);
        assert!(chosen.text.contains("int small;"));
        let options = ViewOptions {
            qualifier_macros: Vec::new(),
            defines: vec!["N=4".into()],
            as_compiled: false,
            compiled_everywhere: false,
            known_qualifiers: Vec::new(),
        };
        // SLOW unknown: `!defined(SLOW)` is unknown, so the first branch stays
        assert!(preprocess_with(text, &options).text.contains("int big;"));
    }

    #[test]
    fn platform_switches_read_as_a_build_for_this_device_compiles_them() {
        let text = "#ifdef __HIP_PLATFORM_AMD__\nint amd;\n#else\nint nvidia;\n#endif\n#ifdef _WIN32\nint windows;\n#else\nint posix;\n#endif\n#ifdef USE_X\nint x;\n#endif\n#ifdef __CUDACC__\nint cuda;\n#endif\n";
        let kept = |options: &ViewOptions, name: &str| {
            preprocess_with(text, options)
                .text
                .contains(&format!("int {name};"))
        };
        // The lint reads the first branch of what it cannot decide.
        let lint = ViewOptions::default();
        assert!(kept(&lint, "amd") && kept(&lint, "windows") && kept(&lint, "x"));
        // The file under test, as compiled: another platform's switch is decided, the rest of
        // the file is still read (a kernel under `#ifdef USE_X` stays verifiable).
        let file = ViewOptions {
            as_compiled: true,
            ..ViewOptions::default()
        };
        assert!(kept(&file, "nvidia") && !kept(&file, "amd"));
        assert!(kept(&file, "windows") && kept(&file, "x"));
        // A project header the program includes: every switch as the compiler decides it, and
        // the including file's definitions given.
        let header = ViewOptions {
            as_compiled: true,
            compiled_everywhere: true,
            ..ViewOptions::default()
        };
        assert!(kept(&header, "nvidia") && !kept(&header, "amd"));
        assert!(kept(&header, "posix") && !kept(&header, "windows"));
        assert!(!kept(&header, "x"));
        assert!(
            kept(&header, "cuda"),
            "the compiler's own names stay undecided"
        );
        let given = ViewOptions {
            defines: vec!["USE_X=1".into()],
            ..header
        };
        assert!(kept(&given, "x"));
    }

    #[test]
    fn function_like_macros_that_query_the_last_error_are_noted() {
        let view = preprocess(
            "#define KERNEL_CHECK(s) do { cudaError_t e = cudaGetLastError(); \\\n  if (e) abort(); } while (0)\n#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e) abort(); } while (0)\n#define HIP_LAUNCH_CHECK() (void)hipPeekAtLastError()\n",
            &[],
        );
        assert_eq!(view.last_error_macros, ["HIP_LAUNCH_CHECK", "KERNEL_CHECK"]);
    }

    #[test]
    fn launch_macros_of_a_header_are_read_with_their_continuations() {
        let header = "#define CHECK(x) do { x; } while (0)\n\
                      #define BLOCK 256\n\
                      #define KERNEL_CALL(kernel, nblks, nthrs, ...)   \\\n\
                      {                                                 \\\n\
                        (kernel)<<<(nblks), (nthrs)>>>(__VA_ARGS__);    \\\n\
                      }\n\
                      #define LAUNCH1(k, n) k<<<n, 1>>>()\n";
        let found = launch_macro_definitions(header);
        let names: Vec<&str> = found.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["KERNEL_CALL", "LAUNCH1"]);
        assert_eq!(found[0].parameters, ["kernel", "nblks", "nthrs"]);
        assert!(found[0].variadic && !found[1].variadic);
        assert!(found[0]
            .body
            .contains("(kernel)<<<(nblks), (nthrs)>>>(__VA_ARGS__);"));
    }

    #[test]
    fn members_a_header_frees_are_named_by_their_last_field() {
        let header = "struct B { float* f; float* g; float* h;\n\
                      ~B() { cudaFree(this->f); checkCudaErrors(cudaFree((void*)beam.g)); }\n\
                      void release() { hipFree(h); cudaFree(f); cudaFree(p→q); } };\n";
        assert_eq!(freed_members(header), ["f", "g", "q", "h"]);
        assert!(HeaderDefines::of(header, &[])
            .freed_members
            .contains(&"g".to_string()));
    }
}
