fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_cuda::LANGUAGE.into()).unwrap();
    let t = p.parse(&text, None).unwrap();
    fn walk(n: tree_sitter::Node, src: &str, d: usize, field: Option<&str>) {
        let txt = &src[n.byte_range()];
        let short: String = txt.chars().take(40).collect::<String>().replace('\n', " ");
        println!(
            "{}{}{} [{}] {:?}",
            "  ".repeat(d),
            field.map(|f| format!("{f}: ")).unwrap_or_default(),
            n.kind(),
            n.start_position().row + 1,
            short
        );
        let mut c = n.walk();
        for (i, ch) in n.children(&mut c).enumerate() {
            walk(ch, src, d + 1, n.field_name_for_child(i as u32));
        }
    }
    walk(t.root_node(), &text, 0, None);
}
