//! `cudalint lsp` driven over stdio like an editor would: the diagnostics after many incremental
//! edits equal `cudalint check` on the same text, hover and code actions work, configuration
//! changes re-lint, and no malformed input stops the server.

#[path = "support/lsp_client.rs"]
mod lsp_client;

use lsp_client::{offset_of, position_of, Client};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

const BINARY: &str = env!("CARGO_BIN_EXE_cudalint");

fn repo_file(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// One finding as (rule, line, column, end line, end column, message, labels), 1-based character columns.
type Finding = (
    String,
    usize,
    usize,
    usize,
    usize,
    String,
    Vec<(usize, usize, String)>,
);

fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

fn server_findings(text: &str, diagnostics: &[Value], utf16: bool) -> Vec<Finding> {
    let point = |p: &Value| {
        let offset = offset_of(
            text,
            p["line"].as_u64().unwrap_or(0),
            p["character"].as_u64().unwrap_or(0),
            utf16,
        );
        line_and_column(text, offset)
    };
    let mut findings: Vec<Finding> = diagnostics
        .iter()
        .map(|d| {
            let (line, column) = point(&d["range"]["start"]);
            let (end_line, end_column) = point(&d["range"]["end"]);
            let message = d["message"]
                .as_str()
                .unwrap_or("")
                .split("\nhelp: ")
                .next()
                .unwrap_or("")
                .to_string();
            let mut labels: Vec<_> = d["relatedInformation"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|r| {
                    let (l, c) = point(&r["location"]["range"]["start"]);
                    (l, c, r["message"].as_str().unwrap_or("").to_string())
                })
                .collect();
            labels.sort();
            (
                d["code"].as_str().unwrap_or("").to_string(),
                line,
                column,
                end_line,
                end_column,
                message,
                labels,
            )
        })
        .collect();
    findings.sort();
    findings
}

fn check_findings(path: &Path) -> Vec<Finding> {
    let output = std::process::Command::new(BINARY)
        .args(["check", "--format", "json", "--exit-zero"])
        .arg(path)
        .current_dir(path.parent().unwrap_or(Path::new(".")))
        .output()
        .unwrap_or_else(|e| panic!("cudalint check: {e}"));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "check output: {e}: {}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    let number = |v: &Value, key: &str| v[key].as_u64().unwrap_or(0) as usize;
    let mut findings: Vec<Finding> = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|d| {
            let mut labels: Vec<_> = d["labels"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|l| {
                    (
                        number(l, "line"),
                        number(l, "column"),
                        l["message"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect();
            labels.sort();
            (
                d["rule"].as_str().unwrap_or("").to_string(),
                number(d, "line"),
                number(d, "column"),
                number(d, "end_line"),
                number(d, "end_column"),
                d["message"].as_str().unwrap_or("").to_string(),
                labels,
            )
        })
        .collect();
    findings.sort();
    findings
}

const FRAGMENTS: &[&str] = &[
    "if (i < n) ",
    "if (i >= n) return;\n",
    "{",
    "}",
    ";",
    "\n",
    "o[i] = 1;",
    "partial[i]",
    "in[i + 1]",
    "__syncthreads();",
    "#if 0\n",
    "#endif\n",
    "#else\n",
    " // cudalint: ignore[unguarded-thread-index]",
    "é",
    "😀",
    "  ",
    "i",
    "n",
    "(",
    ")",
    "/*",
    "*/",
    "\"",
    "int j = blockIdx.x * blockDim.x + threadIdx.x;\n",
    "__global__ void g(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 0; }\n",
];

fn char_boundary(text: &str, rng: &mut fastrand::Rng) -> usize {
    let mut offset = rng.usize(..=text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Applies one random edit to `text` and returns it as an LSP content change (UTF-16 positions).
fn random_change(text: &mut String, rng: &mut fastrand::Rng) -> Value {
    if rng.u32(..100) < 2 {
        let offset = char_boundary(text, rng);
        text.insert(offset, '\n');
        return json!({"text": text.clone()});
    }
    let start = char_boundary(text, rng);
    let mut end = start;
    let kind = rng.u32(..100);
    if kind >= 50 {
        for _ in 0..rng.usize(1..24) {
            match text[end..].chars().next() {
                Some(c) => end += c.len_utf8(),
                None => break,
            }
        }
    }
    let inserted = if !(50..85).contains(&kind) {
        FRAGMENTS[rng.usize(..FRAGMENTS.len())]
    } else {
        ""
    };
    let change = json!({
        "range": {"start": position_of(text, start, true), "end": position_of(text, end, true)},
        "text": inserted,
    });
    text.replace_range(start..end, inserted);
    change
}

#[test]
fn diagnostics_after_random_edits_equal_check() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("edited.cu");
    let uri = uri_of(&path);
    let mut text = [
        repo_file("kernels/unguarded-thread-index/bad.cu"),
        repo_file("kernels/divergent-barrier/bad.cu"),
        repo_file("kernels/out-of-range-access/bad.cu"),
        repo_file("testdata/clean/tiled_matmul.cu"),
    ]
    .concat();
    let (mut client, _) = Client::initialized(BINARY, &dir.path().display().to_string(), false);
    client.open(&uri, &text);
    let mut rng = fastrand::Rng::with_seed(0x5eed_c0da);
    let mut compared = 0;
    for version in 2..=1001i64 {
        let changes: Vec<Value> = (0..rng.usize(1..=3))
            .map(|_| random_change(&mut text, &mut rng))
            .collect();
        client.change(&uri, version, Value::Array(changes));
        if version % 100 == 1 {
            let published = client.diagnostics(&uri, version);
            std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{e}"));
            let expected = check_findings(&path);
            assert_eq!(
                server_findings(&text, &published, true),
                expected,
                "after edit {version}; text:\n{text}"
            );
            compared += expected.len();
        }
    }
    assert!(
        compared >= 20,
        "only {compared} findings compared; the edits destroyed the interesting code"
    );
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn diagnostic_fields_hover_and_code_actions() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("k.cu");
    let text = repo_file("tests/nvim/fixture.cu");
    let uri = uri_of(&path);
    let (mut client, _) = Client::initialized(BINARY, &dir.path().display().to_string(), false);
    client.open(&uri, &text);
    let diagnostics = client.diagnostics(&uri, 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let first = &diagnostics[0];
    assert_eq!(first["code"], json!("unguarded-thread-index"));
    assert_eq!(first["source"], json!("cudalint"));
    assert_eq!(first["severity"], json!(2));
    assert_eq!(first["range"]["start"], json!({"line": 3, "character": 4}));
    assert!(
        first["codeDescription"]["href"]
            .as_str()
            .unwrap_or("")
            .ends_with("/lints/unguarded-thread-index.md"),
        "{first}"
    );
    let related = first["relatedInformation"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        related
            .iter()
            .any(|r| r["location"]["range"]["start"] == json!({"line": 2, "character": 8})),
        "{related:?}"
    );

    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 6}}),
    );
    let markdown = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(
        markdown.contains("unguarded-thread-index") && markdown.contains("## What it finds"),
        "{hover}"
    );
    let nothing = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(nothing, Value::Null);

    let range = json!({"start": {"line": 3, "character": 6}, "end": {"line": 3, "character": 6}});
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range, "context": {"diagnostics": [first]}}),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .map(|a| a.iter().filter_map(|x| x["title"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        titles,
        vec![
            "wrap in `if (i < n)`",
            "Ignore `unguarded-thread-index` on this line"
        ]
    );
    // Apply the quick fix as an editor would: its edits, then the new text.
    let edits = actions[0]["edit"]["changes"][&uri]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut fixed = text.clone();
    for edit in edits.iter().rev() {
        let start = offset_of(
            &fixed,
            edit["range"]["start"]["line"].as_u64().unwrap_or(0),
            edit["range"]["start"]["character"].as_u64().unwrap_or(0),
            true,
        );
        let end = offset_of(
            &fixed,
            edit["range"]["end"]["line"].as_u64().unwrap_or(0),
            edit["range"]["end"]["character"].as_u64().unwrap_or(0),
            true,
        );
        fixed.replace_range(start..end, edit["newText"].as_str().unwrap_or(""));
    }
    assert!(
        fixed.contains("if (i < n) { out[i] = 2.0f * in[i]; }"),
        "{fixed}"
    );
    client.change(&uri, 2, json!([{"text": fixed}]));
    assert_eq!(client.diagnostics(&uri, 2), Vec::<Value>::new());
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn utf8_positions_when_the_client_offers_them() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let uri = uri_of(&dir.path().join("k.cu"));
    let text = "__global__ void k(float* o, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    /*é😀*/ o[i] = 1;\n}\n";
    for (utf8, column) in [(true, 15), (false, 12)] {
        let (mut client, result) =
            Client::initialized(BINARY, &dir.path().display().to_string(), utf8);
        assert_eq!(
            result["capabilities"]["positionEncoding"],
            json!(if utf8 { "utf-8" } else { "utf-16" })
        );
        client.open(&uri, text);
        let diagnostics = client.diagnostics(&uri, 1);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert_eq!(
            diagnostics[0]["range"]["start"],
            json!({"line": 2, "character": column})
        );
        // An edit in the same encoding: delete "o[i] = 1;" (9 bytes, 9 units) after the comment.
        let range = json!({"start": {"line": 2, "character": column}, "end": {"line": 2, "character": column + 9}});
        client.change(&uri, 2, json!([{"range": range, "text": ""}]));
        assert_eq!(client.diagnostics(&uri, 2), Vec::<Value>::new());
        assert_eq!(client.shutdown(), Some(0));
    }
}

#[test]
fn configuration_change_relints_open_documents() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let config = dir.path().join("cudalint.toml");
    std::fs::write(&config, "ignore = [\"unguarded-thread-index\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let uri = uri_of(&dir.path().join("k.cu"));
    let (mut client, _) = Client::initialized(BINARY, &dir.path().display().to_string(), false);
    client.open(&uri, &repo_file("tests/nvim/fixture.cu"));
    assert_eq!(client.diagnostics(&uri, 1), Vec::<Value>::new());
    std::fs::write(&config, "[severity]\nunguarded-thread-index = \"error\"\n")
        .unwrap_or_else(|e| panic!("{e}"));
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri_of(&config), "type": 2}]}),
    );
    let diagnostics = client.diagnostics(&uri, 1);
    assert_eq!(
        diagnostics
            .iter()
            .map(|d| d["severity"].clone())
            .collect::<Vec<_>>(),
        vec![json!(1)]
    );
    // A broken configuration: the file is not linted, the user is told.
    std::fs::write(&config, "bogus = 1\n").unwrap_or_else(|e| panic!("{e}"));
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri_of(&config)}}),
    );
    let message = client.wait_for(Duration::from_secs(30), |m| {
        m["method"] == json!("window/showMessage")
    });
    assert!(
        message["params"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("bogus"),
        "{message}"
    );
    assert_eq!(client.diagnostics(&uri, 1), Vec::<Value>::new());
    assert_eq!(client.shutdown(), Some(0));
}

