//! Building the model of a file: the functions, aliases, macros and suppressions collected
//! in one walk, the tree tables, launch sites, and the kernel, host and error facts in the
//! order they depend on each other. Separate from the model's queries, which lints call
//! once it is built.

use super::*;

impl<'t> Model<'t> {
    /// Whether the kernel `functions[index]` is a template its translation unit never names
    /// again (no launch, no explicit instantiation, no pointer taken) in a `.cu` file that
    /// launches kernels of its own, where no other file of the run launches it. The compiler
    /// never instantiates it, so no code of it runs and its findings would be about nothing.
    /// A header's template may be launched by any file that includes it, and so may those of a
    /// `.cu` file of kernels alone, which is made to be included (`#include "kernels.cu"`).
    pub(crate) fn never_instantiated(&self, index: usize) -> bool {
        let Some(function) = self.functions.get(index) else {
            return false;
        };
        let translation_unit = self
            .path
            .extension()
            .is_some_and(|e| matches!(e.to_str(), Some("cu" | "hip")));
        if function.template_parameters.is_empty()
            || !translation_unit
            || self.launch_sites.is_empty()
        {
            return false;
        }
        let name = function.name.as_str();
        let bytes = self.source.as_bytes();
        let word = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
        let mentions = self
            .source
            .match_indices(name)
            .filter(|(at, _)| {
                !word(at.checked_sub(1).and_then(|b| bytes.get(b)))
                    && !word(bytes.get(at + name.len()))
            })
            .count();
        mentions == 1 && !self.index.launched_elsewhere(name, self.path)
    }
    pub fn build(
        path: &'t std::path::Path,
        source: &'t str,
        view: &'t PreprocessedView,
        tree: &'t Tree,
        lines: &'t LineIndex,
        check_macros: &'t [String],
    ) -> Model<'t> {
        Self::build_reusing(
            path,
            source,
            view,
            tree,
            lines,
            check_macros,
            true,
            ProjectIndex::empty(),
            &mut AnalyseAll,
        )
    }

    /// The model without the facts of the functions `reuse` covers: `kernels` and
    /// `host.functions` hold only the analysed ones; `host.kernels` has every kernel's summary.
    /// `error_flow`: whether to build the error flow (`errors` stays empty otherwise, so the file
    /// offers other files nothing about its checks).
    // the file's parts are borrowed separately: the language server keeps the tree and view
    // between edits while the text and lines are new
    #[allow(clippy::too_many_arguments)]
    pub fn build_reusing(
        path: &'t std::path::Path,
        source: &'t str,
        view: &'t PreprocessedView,
        tree: &'t Tree,
        lines: &'t LineIndex,
        check_macros: &'t [String],
        error_flow: bool,
        index: &'t ProjectIndex,
        reuse: &mut dyn Reuse<'t>,
    ) -> Model<'t> {
        let mut model = Model {
            path,
            source,
            view,
            tree,
            lines,
            functions: Vec::new(),
            device_functions: helpers::DeviceFunctions::default(),
            kernels: Vec::new(),
            suppressions: Vec::new(),
            check_macros,
            skipped_regions: Vec::new(),
            broken_regions: Vec::new(),
            host: host::HostFacts::default(),
            errors: errors::ErrorFlow::default(),
            max_allocation_bytes: crate::config::DEFAULT_MAX_ALLOCATION_GIB * (1u64 << 30) as f64,
            index,
            launch_sites: Vec::new(),
            lookups: RefCell::default(),
            shared_scope: std::cell::OnceCell::new(),
            mentions_shared: std::cell::OnceCell::new(),
            member_grids: std::cell::OnceCell::new(),
            function_macros: Vec::new(),
            kernel_declarations: Vec::new(),
            type_aliases: HashMap::default(),
            runtime: runtime::Runtime::of(path, source),
            tables: Vec::new(),
            whole_table: false,
        };
        // a lint that keeps functions decides on the table once it knows which are new
        let partial = reuse.keeps_functions() && !error_flow;
        if !partial {
            model.tables.push(syntax::TreeTable::install(tree));
            model.whole_table = true;
        }
        let (mut broken, missing) = syntax::broken_regions(tree.root_node());
        broken.extend(missing);
        broken.sort_by_key(|r| (r.start, r.end));
        model.broken_regions = broken;
        model.collect_functions_and_comments();
        if partial {
            model.install_tables(reuse);
        }
        let file = launch::FileScope::new(model.tree.root_node(), source)
            .with_data_macros(&view.included.data_macros);
        model.launch_sites = match reuse.launches() {
            Some(cache) => {
                cache.begin();
                let sites = model
                    .functions
                    .iter()
                    .flat_map(|f| {
                        cache.launches_in(f, source, &view.text, path, lines, &model, &file)
                    })
                    .collect();
                cache.finish();
                sites
            }
            None => model
                .functions
                .iter()
                .flat_map(|f| launch::launches_in(f, source, path, lines, &model, &file))
                .collect(),
        };
        let in_macros = launch::launches_in_macros(
            tree.root_node(),
            &view.text,
            &view.included.launch_macros,
            &model.functions,
            path,
            lines,
            &model,
        );
        model.launch_sites.extend(in_macros);
        model.lookups.borrow_mut().launched_kernels = model
            .functions
            .iter()
            .filter(|f| f.kind == FunctionKind::Kernel)
            .map(|f| kernel_name(&f.name).to_string())
            .collect();
        model.device_functions = helpers::summarize(&model, reuse);
        model.add_device_functions_of_other_files();
        for index in 0..model.functions.len() {
            if model.functions[index].kind != FunctionKind::Kernel
                || model.never_instantiated(index)
            {
                continue;
            }
            if let Some(reused) = reuse.kernel(&model, index) {
                model.skipped_regions.extend(reused.skipped);
                model.host.kernels.push(reused.summary);
                continue;
            }
            model.cover(index);
            let function = &model.functions[index];
            let facts = kernel::analyze(&model, function);
            let summary = host::summarize_kernel(&model, function, &facts);
            model.skipped_regions.extend(facts.skipped.iter().cloned());
            model.host.kernels.push(summary);
            model.kernels.push((index, facts));
        }
        model.note_calls_outside_the_file();
        if error_flow {
            model.errors = errors::ErrorFlow::build(&model);
        }
        let (functions, analysed, stored, caller_resets) = host::build(&model, reuse);
        model.host.functions = functions;
        model.host.analysed = analysed;
        model.host.stored = stored;
        model.host.caller_resets = caller_resets;
        model
    }

    /// The tree tables of a lint that keeps functions: the whole tree's when many functions are
    /// new (a first lint, a changed `#define`), else those of the new functions only. A function
    /// analysed for another reason (a kernel whose launch changed) gets its own (`cover`).
    fn install_tables(&mut self, reuse: &mut dyn Reuse<'t>) {
        let new: Vec<Node<'t>> = (0..self.functions.len())
            .filter(|&index| !reuse.kept(self, index))
            .filter_map(|index| self.functions.get(index).map(|f| f.definition))
            .collect();
        if new.len() * 4 > self.functions.len() {
            self.tables.push(syntax::TreeTable::install(self.tree));
            self.whole_table = true;
        } else if !new.is_empty() {
            self.tables
                .push(syntax::TreeTable::install_within(self.tree, &new));
        }
    }

    /// Puts function `index` in a tree table when no installed one holds it (it is analysed).
    fn cover(&mut self, index: usize) {
        if self.whole_table {
            return;
        }
        let Some(definition) = self.functions.get(index).map(|f| f.definition) else {
            return;
        };
        if syntax::in_table(definition) {
            return;
        }
        self.tables
            .push(syntax::TreeTable::install_within(self.tree, &[definition]));
    }

    /// Device functions the file's kernels and device functions call without defining them,
    /// looked up in the index (a header's helpers). With an index that offers none, nothing is
    /// looked for; the kernels' calls become lookups once they are analysed.
    fn add_device_functions_of_other_files(&mut self) {
        if !self.index.offers_device_functions() {
            return;
        }
        let mut names: Vec<String> = self
            .functions
            .iter()
            .filter(|f| f.kind != FunctionKind::Host)
            .flat_map(|f| {
                let mut names = kernel::called_names(f.body, self.source);
                names.extend(kernel::called_method_names(f.body, self.source));
                names
            })
            .filter(|name| self.functions.iter().all(|f| &f.name != name))
            .collect();
        names.sort_unstable();
        names.dedup();
        for name in &names {
            for (file, summary) in self.index.device_functions_named(name, self.path) {
                self.device_functions.add_foreign(file, summary.clone());
            }
        }
    }

    /// Remembers the names the kernels called without the file defining them.
    fn note_calls_outside_the_file(&self) {
        let mut lookups = self.lookups.borrow_mut();
        for (_, facts) in &self.kernels {
            for name in &facts.calls {
                if self.functions.iter().all(|f| &f.name != name)
                    && !lookups.functions.contains(name)
                {
                    lookups.functions.push(name.clone());
                }
            }
        }
    }

    fn collect_functions_and_comments(&mut self) {
        let root = self.tree.root_node();
        let source = self.source;
        let mut functions = Vec::new();
        // the template around each function, noted on the way down (`Node::parent` searches
        // from the root, which is quadratic over a file's top-level declarations)
        let mut templates: Vec<(usize, Node<'t>)> = Vec::new();
        let mut macros = Vec::new();
        let mut declared_kernels = Vec::new();
        let mut aliases: Vec<(usize, String, String)> = Vec::new();
        syntax::walk_iterative(root, |node| match node.node_kind() {
            "template_declaration" => {
                for child in syntax::named_children(node) {
                    if child.node_kind() == "function_definition" {
                        templates.push((child.id(), node));
                    }
                }
                true
            }
            "function_definition" => {
                let template = templates
                    .iter()
                    .rev()
                    .find(|(id, _)| *id == node.id())
                    .map(|(_, t)| *t);
                if let Some(function) =
                    function_from_definition(node, template, source, &self.view.neutralised)
                {
                    functions.push(function);
                }
                false
            }
            "type_definition" => {
                if let Some(aliased) = node.field("type") {
                    let aliased = syntax::text(aliased, source);
                    let mut cursor = node.walk();
                    for declarator in node.children_by_field_name("declarator", &mut cursor) {
                        // `typedef float* fptr;`: the stars belong to the type
                        let stars: String = syntax::text(declarator, source)
                            .chars()
                            .filter(|c| *c == '*')
                            .collect();
                        let name = if declarator.node_kind() == "type_identifier" {
                            Some(declarator)
                        } else {
                            syntax::declarator_name(declarator)
                        };
                        if let Some(name) = name {
                            aliases.push((
                                node.start_byte(),
                                syntax::text(name, source).to_string(),
                                format!("{aliased}{stars}"),
                            ));
                        }
                    }
                }
                false
            }
            "alias_declaration" => {
                if let (Some(name), Some(aliased)) = (node.field("name"), node.field("type")) {
                    aliases.push((
                        node.start_byte(),
                        syntax::text(name, source).to_string(),
                        syntax::text(aliased, source).to_string(),
                    ));
                }
                false
            }
            "preproc_def" => {
                if let (Some(name), Some(value)) = (node.field("name"), node.field("value")) {
                    let value = syntax::text(value, source).trim();
                    if size::builtin_size(value).is_some() {
                        aliases.push((
                            node.start_byte(),
                            syntax::text(name, source).to_string(),
                            value.to_string(),
                        ));
                    }
                }
                false
            }
            "preproc_function_def" => {
                if let (Some(name), Some(body)) = (node.field("name"), node.field("value")) {
                    let parameters = node
                        .field("parameters")
                        .map(|list| {
                            syntax::named_children(list)
                                .map(|p| syntax::text(p, source))
                                .collect()
                        })
                        .unwrap_or_default();
                    macros.push(FunctionMacro {
                        name: syntax::text(name, source),
                        parameters,
                        body: syntax::text(body, source),
                    });
                }
                false
            }
            // `__global__ void pw(...);`: a kernel whose definition another file gives
            "declaration" => {
                let declared = syntax::named_children(node)
                    .filter(|d| d.node_kind() == "function_declarator")
                    .filter_map(syntax::declarator_name)
                    .map(|name| syntax::text(name, source).to_string());
                let before = declared_kernels.len();
                if syntax::text(node, source).contains("__global__") {
                    declared_kernels.extend(declared);
                }
                // other declarations may hold what the walk collects (a class's methods)
                declared_kernels.len() == before
            }
            "comment" => false,
            _ => true,
        });
        declared_kernels.sort_unstable();
        declared_kernels.dedup();
        self.kernel_declarations = declared_kernels;
        self.function_macros = macros;
        let mut type_aliases: HashMap<String, String> = HashMap::default();
        let mut conflicting = Vec::new();
        let configured = configured_regions(source);
        for (at, name, aliased) in aliases {
            if configured.iter().any(|r| r.contains(&at)) {
                continue;
            }
            let aliased = size::normalize_type(&aliased);
            if aliased.is_empty() || aliased == name {
                continue;
            }
            match type_aliases.get(&name) {
                Some(known) if *known != aliased => conflicting.push(name),
                Some(_) => {}
                None => {
                    type_aliases.insert(name, aliased);
                }
            }
        }
        for name in conflicting {
            type_aliases.remove(&name);
        }
        self.type_aliases = type_aliases;
        // Suppression comments are rare: find the marker in the text and ask the tree for the
        // comment there, rather than visiting every node of every function body.
        let mut suppressions = Vec::new();
        for (offset, _) in source.match_indices("cudalint:") {
            let comment = root
                .descendant_for_byte_range(offset, offset)
                .filter(|n| n.node_kind() == "comment");
            if let Some(suppression) =
                comment.and_then(|c| suppression::parse(c, source, self.lines))
            {
                if !suppressions
                    .iter()
                    .any(|s: &Suppression| s.span == suppression.span)
                {
                    suppressions.push(suppression);
                }
            }
        }
        self.functions = functions;
        self.suppressions = suppression::pair_ranges(suppressions);
    }
}