/// After each bad input, the server still answers a request.
fn assert_alive(client: &mut Client, uri: &str) {
    let response = client.request_response(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    );
    assert!(response.get("error").is_none(), "{response}");
}

#[test]
fn bad_input_never_stops_the_server() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let uri = uri_of(&dir.path().join("k.cu"));
    let (mut client, _) = Client::initialized(BINARY, &dir.path().display().to_string(), false);
    client.open(&uri, &repo_file("tests/nvim/fixture.cu"));
    assert_eq!(client.diagnostics(&uri, 1).len(), 1);

    client.write_raw(b"Content-Length: 9\r\n\r\n{\"jsonrpc");
    assert_alive(&mut client, &uri);
    client.write_raw(b"this is not a header\r\n\r\n");
    assert_alive(&mut client, &uri);
    client.write_raw(b"Content-Length: 4\r\n\r\n\xff\xfe\x00\x01");
    assert_alive(&mut client, &uri);
    client.write_raw(b"Content-Length: twelve\r\n\r\n");
    assert_alive(&mut client, &uri);
    client.send(&json!({"jsonrpc": "2.0", "id": 900, "params": {}}));
    let missing_method = client.wait_for(Duration::from_secs(30), |m| m["id"] == json!(900));
    assert_eq!(missing_method["error"]["code"], json!(-32600));

    let unknown = client.request_response("cudalint/noSuchMethod", json!({}));
    assert_eq!(unknown["error"]["code"], json!(-32601));
    client.notify("cudalint/noSuchNotification", json!({"x": 1}));
    let invalid = client.request_response("textDocument/hover", json!({"position": "nowhere"}));
    assert_eq!(invalid["error"]["code"], json!(-32602));
    client.notify("textDocument/didChange", json!({"textDocument": {"uri": "file:///not/open.cu", "version": 2}, "contentChanges": [{"text": "x"}]}));
    client.notify("textDocument/didOpen", json!({"textDocument": {"uri": 5}}));
    // A lone surrogate is not a Unicode scalar value: the message is rejected, not the server.
    let surrogate = r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///u.cu","languageId":"cuda-cpp","version":1,"text":"\ud800"}}}"#;
    client.write_raw(format!("Content-Length: {}\r\n\r\n{surrogate}", surrogate.len()).as_bytes());
    assert_alive(&mut client, &uri);

    // Out of range: clamped to the end of the document, then linted.
    let far =
        json!({"start": {"line": 4000, "character": 7}, "end": {"line": 9000, "character": 0}});
    client.change(&uri, 2, json!([{"range": far, "text": "\n// appended\n"}]));
    assert_eq!(client.diagnostics(&uri, 2).len(), 1);
    let backwards =
        json!({"start": {"line": 3, "character": 900}, "end": {"line": 0, "character": 0}});
    client.change(&uri, 3, json!([{"range": backwards, "text": ""}]));
    client.diagnostics(&uri, 3);

    // Deep nesting is linted on a large stack without overflowing it.
    let deep_uri = uri_of(&dir.path().join("deep.cu"));
    let deep = format!(
        "__global__ void k(float* o, int n) {{ int i = threadIdx.x; {} o[i] = 1; {} }}\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    client.open(&deep_uri, &deep);
    client.diagnostics(&deep_uri, 1);
    let parens = format!(
        "__global__ void k(float* o) {{ o[0] = {}1{}; }}\n",
        "(".repeat(50_000),
        ")".repeat(50_000)
    );
    client.change(&deep_uri, 2, json!([{"text": parens}]));
    client.diagnostics(&deep_uri, 2);
    assert_alive(&mut client, &uri);

    // 50 MB: accepted, not linted, and the server keeps answering meanwhile.
    let huge_uri = uri_of(&dir.path().join("huge.cu"));
    let line = "__global__ void k(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }\n";
    let huge = line.repeat((50 << 20) / line.len());
    client.open(&huge_uri, &huge);
    assert_alive(&mut client, &uri);
    assert_eq!(client.diagnostics(&huge_uri, 1), Vec::<Value>::new());
    client.change(&huge_uri, 2, json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "// x\n"}]));
    assert_eq!(client.diagnostics(&huge_uri, 2), Vec::<Value>::new());

    // The original document is still served correctly.
    client.change(
        &uri,
        4,
        json!([{"text": repo_file("tests/nvim/fixture.cu")}]),
    );
    assert_eq!(client.diagnostics(&uri, 4).len(), 1);
    assert_eq!(client.shutdown(), Some(0));
}

#[test]
fn requests_before_initialize_are_refused_and_exit_without_shutdown_fails() {
    let mut client = Client::start(BINARY, &["lsp"]);
    let early = client.request_response("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], json!(-32002));
    client.request("initialize", json!({"capabilities": {}}));
    client.notify("exit", Value::Null);
    let mut status = None;
    for _ in 0..500 {
        if let Some(code) = client.try_exit_code() {
            status = Some(code);
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(status, Some(1));
}