/// The byte ranges of the original text inside `#if`/`#ifdef`/`#ifndef` blocks, a header's
/// include guard (`#ifndef X_H` then `#define X_H`) aside: what is defined there depends on
/// the build's configuration (the view keeps one branch, another build sees another).
fn configured_regions(source: &str) -> Vec<Range<usize>> {
    let mut regions = Vec::new();
    // per open block: where it starts, and whether it is an include guard
    let mut open: Vec<(usize, bool)> = Vec::new();
    let mut pending_guard: Option<(String, usize)> = None;
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let Some(directive) = trimmed.strip_prefix('#') else {
            if !trimmed.is_empty() && !trimmed.starts_with("//") {
                pending_guard = None;
            }
            continue;
        };
        let mut words = directive.split_whitespace();
        let keyword = words.next().unwrap_or("");
        let argument = words.next().unwrap_or("");
        if let Some((name, depth)) = pending_guard.take() {
            if keyword == "define" && argument == name && depth == open.len() {
                if let Some(last) = open.last_mut() {
                    last.1 = true;
                }
            }
        }
        match keyword {
            "if" | "ifdef" | "ifndef" => {
                open.push((start, false));
                if keyword == "ifndef" {
                    pending_guard = Some((argument.to_string(), open.len()));
                }
            }
            "endif" => {
                if let Some((block_start, guard)) = open.pop() {
                    if !guard {
                        regions.push(block_start..offset);
                    }
                }
            }
            _ => {}
        }
    }
    // a block never closed runs to the end
    for (block_start, guard) in open {
        if !guard {
            regions.push(block_start..source.len());
        }
    }
    regions
}
