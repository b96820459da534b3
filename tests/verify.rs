//! `--verify` without a GPU: the rewritten sources (snapshots), parameter synthesis, the worker
//! protocol (timeouts, crashes, replacement), and the no-driver path of the CLI.

use cudalint::verify::client::{WorkerClient, WorkerFailure};
use cudalint::verify::params::{self, Environment, ParameterShape};
use cudalint::verify::protocol::{Argument, Request, Response};
use cudalint::verify::{experiment_for_kernel, with_model};
use std::path::Path;
use std::time::Duration;

const FIXTURES: &[&str] = &[
    "testdata/bad/unguarded_thread_index.cu",
    "testdata/bad/out_of_range_access.cu",
    "kernels/unguarded-thread-index/bad.cu",
    "kernels/unguarded-thread-index/good.cu",
    "kernels/out-of-range-access/bad.cu",
    "kernels/out-of-range-access/good.cu",
];

#[test]
fn rewritten_sources_match_snapshots() {
    for fixture in FIXTURES {
        let text = std::fs::read_to_string(fixture).unwrap();
        let outputs = with_model(Path::new(fixture), &text, |model| {
            model
                .kernels
                .iter()
                .map(|(index, _)| {
                    let name = model.functions[*index].name.clone();
                    let built = experiment_for_kernel(model, *index)
                        .unwrap_or_else(|e| panic!("{fixture} {name}: {e}"));
                    let configs: Vec<String> = built
                        .experiment
                        .configs
                        .iter()
                        .map(|c| c.description.clone())
                        .collect();
                    (
                        name,
                        format!(
                            "{}{}\n// configurations:\n// {}\n",
                            built
                                .source
                                .headers
                                .iter()
                                .map(|h| format!("{h}\n"))
                                .collect::<String>(),
                            built.source.body,
                            configs.join("\n// ")
                        ),
                    )
                })
                .collect::<Vec<_>>()
        })
        .unwrap();
        assert!(!outputs.is_empty(), "{fixture}: no kernel");
        for (kernel, rewritten) in outputs {
            let name = format!("{}__{kernel}", fixture.replace(['/', '.', '-'], "_"));
            insta::assert_snapshot!(name, rewritten);
        }
    }
}

#[test]
fn every_access_becomes_a_checked_access() {
    let text = "__global__ void k(const int* b, int* c, int n) { int t = blockIdx.x * blockDim.x + threadIdx.x; atomicAdd(&c[b[t] & 15], 1); c[t] = 0; }";
    let built = with_model(Path::new("k.cu"), text, |m| experiment_for_kernel(m, 0))
        .unwrap()
        .unwrap();
    assert_eq!(built.source.sites.len(), 3);
    assert_eq!(built.source.body.matches("cl_at(").count(), 3);
    // nested: the inner read sits inside the outer access's index
    assert!(
        built
            .source
            .body
            .contains("(*cl_at(c, (long long)((*cl_at(b, (long long)(t), 0,"),
        "{}",
        built.source.body
    );
    assert!(built.source.body.contains("int n, unsigned long long cudalint_bytes_0, unsigned int* cudalint_initialized_0, unsigned long long cudalint_bytes_1"));
    assert!(built.source.body.starts_with("extern \"C\" __global__"));
}

fn kernel_source(text: &str, kernel: &str) -> cudalint::verify::extract::KernelSource {
    kernel_experiment(text, kernel).source
}

fn kernel_experiment(text: &str, kernel: &str) -> cudalint::verify::KernelExperiment {
    with_model(Path::new("k.cu"), text, |m| {
        let index = m.functions.iter().position(|f| f.name == kernel).unwrap();
        experiment_for_kernel(m, index)
    })
    .unwrap()
    .unwrap()
}

#[test]
fn toolkit_headers_are_kept_only_when_the_kernel_uses_them() {
    let file = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__device__ float twice(float v) { return 2 * v; }\n__global__ void plain(float* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = twice(1); }\n__global__ void ranked(float* o) { o[cg::this_grid().thread_rank()] = 1; }\n";
    let plain = kernel_source(file, "plain");
    assert!(plain.headers.is_empty(), "{:?}", plain.headers);
    assert!(!plain.body.contains("cooperative_groups"), "{}", plain.body);
    let ranked = kernel_source(file, "ranked");
    assert_eq!(ranked.headers, ["#include <cooperative_groups.h>"]);
    assert!(ranked.body.contains("namespace cg = cooperative_groups;"));
    // Unqualified names after a using-directive cannot be told apart: the header stays.
    let using = file.replace(
        "namespace cg = cooperative_groups;",
        "using namespace cooperative_groups;",
    );
    let plain = kernel_source(&using, "plain");
    assert_eq!(plain.headers, ["#include <cooperative_groups.h>"]);
    // Headers come first in the program, before the prelude, so NVRTC can precompile them.
    assert!(ranked.source().starts_with(
        "#include <cooperative_groups.h>\n// cudalint --verify instrumentation prelude"
    ));
}

#[test]
fn a_files_kernels_share_one_program_each_in_its_own_namespace() {
    use cudalint::verify::extract::program;
    let bodies = [
        "#define N 4\nextern \"C\" __global__ void a() {}\n".to_string(),
        "#define N 4\nextern \"C\" __global__ void b() {}\n".to_string(),
    ];
    let headers = ["#include <cuda_fp16.h>".to_string()];
    let shared = program(&headers, &bodies);
    assert!(shared.starts_with("#include <cuda_fp16.h>\n"));
    assert_eq!(shared.matches("#include <cuda_fp16.h>").count(), 1);
    let a =
        shared.find("namespace cudalint_kernel_0 {\n#define N 4\nextern \"C\" __global__ void a()");
    let b =
        shared.find("namespace cudalint_kernel_1 {\n#define N 4\nextern \"C\" __global__ void b()");
    assert!(a.is_some() && b.is_some() && a < b, "{shared}");
    // A single kernel is not wrapped.
    let alone = program(&[], &bodies[..1]);
    assert!(!alone.contains("namespace cudalint_kernel_"));
}

#[test]
fn host_code_and_other_kernels_are_left_out() {
    let text = "#include <cstdio>\n#define N 64\n__device__ float twice(float v) { return 2 * v; }\nvoid host() { printf(\"x\"); }\n__global__ void other(float* o) { o[0] = 1; }\n__global__ void k(float* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = twice(N); }\nint main() { k<<<1, N>>>(nullptr); }\n";
    let built = with_model(Path::new("k.cu"), text, |m| {
        let index = m.functions.iter().position(|f| f.name == "k").unwrap();
        experiment_for_kernel(m, index)
    })
    .unwrap()
    .unwrap();
    let body = &built.source.body;
    assert!(body.contains("#define N 64") && body.contains("__device__ float twice"));
    assert!(
        !body.contains("printf")
            && !body.contains("other")
            && !body.contains("main")
            && !body.contains("cstdio"),
        "{body}"
    );
}

#[test]
fn template_kernels_are_bound_to_the_launch_types() {
    let text = "template <typename T, int B> __global__ void k(T* o, int n) { int i = blockIdx.x * B + threadIdx.x; o[i] = T(1); }\nvoid run(double* d) { k<double, 128><<<8, 128>>>(d, 1000); }\n";
    let built = with_model(Path::new("k.cu"), text, |m| experiment_for_kernel(m, 0))
        .unwrap()
        .unwrap();
    assert!(
        built.source.body.contains("typedef double T;")
            && built.source.body.contains("constexpr int B = 128;"),
        "{}",
        built.source.body
    );
    assert_eq!(
        built.source.template_bindings,
        vec![
            ("T".to_string(), "double".to_string()),
            ("B".to_string(), "128".to_string())
        ]
    );
    let without_launch = "template <typename T> __global__ void k(T* o) { o[threadIdx.x + blockIdx.x * blockDim.x] = T(1); }";
    let built = with_model(Path::new("k.cu"), without_launch, |m| {
        experiment_for_kernel(m, 0)
    })
    .unwrap()
    .unwrap();
    assert!(built.source.body.contains("typedef float T;"));
}

#[test]
fn a_launch_written_in_a_macro_binds_the_macros_first_use() {
    let text = "template <typename T, int iterations>\n__global__ void soft(T* vals, int n) {\n  float held[8];\n  for (int i = 0; i < iterations; i++) held[i] = vals[i * blockDim.x + threadIdx.x];\n  vals[threadIdx.x] = held[0];\n}\ntemplate <int iterations>\n__global__ void soft(float* vals, int n) { vals[threadIdx.x] = iterations; }\n#define LAUNCH_SOFT(iterations) \\\n    soft<T, iterations><<<grid, block, 0, stream>>>(vals, n);\n\ntemplate <typename T>\nvoid launch(T* vals, int n, int steps, cudaStream_t stream) {\n  dim3 grid(n / 256), block(256);\n  if (steps == 1) LAUNCH_SOFT(2);\n  else LAUNCH_SOFT(4);\n}\n";
    let bound = |kernel: usize| {
        with_model(Path::new("k.cu"), text, |m| {
            experiment_for_kernel(m, kernel).map(|built| built.source.template_bindings)
        })
        .unwrap()
        .unwrap()
    };
    assert_eq!(
        bound(0),
        vec![
            ("T".to_string(), "float".to_string()),
            ("iterations".to_string(), "2".to_string())
        ]
    );
    // the overload of one template parameter is not the macro's kernel
    assert_eq!(
        bound(1),
        vec![("iterations".to_string(), "256".to_string())]
    );
}

#[test]
fn a_type_parameter_passed_through_a_host_template_is_read_from_its_callers() {
    let text = "struct PayoffPut { double k; __host__ __device__ PayoffPut(double k) : k(k) {} __host__ __device__ double operator()(double s) const { return s < k ? k - s : 0; } };\n\
template <int B, typename Payoff> __global__ void price(Payoff payoff, double* out, int n) { int i = blockIdx.x * B + threadIdx.x; out[i] = payoff(out[i]); }\n\
template <typename Payoff> static void run(const Payoff &payoff, double* d, int n) { price<128><<<(n + 127) / 128, 128>>>(payoff, d, n); }\n\
void host(double* d, int n, bool put) { if (put) run(PayoffPut(1.0), d, n); }\n";
    let built = kernel_experiment(text, "price");
    assert_eq!(
        built.source.template_bindings,
        vec![
            ("B".to_string(), "128".to_string()),
            ("Payoff".to_string(), "PayoffPut".to_string())
        ],
        "{}",
        built.source.body
    );
    // A call whose argument gives no type leaves the parameter to the default binding.
    let unknown = text.replace("run(PayoffPut(1.0), d, n)", "run(make_payoff(), d, n)");
    let built = kernel_experiment(&unknown, "price");
    assert!(
        !built
            .source
            .template_bindings
            .iter()
            .any(|(name, value)| name == "Payoff" && value.contains("Payoff")),
        "{:?}",
        built.source.template_bindings
    );
}

#[test]
fn launch_site_constants_become_the_first_configuration() {
    let text = std::fs::read_to_string("kernels/unguarded-thread-index/bad.cu").unwrap();
    let configs = kernel_experiment(&text, "saxpy").experiment.configs;
    let first = &configs[0];
    assert_eq!(first.grid, [4, 1, 1]);
    assert_eq!(first.block, [256, 1, 1]);
    assert_eq!(first.arguments[0], Argument::I32 { value: 1000 });
    assert_eq!(first.arguments[1], Argument::F32 { value: 2.0 });
    assert!(matches!(
        first.arguments[2],
        Argument::Buffer { bytes: 4000, .. }
    ));
    assert!(
        first.description.starts_with("as launched at line 42"),
        "{}",
        first.description
    );
}

#[test]
fn hip_launches_give_their_constants_as_cuda_launches_do() {
    // the twin written with the launch macro, whichever form the twin generator gave it
    let text = std::fs::read_to_string("testdata/hip/kernels/unguarded-thread-index/bad.cu")
        .unwrap()
        .replace(
            "saxpy<<<blocks, threads>>>(n, 2.0f, d_x, d_y);",
            "hipLaunchKernelGGL(saxpy, blocks, threads, 0, 0, n, 2.0f, d_x, d_y);",
        );
    assert!(text.contains("hipLaunchKernelGGL(saxpy"));
    let configs = kernel_experiment(&text, "saxpy").experiment.configs;
    let first = &configs[0];
    assert_eq!(first.grid, [4, 1, 1]);
    assert_eq!(first.block, [256, 1, 1]);
    assert_eq!(first.arguments[0], Argument::I32 { value: 1000 });
    assert!(
        first.description.starts_with("as launched at line 42"),
        "{}",
        first.description
    );
}

#[test]
fn adversarial_sizes_are_not_multiples_of_the_block() {
    let shapes = vec![
        (
            "a".to_string(),
            ParameterShape::Pointer {
                element: "float".into(),
                element_bytes: Some(4),
            },
        ),
        ("n".to_string(), ParameterShape::Integer { bytes: 4 }),
        ("s".to_string(), ParameterShape::Float),
    ];
    let configs = params::adversarial_configs(&shapes, false, None, false).unwrap();
    assert!(configs.len() >= 2);
    for config in &configs {
        let Argument::I32 { value: n } = config.arguments[1] else {
            panic!("n is not an int")
        };
        let threads = config.grid.iter().product::<u32>() * config.block.iter().product::<u32>();
        assert!(
            threads as i32 > n,
            "{}: every thread in range, nothing to find",
            config.description
        );
        assert_ne!(n as u32 % config.block[0], 0);
        assert_eq!(
            config.arguments[0],
            Argument::Buffer {
                bytes: n as u64 * 4,
                fill: cudalint::verify::protocol::Fill::F32,
                initialized: true
            }
        );
    }
    // two sizes: the buffer is their product, so a bounded 2D kernel stays in range
    let two = vec![
        (
            "m".to_string(),
            ParameterShape::Pointer {
                element: "double".into(),
                element_bytes: Some(8),
            },
        ),
        ("rows".to_string(), ParameterShape::Integer { bytes: 4 }),
        ("cols".to_string(), ParameterShape::Integer { bytes: 8 }),
    ];
    let config = &params::adversarial_configs(&two, true, None, false).unwrap()[0];
    assert_eq!(config.block, [16, 16, 1]);
    assert_eq!(
        config.arguments[0],
        Argument::Buffer {
            bytes: 37 * 37 * 8,
            fill: cudalint::verify::protocol::Fill::F64,
            initialized: true
        }
    );
    assert_eq!(config.arguments[2], Argument::I64 { value: 37 });
    let unsupported = vec![(
        "p".to_string(),
        ParameterShape::Unsupported("`Params` is not defined here".into()),
    )];
    assert_eq!(
        params::adversarial_configs(&unsupported, false, None, false).unwrap_err(),
        "parameter `p` cannot be synthesised: `Params` is not defined here"
    );
}

#[test]
fn constant_evaluation() {
    let text = "#define THREADS 128\nconst int base = 3;\nvoid host(float* d) { const size_t n = 1 << 10; int blocks = (n + THREADS - 1) / THREADS; size_t bytes = n * sizeof(float) + base; cudaMalloc((void**)&d, bytes); }";
    with_model(Path::new("h.cu"), text, |m| {
        let host = m.function_named("host").unwrap();
        let environment = Environment::of(m, host);
        assert_eq!(environment.evaluate("blocks"), Some(8));
        assert_eq!(
            environment.evaluate("static_cast<int>(n) % 7"),
            Some(1024 % 7)
        );
        assert_eq!(environment.allocation_bytes("d"), Some(4099));
        assert_eq!(environment.evaluate("n / 0"), None);
        assert_eq!(environment.evaluate("unknown + 1"), None);
        assert_eq!(environment.evaluate("(size_t)n - 24"), Some(1000));
    });
}

fn test_worker(timeout: Duration) -> WorkerClient {
    WorkerClient::new(
        env!("CARGO_BIN_EXE_cudalint").into(),
        vec!["verify-worker".into()],
        timeout,
    )
    .with_env("CUDALINT_WORKER_TEST_MODES", "1")
}

#[test]
fn worker_answers_line_by_line_and_survives_bad_requests() {
    let mut client = test_worker(Duration::from_secs(10));
    assert_eq!(client.request(&Request::Ping), Ok(Response::Pong));
    assert_eq!(client.request(&Request::Ping), Ok(Response::Pong));
    assert_eq!(client.started, 1, "the worker is kept between requests");
}

#[test]
fn a_hanging_experiment_times_out_and_the_worker_is_replaced() {
    let mut client = test_worker(Duration::from_millis(500));
    assert_eq!(client.request(&Request::Ping), Ok(Response::Pong));
    let started = std::time::Instant::now();
    assert_eq!(
        client.request(&Request::TestHang),
        Err(WorkerFailure::Timeout(Duration::from_millis(500)))
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!client.is_running());
    assert_eq!(client.request(&Request::Ping), Ok(Response::Pong));
    assert_eq!(client.started, 2);
}

#[test]
fn a_longer_timeout_is_for_one_request_only() {
    let mut client = test_worker(Duration::from_millis(300));
    assert_eq!(
        client.request_with_longer_timeout(&Request::TestHang, 3),
        Err(WorkerFailure::Timeout(Duration::from_millis(900)))
    );
    assert_eq!(
        client.request(&Request::TestHang),
        Err(WorkerFailure::Timeout(Duration::from_millis(300)))
    );
    assert_eq!(client.request(&Request::Ping), Ok(Response::Pong));
}

#[test]
fn a_crashing_worker_is_an_outcome_and_is_replaced() {
    let mut client = test_worker(Duration::from_secs(10));
    match client.request(&Request::TestCrash) {
        Err(WorkerFailure::Died(how)) => assert!(how.contains("signal"), "{how}"),
        other => panic!("expected a dead worker, got {other:?}"),
    }
    assert_eq!(client.request(&Request::Ping), Ok(Response::Pong));
    assert_eq!(client.started, 2);
}

#[test]
fn test_modes_are_off_in_a_normal_worker() {
    let mut client = WorkerClient::new(
        env!("CARGO_BIN_EXE_cudalint").into(),
        vec!["verify-worker".into()],
        Duration::from_secs(10),
    );
    assert!(matches!(
        client.request(&Request::TestCrash),
        Ok(Response::Error { .. })
    ));
    assert!(matches!(
        client.request(&Request::TestHang),
        Ok(Response::Error { .. })
    ));
}

fn driver_present() -> bool {
    unsafe { cudarc::driver::sys::is_culib_present() }
}

#[test]
fn without_a_driver_every_finding_is_reported_and_marked() {
    if driver_present() {
        eprintln!("skipped: a CUDA driver is present (this test covers machines without one; tests/gpu.sh covers the GPU)");
        return;
    }
    let run = |verify: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cudalint"));
        command.args([
            "check",
            "--format",
            "json",
            "testdata/bad/unguarded_thread_index.cu",
            "testdata/bad/divergent_barrier.cu",
        ]);
        if verify {
            command.arg("--verify");
        }
        command.output().unwrap()
    };
    let plain = run(false);
    let verified = run(true);
    assert_eq!(plain.status.code(), verified.status.code());
    let stderr = String::from_utf8_lossy(&verified.stderr);
    assert_eq!(stderr.matches("no CUDA driver").count(), 1, "{stderr}");
    let json: serde_json::Value = serde_json::from_slice(&verified.stdout).unwrap();
    let plain_json: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    let findings = collect(&json);
    assert_eq!(findings.len(), collect(&plain_json).len());
    assert!(findings.len() > 10);
    for finding in findings {
        let verification = &finding["verification"];
        assert_eq!(verification["status"], "not-verifiable", "{finding}");
        // what no GPU would verify either says so: a barrier or an access inside a helper
        let detail = verification["detail"].as_str().unwrap_or("");
        if detail == "the barrier is inside a device function, whose barriers are not counted"
            || detail.starts_with("the access is made inside the device function")
        {
            continue;
        }
        let expected = if finding["rule"] == "unguarded-thread-index"
            || finding["rule"] == "divergent-barrier"
        {
            "no CUDA driver"
        } else {
            "static-only rule"
        };
        assert_eq!(verification["detail"], expected, "{finding}");
    }
}

/// Findings in HIP code are not run (the experiments need a CUDA device and NVRTC): each says
/// `not-verifiable: HIP`, on any machine, and the exit code is the run's without `--verify`.
#[test]
fn hip_kernels_run_as_cuda_unless_they_read_the_wavefront_width() {
    let folder = std::env::temp_dir().join(format!("cudalint-hip-verify-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let wavefront = folder.join("wave_sum.hip");
    std::fs::write(
        &wavefront,
        "#include <hip/hip_runtime.h>\n__global__ void waveSum(float* out, const float* in, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  float v = in[i];\n  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);\n  out[i] = v;\n}\n",
    )
    .unwrap();
    let run = |verify: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_cudalint"));
        command.args([
            "check",
            "--format",
            "json",
            "--select",
            "all",
            "testdata/hip/bad/unguarded_thread_index.cu",
            "testdata/hip/bad/use_after_free.cu",
        ]);
        command.arg(&wavefront);
        if verify {
            command.arg("--verify");
        }
        command.output().unwrap()
    };
    let plain = run(false);
    let verified = run(true);
    std::fs::remove_dir_all(&folder).ok();
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(plain.status.code(), verified.status.code());
    let json: serde_json::Value = serde_json::from_slice(&verified.stdout).unwrap();
    let plain_json: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    let findings = collect(&json);
    assert_eq!(findings.len(), collect(&plain_json).len());
    let detail = |f: &serde_json::Value| {
        f["verification"]["detail"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let of = |path: &str, rule: &str| -> Vec<serde_json::Value> {
        findings
            .iter()
            .filter(|f| f["path"].as_str().is_some_and(|p| p.ends_with(path)) && f["rule"] == rule)
            .cloned()
            .collect()
    };
    // Host calls are replayed through CUDA's driver API: a HIP file's are not.
    let host = of("use_after_free.cu", "use-after-free");
    assert!(!host.is_empty(), "{findings:?}");
    for finding in &host {
        assert_eq!(detail(finding), "HIP", "{finding}");
    }
    // Device code is one language: a HIP kernel goes to the GPU like a CUDA one (here, without a
    // driver, it says so instead of "HIP").
    let kernel = of(
        "hip/bad/unguarded_thread_index.cu",
        "unguarded-thread-index",
    );
    assert!(kernel.len() > 3, "{findings:?}");
    for finding in &kernel {
        assert!(!detail(finding).starts_with("HIP"), "{finding}");
    }
    // A kernel reading the wavefront width would run differently on 32 lanes.
    let wave = of("wave_sum.hip", "unguarded-thread-index");
    assert!(!wave.is_empty(), "{findings:?}");
    for finding in &wave {
        assert_eq!(
            detail(finding),
            cudalint::verify::HIP_WAVEFRONT,
            "{finding}"
        );
    }
}

fn collect(json: &serde_json::Value) -> Vec<serde_json::Value> {
    let mut found = Vec::new();
    let mut stack = vec![json.clone()];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::Object(map)
                if map.contains_key("rule") && map.contains_key("message") =>
            {
                found.push(serde_json::Value::Object(map))
            }
            serde_json::Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            serde_json::Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

/// Every host-rule finding in the fixtures, as (file, line, rule, plan).
fn host_replay_plans() -> Vec<(String, usize, String, String)> {
    use cudalint::verify::replay::{self, HostReplay};
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for root in ["testdata", "kernels"] {
        for entry in ignore::WalkBuilder::new(root).build().flatten() {
            // findings in HIP code are not replayed (`not-verifiable: HIP`)
            if entry.path().extension().is_some_and(|e| e == "cu")
                && !entry.path().starts_with("testdata/hip")
            {
                files.push(entry.path().to_path_buf());
            }
        }
    }
    files.sort();
    let mut plans = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let outcome =
            cudalint::engine::lint_text(&file, &text, &cudalint::config::Settings::default());
        for diagnostic in outcome.diagnostics {
            if !cudalint::verify::HOST_RULES.contains(&diagnostic.rule) {
                continue;
            }
            let line = text[..diagnostic.span.start].lines().count();
            let plan = with_model(&file, &text, |model| {
                match replay::plan(model, diagnostic.rule, &diagnostic.span) {
                    Err(reason) => format!("no plan: {reason}"),
                    Ok(HostReplay::Steps {
                        steps,
                        binding,
                        name,
                    }) => format!(
                        "{name} [{binding}]: {}",
                        steps
                            .iter()
                            .map(replay::describe_step)
                            .collect::<Vec<_>>()
                            .join(", then ")
                    ),
                    Ok(HostReplay::Launch {
                        built,
                        position,
                        name,
                        probe,
                    }) => format!(
                        "{name}: launch {} with argument {position} as {probe:?}: {:?} ({})",
                        built.experiment.kernel,
                        built.experiment.configs[0].arguments[position],
                        built.experiment.configs[0].description
                    ),
                }
            })
            .unwrap();
            plans.push((
                file.display().to_string(),
                line,
                diagnostic.rule.to_string(),
                plan,
            ));
        }
    }
    plans
}

#[test]
fn every_host_finding_in_the_fixtures_has_a_replay_plan() {
    let plans = host_replay_plans();
    let rules: std::collections::BTreeSet<&str> = plans.iter().map(|p| p.2.as_str()).collect();
    assert_eq!(
        rules.into_iter().collect::<Vec<_>>(),
        cudalint::verify::HOST_RULES
            .iter()
            .copied()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>(),
        "every host rule has findings in the fixtures"
    );
    let listing: Vec<String> = plans
        .iter()
        .map(|(file, line, rule, plan)| format!("{file}:{line} {rule}: {plan}"))
        .collect();
    for (file, line, rule, plan) in &plans {
        assert!(!plan.starts_with("no plan"), "{file}:{line} {rule}: {plan}");
    }
    insta::assert_snapshot!("host_replay_plans", listing.join("\n"));
}

#[test]
fn a_short_allocation_replays_as_an_allocation_then_an_oversized_copy() {
    use cudalint::verify::protocol::ReplayStep;
    use cudalint::verify::replay::{self, HostReplay};
    let text = "void f(int n, const float* h) { float* d; cudaMalloc(&d, n * sizeof(float)); cudaMemcpy(d, h, (n + 1) * sizeof(float), cudaMemcpyHostToDevice); cudaFree(d); }";
    let start = text.find("cudaMemcpy(").unwrap();
    let end = text.find("cudaMemcpyHostToDevice)").unwrap() + "cudaMemcpyHostToDevice)".len();
    let plan = with_model(Path::new("short.cu"), text, |model| {
        replay::plan(model, "alloc-smaller-than-copy", &(start..end))
    })
    .unwrap();
    let Ok(HostReplay::Steps {
        steps,
        binding,
        name,
    }) = plan
    else {
        panic!("expected a step replay");
    };
    assert_eq!(name, "d");
    assert_eq!(binding, "n = 1000");
    assert_eq!(
        steps,
        vec![
            ReplayStep::Allocate {
                buffer: 0,
                bytes: 4000
            },
            ReplayStep::CopyToDevice {
                buffer: 0,
                bytes: 4004
            },
        ]
    );
}

#[test]
fn step_replays_are_judged_by_the_last_step_only() {
    use cudalint::verify::protocol::{ReplayStep, StepResult};
    use cudalint::verify::replay::judge_steps;
    let steps = [
        ReplayStep::Allocate {
            buffer: 0,
            bytes: 4000,
        },
        ReplayStep::CopyToDevice {
            buffer: 0,
            bytes: 4004,
        },
    ];
    let ok = StepResult { error: None };
    let bad = StepResult {
        error: Some("CUDA_ERROR_INVALID_VALUE".into()),
    };
    let (status, detail) = judge_steps(&steps, &[ok.clone(), bad.clone()], "d", "n = 1000");
    assert_eq!(status, "confirmed");
    assert!(detail.contains("cuMemcpyHtoD of 4004 bytes") && detail.contains("INVALID_VALUE"));
    assert_eq!(
        judge_steps(&steps, &[ok.clone(), ok], "d", "").0,
        "not-reproduced"
    );
    assert_eq!(judge_steps(&steps, &[bad], "d", "").0, "not-verifiable");
}

#[test]
fn replay_requests_round_trip_through_the_protocol() {
    use cudalint::verify::protocol::{ReplayStep, StepResult};
    let request = Request::Replay {
        steps: vec![
            ReplayStep::Allocate {
                buffer: 0,
                bytes: 16,
            },
            ReplayStep::Free { buffer: 0 },
            ReplayStep::CopyFromDevice {
                buffer: 0,
                bytes: 16,
            },
            ReplayStep::CopyToUnallocated { bytes: 8 },
        ],
    };
    let line = serde_json::to_string(&request).unwrap();
    assert!(line.contains(r#""op":"replay""#) && line.contains(r#""step":"copy-to-unallocated""#));
    assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), request);
    let response = Response::Replayed {
        results: vec![StepResult { error: None }],
        run_ms: 0.5,
    };
    let line = serde_json::to_string(&response).unwrap();
    assert_eq!(serde_json::from_str::<Response>(&line).unwrap(), response);
    let dangling = Argument::Dangling {
        bytes: 64,
        freed: true,
    };
    let line = serde_json::to_string(&dangling).unwrap();
    assert_eq!(serde_json::from_str::<Argument>(&line).unwrap(), dangling);
}

#[test]
fn a_launch_after_free_is_confirmed_by_an_access_through_the_freed_pointer() {
    use cudalint::verify::protocol::{ConfigResult, SiteViolation};
    use cudalint::verify::replay::{self, HostReplay, LaunchProbe};
    let file = Path::new("testdata/bad/use_after_free.cu");
    let text = std::fs::read_to_string(file).unwrap();
    let outcome = cudalint::engine::lint_text(file, &text, &cudalint::config::Settings::default());
    let launch_after_free = outcome
        .diagnostics
        .iter()
        .find(|d| d.rule == "use-after-free" && text[d.span.clone()].contains("<<<"))
        .expect("the fixture's launch after free");
    let judged = with_model(file, &text, |model| {
        let Ok(HostReplay::Launch {
            built,
            position,
            name,
            probe,
        }) = replay::plan(model, launch_after_free.rule, &launch_after_free.span)
        else {
            panic!("no launch replay");
        };
        assert_eq!(probe, LaunchProbe::Freed);
        let site = built
            .source
            .sites
            .iter()
            .position(|s| s.parameter_index == position)
            .expect("a site reading the freed pointer");
        let ran = |violations: Vec<SiteViolation>| Response::Ran {
            compile_ms: 1.0,
            load_ms: 0.1,
            results: vec![ConfigResult {
                run_ms: 0.1,
                violations,
                error: None,
                footprint: Vec::new(),
                barriers: Vec::new(),
            }],
            reused: false,
        };
        let through_freed = SiteViolation {
            site,
            count: 1000,
            index: 7,
            kind: 1,
            thread: [7, 0, 0],
            block: [0, 0, 0],
            extent: 0,
            cause: 1,
        };
        (
            replay::judge_launch(
                &built,
                position,
                &name,
                probe,
                &ran(vec![through_freed]),
                &text,
            ),
            replay::judge_launch(&built, position, &name, probe, &ran(Vec::new()), &text),
        )
    })
    .unwrap();
    let (confirmed, clean) = judged;
    assert_eq!(confirmed.0, "confirmed", "{}", confirmed.1);
    assert!(
        confirmed
            .1
            .contains("reached the freed memory (element 7) by thread (7,0,0)"),
        "{}",
        confirmed.1
    );
    assert_eq!(clean.0, "not-reproduced", "{}", clean.1);
}

#[test]
fn extraction_keeps_what_nvrtc_accepts_and_drops_host_data() {
    let file = "namespace mine { __device__ int one() { return 1; } }\nusing namespace mine;\nusing namespace from_a_header;\nstruct Pair { int a; int b; };\nstatic const int tile = 64;\nconst char *name = \"sample\";\nconst float table[] = {1, 2};\nstruct HostTimer { long started; };\n__managed__ int bias;\nstatic __global__ void k(int* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; Pair p = {1, 2}; o[i] = tile + p.a + bias; }\nint main() { HostTimer timer; return 0; }\n";
    let body = kernel_source(file, "k").body;
    // A type only host code names is not the kernel's (a timer over `rusage` would not compile).
    assert!(!body.contains("HostTimer"), "{body}");
    // `extern "C"` cannot follow a storage class: the kernel's `static` goes.
    assert!(body.contains("extern \"C\" __global__ void k("), "{body}");
    assert!(!body.contains("static __global__"), "{body}");
    // A file-level definition keeps its `;`.
    assert!(body.contains("struct Pair { int a; int b; };"), "{body}");
    assert!(body.contains("static const int tile = 64;"), "{body}");
    // Managed memory is device memory the host also reads.
    assert!(body.contains("__managed__ int bias;"), "{body}");
    // A using-directive for a namespace of a header the experiment leaves out would not compile.
    assert!(body.contains("using namespace mine;"), "{body}");
    assert!(!body.contains("from_a_header"), "{body}");
    // Host data is not device code: NVRTC rejects namespace-scope host variables.
    assert!(
        !body.contains("sample") && !body.contains("table"),
        "{body}"
    );
}

#[test]
fn standard_headers_nvrtc_lacks_are_replaced_by_libcudacxx_when_used() {
    let file = "#include <stdint.h>\n#include <climits>\n__global__ void wide(uint32_t* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = UINT_MAX; }\n__global__ void plain(float* o) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = 1; }\n";
    let wide = kernel_source(file, "wide");
    assert_eq!(
        wide.headers,
        ["#include <cuda/std/cstdint>", "#include <cuda/std/climits>"]
    );
    assert!(
        wide.body.contains("using cuda::std::uint32_t;"),
        "{}",
        wide.body
    );
    let plain = kernel_source(file, "plain");
    assert!(plain.headers.is_empty(), "{:?}", plain.headers);
    assert!(!plain.body.contains("cuda::std"), "{}", plain.body);
}

#[test]
fn a_constant_block_at_the_launch_is_kept_when_the_grid_is_not_constant() {
    let file = "#define TILE 16\n__global__ void transpose(float* out, const float* in, int width) {\n  __shared__ float tile[TILE][TILE];\n  int x = blockIdx.x * TILE + threadIdx.x;\n  int y = blockIdx.y * TILE + threadIdx.y;\n  tile[threadIdx.y][threadIdx.x] = in[y * width + x];\n  __syncthreads();\n  out[x * width + y] = tile[threadIdx.x][threadIdx.y];\n}\nvoid run(float* d_out, float* d_in, int width) {\n  dim3 threads(TILE, TILE);\n  dim3 grid(width / TILE, width / TILE);\n  transpose<<<grid, threads>>>(d_out, d_in, width);\n}\n";
    let built = kernel_experiment(file, "transpose");
    let configs = &built.experiment.configs;
    assert!(!configs.is_empty());
    for config in configs {
        assert_eq!(config.block, [16, 16, 1], "{}", config.description);
    }
    // Still not a multiple of the block, so edge threads exist.
    assert_eq!(configs[0].grid, [3, 3, 1], "{}", configs[0].description);
}

#[test]
fn glibc_short_unsigned_names_are_integers() {
    let file = "__global__ void k(float* o, uint n, ushort m, ulong l) { int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = n + m + l; }\n";
    let built = with_model(Path::new("k.cu"), file, |m| {
        let index = m.functions.iter().position(|f| f.name == "k").unwrap();
        experiment_for_kernel(m, index)
    })
    .unwrap()
    .unwrap();
    let first = &built.experiment.configs[0];
    assert!(
        first.description.contains("n = 1000") && first.description.contains("l = 1000"),
        "{}",
        first.description
    );
    assert!(matches!(first.arguments[1], Argument::I32 { value: 1000 }));
    assert!(matches!(first.arguments[2], Argument::I16 { .. }));
    assert!(matches!(first.arguments[3], Argument::I64 { value: 1000 }));
    // NVRTC has no <sys/types.h>: the prelude declares the names.
    assert!(cudalint::verify::extract::PRELUDE.contains("typedef unsigned int uint;"));
}

/// A fixed slot past a small allocation is reported at the launch; `--verify` runs the kernel at
/// the access its label points to, with the launch's buffer sizes first.
#[test]
fn a_constant_slot_finding_is_verified_at_the_labelled_access() {
    let file = Path::new("testdata/bad/out_of_range_access.cu");
    let text = std::fs::read_to_string(file).unwrap();
    let outcome = cudalint::engine::lint_text(file, &text, &cudalint::config::Settings::default());
    let finding = outcome
        .diagnostics
        .iter()
        .find(|d| text[d.span.clone()].starts_with("classify<<<"))
        .unwrap_or_else(|| panic!("no finding at the launch: {:?}", outcome.diagnostics));
    let built = with_model(file, &text, |m| {
        let index = m
            .functions
            .iter()
            .position(|f| f.name == "classify")
            .unwrap();
        experiment_for_kernel(m, index)
    })
    .unwrap()
    .unwrap();
    let site = built
        .source
        .sites
        .iter()
        .find(|s| finding.labels.iter().any(|l| l.span == s.span))
        .unwrap_or_else(|| panic!("no instrumented site at a label of {finding:?}"));
    assert_eq!(&text[site.span.clone()], "counters[6]");
    assert!(
        built.experiment.configs[0]
            .description
            .contains("counters of 4 elements"),
        "{}",
        built.experiment.configs[0].description
    );
}

/// The guarded twin of each kernel with findings: the findings' own guards, applied at the
/// accesses (`cl_at_if`) or in place of the `<=` they label.
fn twins_of(
    fixture: &str,
) -> Vec<(
    String,
    cudalint::verify::KernelExperiment,
    cudalint::verify::Twin,
)> {
    let text = std::fs::read_to_string(fixture).unwrap();
    let settings = cudalint::config::Settings::every_rule();
    let findings = cudalint::engine::lint_text(Path::new(fixture), &text, &settings).diagnostics;
    with_model(Path::new(fixture), &text, |model| {
        model
            .kernels
            .iter()
            .filter_map(|(index, facts)| {
                let spans: Vec<std::ops::Range<usize>> =
                    facts.accesses.iter().map(|a| a.node.byte_range()).collect();
                let mine: Vec<&cudalint::diagnostic::Diagnostic> = findings
                    .iter()
                    .filter(|d| spans.contains(&d.span))
                    .collect();
                let built = experiment_for_kernel(model, *index).ok()?;
                let twin = cudalint::verify::twin_for(model, *index, &built, &mine)?;
                Some((model.functions[*index].name.clone(), built, twin))
            })
            .collect()
    })
    .unwrap()
}

#[test]
fn guarded_twins_match_snapshots() {
    for fixture in [
        "testdata/bad/unguarded_2d_launch.cu",
        "testdata/bad/inclusive_bound_no_launch.cu",
        "testdata/bad/out_of_range_access.cu",
    ] {
        let twins = twins_of(fixture);
        assert!(!twins.is_empty(), "{fixture}: no twin");
        for (kernel, _, twin) in twins {
            let configs: Vec<String> = twin
                .experiment
                .configs
                .iter()
                .map(|c| c.description.clone())
                .collect();
            let name = format!("twin__{}__{kernel}", fixture.replace(['/', '.', '-'], "_"));
            insta::assert_snapshot!(
                name,
                format!(
                    "// guards: {}\n{}\n// configurations:\n// {}\n",
                    twin.guards.description(),
                    twin.source.body,
                    configs.join("\n// ")
                )
            );
        }
    }
}

/// The twin's footprint cuts each buffer to what the guarded kernel accessed: the 2D matmul's
/// buffers of 37³ elements become 37 × 37.
#[test]
fn footprint_configs_cut_buffers_to_the_twin_footprint() {
    use cudalint::verify::protocol::ConfigResult;
    let twins = twins_of("testdata/bad/unguarded_2d_launch.cu");
    let (_, built, twin) = twins.first().expect("the matmul's twin");
    let results: Vec<ConfigResult> = twin
        .experiment
        .configs
        .iter()
        .map(|_| ConfigResult {
            run_ms: 0.1,
            violations: Vec::new(),
            error: None,
            footprint: twin.source.sites.iter().map(|_| 37 * 37 * 4).collect(),
            barriers: Vec::new(),
        })
        .collect();
    let configs = cudalint::verify::footprint_configs(built, twin, &results);
    // A configuration whose buffers already fit the footprint (the small problem's 7 × 7) is
    // not repeated.
    let larger = twin
        .experiment
        .configs
        .iter()
        .filter(|c| {
            c.arguments
                .iter()
                .any(|a| matches!(a, Argument::Buffer { bytes, .. } if *bytes > 37 * 37 * 4))
        })
        .count();
    assert!(larger < twin.experiment.configs.len());
    assert_eq!(configs.len(), larger);
    let first = &configs[0];
    assert!(
        first.description.contains("A of 1369 elements")
            && first.description.contains("`if (row < M && col < N)`"),
        "{}",
        first.description
    );
    for argument in &first.arguments {
        if let Argument::Buffer { bytes, .. } = argument {
            assert_eq!(*bytes, 37 * 37 * 4);
        }
    }
    // a twin run that itself went past a buffer gives no footprint
    let mut past = results.clone();
    for result in &mut past {
        result
            .violations
            .push(cudalint::verify::protocol::SiteViolation {
                site: 0,
                count: 1,
                index: 5000,
                kind: 1,
                thread: [0; 3],
                block: [0; 3],
                extent: 4000,
                cause: 1,
            });
    }
    assert!(cudalint::verify::footprint_configs(built, twin, &past).is_empty());
}

/// Every barrier written in a kernel counts its arrivals before it waits; a barrier reached
/// through a helper is left alone.
#[test]
fn barriers_count_their_arrivals() {
    let fixture = "testdata/bad/divergent_barrier.cu";
    let text = std::fs::read_to_string(fixture).unwrap();
    let outputs = with_model(Path::new(fixture), &text, |model| {
        model
            .kernels
            .iter()
            .filter_map(|(index, _)| {
                let built = experiment_for_kernel(model, *index).ok()?;
                Some((model.functions[*index].name.clone(), built))
            })
            .collect::<Vec<_>>()
    })
    .unwrap();
    let mut counted = 0;
    for (kernel, built) in &outputs {
        assert_eq!(built.experiment.barriers, built.source.barriers.len());
        counted += built.source.barriers.len();
        let name = format!(
            "barriers__{}__{kernel}",
            fixture.replace(['/', '.', '-'], "_")
        );
        insta::assert_snapshot!(name, built.source.body.clone());
    }
    assert!(counted >= 6, "{counted} barriers counted");
}

/// Arrival counts that are not whole rounds of a block are the witness: the first such block,
/// its count, and how many blocks diverged.
#[test]
fn barrier_divergence_is_read_from_the_counts() {
    use cudalint::verify::worker::{
        barrier_divergences, BARRIER_BLOCKS, SCRATCH_WORDS, SITE_WORDS,
    };
    let sites = 2;
    let mut words = vec![0u64; SCRATCH_WORDS + sites * SITE_WORDS + 2 * BARRIER_BLOCKS];
    let base = SCRATCH_WORDS + sites * SITE_WORDS;
    // barrier 0: blocks 0..3 full (256 each), block 3 has 232 live threads
    for block in 0..3 {
        words[base + block] = 256;
    }
    words[base + 3] = 232;
    // barrier 1: in a loop of 4 rounds, every thread
    for block in 0..4 {
        words[base + BARRIER_BLOCKS + block] = 1024;
    }
    let found = barrier_divergences(&words, sites, 2, [4, 1, 1], [256, 1, 1]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].barrier, 0);
    assert_eq!(found[0].block, [3, 0, 0]);
    assert_eq!(
        (found[0].arrived, found[0].expected, found[0].blocks),
        (232, 256, 1)
    );
    // a 2D grid: the linear block number is split back into x and y
    words[base + 3] = 256;
    words[base + 5] = 100;
    let found = barrier_divergences(&words, sites, 1, [3, 2, 1], [16, 16, 1]);
    assert_eq!(found[0].block, [2, 1, 0]);
}

#[test]
fn blocks_choosing_definitions_are_kept_whole_for_the_compiler_to_decide() {
    // The model's view keeps the first branch of a condition it cannot decide; NVRTC, like nvcc,
    // must see every branch and take the one the build's definitions select.
    let file = "#ifdef RD_WG_SIZE_0_0\n#define BLOCK_SIZE RD_WG_SIZE_0_0\n#elif defined(RD_WG_SIZE_0)\n#define BLOCK_SIZE RD_WG_SIZE_0\n#else\n#define BLOCK_SIZE 16\n#endif\n#if CUDA_VERSION >= 9000\n#define SYNC_MASK 0xffffffffu\n#endif\n__global__ void fill(int* out) { out[blockIdx.x * BLOCK_SIZE + threadIdx.x] = SYNC_MASK; }\n";
    let source = kernel_source(file, "fill");
    assert!(
        source.body.starts_with("#ifdef RD_WG_SIZE_0_0\n#define BLOCK_SIZE RD_WG_SIZE_0_0\n#elif defined(RD_WG_SIZE_0)\n#define BLOCK_SIZE RD_WG_SIZE_0\n#else\n#define BLOCK_SIZE 16\n#endif\n#if CUDA_VERSION >= 9000\n#define SYNC_MASK 0xffffffffu\n#endif\n"),
        "{}",
        source.body
    );
    // The prelude says which toolkit compiles it, as cuda.h does for nvcc.
    assert!(source.source().contains("#define CUDA_VERSION"));
    // A conditional holding code is still extracted branch by branch: written once, not whole.
    let code = "#ifdef USE_FAST\n__device__ float f(float v) { return v; }\n#define SCALE 2\n#endif\n__global__ void k(float* o) { o[threadIdx.x] = f(SCALE); }\n";
    let source = kernel_source(code, "k");
    assert!(!source.body.contains("#ifdef"), "{}", source.body);
    assert_eq!(source.body.matches("#define SCALE 2").count(), 1);
}

#[test]
fn toolkit_headers_a_project_header_would_have_included_are_added_by_use() {
    // `common.h` (not found here) includes <cuda_fp16.h> and <cooperative_groups.h>.
    let file = "#include \"common.h\"\nnamespace cg = cooperative_groups;\n__global__ void halve(__half* out, const float* in) {\n  cg::thread_block b = cg::this_thread_block();\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = __float2half(in[i] * 0.5f);\n}\n__global__ void plain(float* out) { out[threadIdx.x] = 1.0f; }\n";
    let halve = kernel_source(file, "halve");
    assert!(
        halve
            .headers
            .contains(&"#include <cooperative_groups.h>".to_string()),
        "{:?}",
        halve.headers
    );
    assert!(
        halve
            .headers
            .contains(&"#include <cuda_fp16.h>".to_string()),
        "{:?}",
        halve.headers
    );
    assert!(!halve.headers.iter().any(|h| h.contains("bf16")));
    // A name that only contains one of the words is not a use.
    let plain = kernel_source(
        &file.replace("namespace cg = cooperative_groups;\n", ""),
        "plain",
    );
    assert!(plain.headers.is_empty(), "{:?}", plain.headers);
}

#[test]
fn a_dynamic_shared_array_gets_memory_when_no_launch_says_how_much() {
    let file = "__global__ void stage(const long* in, long* out, int size) {\n  extern __shared__ long shared_data[];\n  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n  if (idx >= size) return;\n  shared_data[threadIdx.x] = in[idx];\n  __syncthreads();\n  out[idx] = shared_data[threadIdx.x];\n}\nvoid run(const long* in, long* out, int size, int threads) {\n  dim3 block(256);\n  stage<<<(size + 255) / 256, block, threads * sizeof(long)>>>(in, out, size);\n}\n__global__ void plain(long* out, int size) { out[blockIdx.x * blockDim.x + threadIdx.x] = size; }\n";
    let configs = |kernel: &str| kernel_experiment(file, kernel).experiment.configs;
    let staged = configs("stage");
    assert!(!staged.is_empty());
    for config in &staged {
        // The block the launch names is kept though its shared amount is not a constant.
        assert_eq!(config.block, [256, 1, 1], "{}", config.description);
        assert_eq!(config.shared_bytes, params::UNKNOWN_DYNAMIC_SHARED_BYTES);
    }
    for config in configs("plain") {
        assert_eq!(config.shared_bytes, 0, "{}", config.description);
    }
}

#[test]
fn quoted_includes_are_found_in_include_folders_above_the_file() {
    let root = std::env::temp_dir().join(format!("cudalint-includes-{}", std::process::id()));
    let file = root.join("csrc").join("transformer").join("kernels.cu");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::create_dir_all(root.join("csrc").join("includes")).unwrap();
    std::fs::write(
        root.join("csrc").join("includes").join("layers.h"),
        "#define TILE 32\n",
    )
    .unwrap();
    let found = cudalint::verify::extract::resolve_include(&file, "layers.h", &[]);
    let missing = cudalint::verify::extract::resolve_include(&file, "absent.h", &[]);
    std::fs::remove_dir_all(&root).ok();
    assert!(
        found.is_some_and(|p| p.ends_with("includes/layers.h")),
        "the header in csrc/includes/ is found from csrc/transformer/"
    );
    assert!(missing.is_none());
}

#[test]
fn a_template_value_named_by_the_host_is_bound_to_its_value() {
    let file = "template <int THREADS>\n__global__ void scan(float* out, int n) {\n  __shared__ float tile[THREADS];\n  int i = blockIdx.x * THREADS + threadIdx.x;\n  tile[threadIdx.x] = 1.0f;\n  __syncthreads();\n  out[i] = tile[threadIdx.x];\n}\nvoid run(float* d, int n) {\n  const int THREADS_PER_BLOCK = 256;\n  scan<THREADS_PER_BLOCK><<<(n + 255) / 256, THREADS_PER_BLOCK>>>(d, n);\n}\n";
    let built = kernel_experiment(file, "scan");
    assert_eq!(built.template_arguments, ["256"]);
    assert_eq!(
        built.source.template_bindings,
        [("THREADS".to_string(), "256".to_string())]
    );
}

#[test]
fn hip_device_headers_become_their_cuda_twins() {
    let file = "#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n#include <hip/hip_fp16.h>\nnamespace cg = cooperative_groups;\n__global__ void halve(__half* out, int n) {\n  cg::thread_block b = cg::this_thread_block();\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = __float2half(0.5f);\n}\n";
    let source = kernel_source(file, "halve");
    assert_eq!(
        source.headers,
        ["#include <cooperative_groups.h>", "#include <cuda_fp16.h>"]
    );
    assert!(!source.source().contains("hip/"), "{}", source.source());
}

#[test]
fn a_block_size_chosen_by_an_undefined_name_is_the_default_branch() {
    // nvcc without `-D RD_WG_SIZE...` compiles BLOCK_SIZE as 16: the launch's block is 16 threads,
    // and the shared tile sized by it is not overrun by a block of another size.
    let file = "#ifdef RD_WG_SIZE_0_0\n#define BLOCK_SIZE RD_WG_SIZE_0_0\n#elif defined(RD_WG_SIZE_0)\n#define BLOCK_SIZE RD_WG_SIZE_0\n#else\n#define BLOCK_SIZE 16\n#endif\n#ifndef GUARD_H\n#define GUARD_H\n#endif\n__global__ void diagonal(int* m, int cols) {\n  __shared__ int tile[BLOCK_SIZE + 1];\n  int tx = threadIdx.x;\n  tile[tx] = m[blockIdx.x * BLOCK_SIZE + tx];\n  __syncthreads();\n  m[blockIdx.x * BLOCK_SIZE + tx + cols] = tile[tx];\n}\nvoid run(int* d, int cols) {\n  dim3 block(BLOCK_SIZE);\n  diagonal<<<cols / BLOCK_SIZE, block>>>(d, cols);\n}\n";
    let built = kernel_experiment(file, "diagonal");
    assert!(!built.experiment.configs.is_empty());
    for config in &built.experiment.configs {
        assert_eq!(config.block, [16, 1, 1], "{}", config.description);
    }
    // The lint's own view still reads the first branch of a condition it cannot decide.
    let lint_view = cudalint::source::preprocess(file, &[]);
    assert!(lint_view.text.contains("#define BLOCK_SIZE RD_WG_SIZE_0_0"));
    let compiled = cudalint::source::preprocess_with(
        file,
        &cudalint::source::ViewOptions {
            as_compiled: true,
            ..Default::default()
        },
    );
    assert!(compiled.text.contains("#define BLOCK_SIZE 16"));
    assert!(!compiled.text.contains("RD_WG_SIZE_0_0\n#"));
}

#[test]
fn a_pointer_to_arrays_gives_each_buffer_element_the_whole_array() {
    let file = "#define Y 400\n#define Z 400\nconst int W = 3;\n__global__ void step(double phi[][Y][Z], float (*rows)[W * 2], int* flat, double cube[8][Y][Z]) {\n  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;\n  phi[x][1][1] = rows[x][0] + flat[x] + cube[x][0][0];\n}\n";
    let built = kernel_experiment(file, "step");
    let bytes: Vec<Option<u64>> = built
        .shapes
        .iter()
        .map(|(_, shape)| match shape {
            ParameterShape::Pointer { element_bytes, .. } => *element_bytes,
            _ => None,
        })
        .collect();
    assert_eq!(
        bytes,
        vec![
            Some(8 * 400 * 400),
            Some(4 * 6),
            Some(4),
            Some(8 * 400 * 400)
        ]
    );
    // Rows of 1.28 MB are given as whole rows: the fill still writes doubles.
    let Some(Argument::Buffer { bytes, fill, .. }) = built.experiment.configs[0].arguments.first()
    else {
        panic!("phi is not a buffer")
    };
    assert_eq!(*fill, cudalint::verify::protocol::Fill::F64);
    assert_eq!(bytes % (8 * 400 * 400), 0, "{bytes}");
}

#[test]
fn project_headers_are_written_as_a_build_for_this_device_compiles_them() {
    let root = std::env::temp_dir().join(format!("cudalint-platform-{}", std::process::id()));
    std::fs::create_dir_all(root.join("includes")).unwrap();
    std::fs::write(
        root.join("includes").join("utils.h"),
        "#pragma once\n#ifdef __HIP_PLATFORM_AMD__\nconstexpr int lanes = ROCM_WAVEFRONT_SIZE;\n#else\nconstexpr int lanes = 32;\n#endif\n#ifdef _WIN32\nstruct Clock { LARGE_INTEGER start; };\n#else\nstruct Clock { long long start; };\n#endif\n#ifdef WIDE\nconstexpr int width = 8;\n#else\nconstexpr int width = 4;\n#endif\n",
    )
    .unwrap();
    let file = root.join("kernels.cu");
    let text = "#define WIDE\n#include \"utils.h\"\n__global__ void fill(int* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = lanes * width;\n}\n";
    let program = with_model(&file, text, |m| {
        let index = m.functions.iter().position(|f| f.name == "fill").unwrap();
        experiment_for_kernel(m, index).map(|built| built.source.source())
    })
    .unwrap();
    std::fs::remove_dir_all(&root).ok();
    let program = program.unwrap();
    assert!(program.contains("constexpr int lanes = 32;"), "{program}");
    assert!(!program.contains("ROCM_WAVEFRONT_SIZE"), "{program}");
    assert!(!program.contains("LARGE_INTEGER"), "{program}");
    // The including file's definitions choose the header's branches.
    assert!(program.contains("constexpr int width = 8;"), "{program}");
    assert!(!program.contains("width = 4"), "{program}");
}

/// The program `--verify` builds for the first kernel of `name`, written with `files` into a
/// folder of its own (`tag` names the folder).
fn program_in_folder(tag: &str, files: &[(&str, &str)], name: &str, text: &str) -> String {
    let root = std::env::temp_dir().join(format!("cudalint-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    for (file_name, contents) in files {
        std::fs::write(root.join(file_name), contents).unwrap();
    }
    let file = root.join(name);
    std::fs::write(&file, text).unwrap();
    let program = with_model(&file, text, |m| {
        experiment_for_kernel(m, 0).map(|built| built.source.source())
    })
    .unwrap();
    std::fs::remove_dir_all(&root).ok();
    program.unwrap()
}

#[test]
fn a_file_compiled_inside_another_sees_the_headers_included_before_it() {
    let text = "__global__ void mask(byte_t* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = 1;\n}\n";
    let program = program_in_folder(
        "includer",
        &[
            ("types.h", "typedef unsigned char byte_t;\n"),
            (
                "main.cu",
                "#include <cstdio>\n#include \"types.h\"\n#include \"kernels.cu\"\nint main() { return 0; }\n",
            ),
        ],
        "kernels.cu",
        text,
    );
    let typedef = program.find("typedef unsigned char byte_t;");
    assert!(
        typedef.is_some_and(|at| at < program.find("void mask").unwrap()),
        "{program}"
    );
    // The file itself is not included a second time through its includer.
    assert_eq!(program.matches("void mask").count(), 1, "{program}");
}

#[test]
fn a_file_compiled_inside_a_header_sees_the_headers_that_header_includes_before_it() {
    let text = "__global__ void sweep(float* out, int n) {\n  __shared__ float tile[TILE_DIM];\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  tile[threadIdx.x % TILE_DIM] = 1;\n  out[i] = tile[0];\n}\n";
    let program = program_in_folder(
        "header-includer",
        &[
            ("sizes.h", "#define TILE_DIM 16\n"),
            (
                "small_systems.h",
                "#include \"sizes.h\"\n#include \"sweep_kernels.cu\"\n",
            ),
            (
                "main.cu",
                "#include \"small_systems.h\"\nint main() { return 0; }\n",
            ),
        ],
        "sweep_kernels.cu",
        text,
    );
    let define = program.find("#define TILE_DIM 16");
    assert!(
        define.is_some_and(|at| at < program.find("void sweep").unwrap()),
        "{program}"
    );
}

#[test]
fn standard_type_traits_come_from_libcuxx_by_use() {
    let file = "#include <type_traits>\ntemplate <typename T> __global__ void fill(T* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = std::is_same<T, float>::value ? 1 : 2;\n}\nvoid run(float* d, int n) { fill<float><<<(n + 255) / 256, 256>>>(d, n); }\n";
    let built = kernel_experiment(file, "fill");
    let traits: Vec<&String> = built
        .source
        .headers
        .iter()
        .filter(|h| h.contains("<cuda/std/type_traits>"))
        .collect();
    assert_eq!(traits.len(), 1, "{:?}", built.source.headers);
    assert!(
        traits[0].contains("namespace std { using cuda::std::is_same; }"),
        "{traits:?}"
    );
    // `std::is_same_v` is not `std::is_same`.
    let other = kernel_experiment(
        &file.replace("std::is_same<T, float>::value", "std::is_same_v<T, float>"),
        "fill",
    );
    assert!(!other
        .source
        .headers
        .iter()
        .any(|h| h.contains("using cuda::std::is_same;")));
}

#[test]
fn a_std_pair_parameter_is_passed_as_its_two_members() {
    let file = "#include <cstdint>\n__global__ void dropout(float* out, std::pair<uint64_t, uint32_t> seeds, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = (float)(seeds.first + seeds.second + i);\n}\n";
    let built = kernel_experiment(file, "dropout");
    assert!(
        built
            .source
            .headers
            .iter()
            .any(|h| h.contains("<cuda/std/utility>")
                && h.contains("using cuda::std::pair;")
                && !h.contains("make_pair")),
        "{:?}",
        built.source.headers
    );
    let config = &built.experiment.configs[0];
    let Argument::Bytes { value } = &config.arguments[1] else {
        panic!("{:?}", config.arguments[1])
    };
    // `first` at 0 (8 bytes), `second` at 8 (4 bytes), padded to the pair's alignment of 8.
    assert_eq!(value.len(), 16);
    let first = u64::from_le_bytes(value[0..8].try_into().unwrap());
    let second = u32::from_le_bytes(value[8..12].try_into().unwrap());
    assert!(first > 0 && u64::from(second) == first, "{value:?}");
}

#[test]
fn a_plain_struct_parameter_is_passed_as_its_bytes() {
    let file = "struct Grid { int nx; int ny; float h; };\nstruct Scale { double k; __host__ __device__ double operator()(double v) const { return k * v; } };\n__global__ void relax(float* u, Grid g) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  u[i] = g.h * (float)(g.nx + g.ny);\n}\ntemplate <int BLOCK, typename Op>\n__global__ void apply(double* out, Op op, int n) {\n  int i = blockIdx.x * BLOCK + threadIdx.x;\n  out[i] = op(1.0);\n}\nvoid run(double* d, int n) {\n  Scale twice;\n  twice.k = 2.0;\n  apply<128><<<(n + 127) / 128, 128>>>(d, twice, n);\n}\n";
    let relax = kernel_experiment(file, "relax");
    let config = &relax.experiment.configs[0];
    let Argument::Bytes { value } = &config.arguments[1] else {
        panic!("{:?}", config.arguments[1])
    };
    assert_eq!(value.len(), 12);
    let nx = i32::from_le_bytes(value[0..4].try_into().unwrap());
    assert!(nx > 0 && value[0..4] == value[4..8], "{value:?}");
    assert_eq!(value[8..12], 1.5f32.to_le_bytes());
    // Two integer fields make the buffer a plane of them.
    let Argument::Buffer { bytes, .. } = config.arguments[0] else {
        panic!("u is not a buffer")
    };
    assert_eq!(
        bytes,
        (nx as u64) * (nx as u64) * 4,
        "{}",
        config.description
    );
    // The functor's type is deduced from the host variable passed for it.
    let apply = kernel_experiment(file, "apply");
    assert_eq!(apply.template_arguments, ["128", "Scale"]);
    assert!(apply.source.source().contains("typedef Scale Op;"));
    assert!(
        apply
            .experiment
            .configs
            .iter()
            .all(|c| matches!(c.arguments[1], Argument::Bytes { ref value } if value.len() == 8)),
        "{:?}",
        apply.experiment.configs
    );
}

#[test]
fn a_struct_holding_a_pointer_is_not_synthesised_and_says_why() {
    let file = "struct View { float* data; int n; };\n__global__ void touch(View v) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  v.data[i] = 0;\n}\n";
    let reason = with_model(Path::new("k.cu"), file, |m| {
        experiment_for_kernel(m, 0).err()
    })
    .unwrap()
    .unwrap();
    assert!(reason.contains("`View` holds a pointer"), "{reason}");
}

#[test]
fn header_types_nothing_names_are_left_out() {
    let root = std::env::temp_dir().join(format!("cudalint-unused-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("common.h"),
        "#pragma once\nclass Timer { struct timespec start; public: void begin(); };\nstruct Vec2 { float x, y; };\nstruct Segment { Vec2 a, b; };\ntypedef int host_only_t;\n",
    )
    .unwrap();
    let file = root.join("kernels.cu");
    let text = "#include \"common.h\"\n__global__ void length(const Segment* s, float* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = s[i].b.x - s[i].a.x;\n}\n";
    let program = with_model(&file, text, |m| {
        experiment_for_kernel(m, 0).map(|built| built.source.source())
    })
    .unwrap();
    std::fs::remove_dir_all(&root).ok();
    let program = program.unwrap();
    assert!(!program.contains("class Timer"), "{program}");
    assert!(!program.contains("host_only_t"), "{program}");
    // Named by the kernel, or by a type the kernel names.
    assert!(program.contains("struct Segment"), "{program}");
    assert!(program.contains("struct Vec2"), "{program}");
}

#[test]
fn a_host_library_offers_only_the_types_device_code_names() {
    let root = std::env::temp_dir().join(format!("cudalint-host-library-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    // a host container library: its types name each other in host code throughout
    std::fs::write(
        root.join("flat_map.h"),
        "#pragma once\n#include <tuple>\nnamespace flat {\ntemplate <typename A, typename B> struct pair { A first; B second; template <typename... U> pair(std::tuple<U...>& t) : first(std::get<0>(t)) {} };\nstruct Bucket { int key; int value; };\nstruct Slot { Bucket bucket; int probe; };\nclass Context { public: static Context& Instance() { static Context c; return c; } pair<int, int> seed() { return {}; } };\ninline int mix(int v) { return v * 31; }\n}\n",
    )
    .unwrap();
    // a header with device code: its `__host__`-only members are not device code
    std::fs::write(
        root.join("table.h"),
        "#pragma once\ntemplate <typename K>\nclass Table {\npublic:\n    __host__ Table(int capacity) : capacity(capacity) {}\n    __host__ void upload(const K* keys, int n);\n    __device__ static int slot(K key, int capacity) { return (int)(key % capacity); }\n    int capacity;\n};\n",
    )
    .unwrap();
    let file = root.join("kernels.cu");
    let text = "#include \"flat_map.h\"\n#include \"table.h\"\n#include <curand_kernel.h>\n__global__ void place(const flat::Slot* slots, int* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[Table<int>::slot(slots[i].bucket.key, n)] = i;\n}\nvoid launch(int* out, int n) {\n  auto seed = flat::Context::Instance().seed();\n  place<<<(n + 255) / 256, 256>>>(nullptr, out, n);\n}\n";
    let program = with_model(&file, text, |m| {
        experiment_for_kernel(m, 0).map(|built| built.source.source())
    })
    .unwrap();
    std::fs::remove_dir_all(&root).ok();
    let program = program.unwrap();
    // named by the kernel, and what it is made of
    assert!(program.contains("struct Slot"), "{program}");
    assert!(program.contains("struct Bucket"), "{program}");
    // named only by host code: the launcher, the library itself
    assert!(!program.contains("class Context"), "{program}");
    assert!(!program.contains("struct pair"), "{program}");
    assert!(program.contains("class Table"), "{program}");
    assert!(program.contains("__device__ static int slot"), "{program}");
    assert!(!program.contains("__host__ Table"), "{program}");
    assert!(!program.contains("upload"), "{program}");
    // cuRAND's device header only for a kernel that draws numbers
    assert!(!program.contains("curand_kernel.h"), "{program}");
}

#[test]
fn a_macro_an_earlier_header_defines_decides_a_later_headers_conditions() {
    let root = std::env::temp_dir().join(format!("cudalint-earlier-define-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("utils.h"), "#pragma once\n#define FAST_PATH\n").unwrap();
    std::fs::write(
        root.join("access.h"),
        "#pragma once\n#ifdef FAST_PATH\n__device__ __forceinline__ float twice(float v) { return v + v; }\n#endif\ntemplate <typename K>\nconstexpr K empty_key() { return K(-1); }\ntemplate <typename K>\nconst K EMPTY = empty_key<K>();\n",
    )
    .unwrap();
    let file = root.join("k.cu");
    let text = "#include \"utils.h\"\n#include \"access.h\"\n__global__ void scale(float* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n && out[i] != EMPTY<int>) out[i] = twice(out[i]);\n}\n";
    let program = with_model(&file, text, |m| {
        experiment_for_kernel(m, 0).map(|built| built.source.source())
    })
    .unwrap();
    std::fs::remove_dir_all(&root).ok();
    let program = program.unwrap();
    assert!(program.contains("float twice(float v)"), "{program}");
    // a constexpr helper with no execution space, which a constant of device code calls
    assert!(program.contains("constexpr K empty_key()"), "{program}");
}

#[test]
fn curand_device_header_is_kept_for_a_kernel_that_draws_numbers() {
    let file = "#include <curand_kernel.h>\n__global__ void noise(float* out, unsigned long long seed, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  curandStatePhilox4_32_10_t state;\n  curand_init(seed, i, 0, &state);\n  if (i < n) out[i] = curand_uniform(&state);\n}\n";
    let program = kernel_source(file, "noise").source();
    assert!(program.contains("#include <curand_kernel.h>"), "{program}");
}

#[test]
fn qualifier_macros_of_a_nested_header_make_device_functions_of_the_next() {
    let root = std::env::temp_dir().join(format!("cudalint-qualifiers-{}", std::process::id()));
    std::fs::create_dir_all(root.join("includes")).unwrap();
    std::fs::write(
        root.join("includes").join("kernel_utils.h"),
        "#pragma once\n#define DEV_INLINE __device__ __forceinline__\n",
    )
    .unwrap();
    std::fs::write(
        root.join("includes").join("convert.h"),
        "#pragma once\n#include \"kernel_utils.h\"\nnamespace convert {\ntemplate <typename T>\nDEV_INLINE T twice(T v) { return v + v; }\n}\n",
    )
    .unwrap();
    let file = root.join("scale.cu");
    let text = "#include \"convert.h\"\n__global__ void scale(float* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = convert::twice(out[i]);\n}\n";
    let program = with_model(&file, text, |m| {
        experiment_for_kernel(m, 0).map(|built| built.source.source())
    })
    .unwrap();
    std::fs::remove_dir_all(&root).ok();
    let program = program.unwrap();
    assert!(program.contains("DEV_INLINE T twice(T v)"), "{program}");
}

#[test]
fn the_kernels_own_arrays_are_checked_dimension_by_dimension() {
    let file = "#define TILE 16\n__global__ void tiled(const float* in, float* out, int n) {\n    __shared__ float tile[TILE + 1][TILE];\n    float local[4];\n    int tx = threadIdx.x;\n    tile[tx][0] = in[blockIdx.x * blockDim.x + tx];\n    local[tx & 3] = tile[0][tx];\n    __syncthreads();\n    out[blockIdx.x * blockDim.x + tx] = local[0] + tile[tx + 1][tx];\n}\n";
    let built = kernel_experiment(file, "tiled");
    let source = &built.source;
    // The buffer accesses keep the first sites, the arrays' follow.
    assert_eq!(
        source
            .sites
            .iter()
            .map(|s| (s.pointer.as_str(), s.own_array))
            .collect::<Vec<_>>(),
        [
            ("in", false),
            ("out", false),
            ("tile", true),
            ("tile", true),
            ("local", true),
            ("tile", true),
            ("tile", true),
            ("local", true),
            ("tile", true),
            ("tile", true),
        ]
    );
    assert!(source.sites[2..]
        .iter()
        .all(|s| s.parameter_index == usize::MAX));
    let body = &source.body;
    assert!(
        body.contains("(*cl_in((*cl_in(tile, (long long)(tx), 3u, 2u, cudalint_report)), (long long)(0), 2u, 2u, cudalint_report)) = (*cl_at(in, (long long)(blockIdx.x * blockDim.x + tx), 0, cudalint_bytes_0, cudalint_initialized_0, 0u, 1u, cudalint_report));"),
        "{body}"
    );
    assert!(
        body.contains("(*cl_in(local, (long long)(tx & 3), 4u, 2u, cudalint_report)) = (*cl_in((*cl_in(tile, (long long)(0), 6u, 1u, cudalint_report)), (long long)(tx), 5u, 1u, cudalint_report));"),
        "{body}"
    );
    // The barrier's counts come after every site.
    assert!(
        body.contains("CL_SCRATCH_WORDS + 10ull * CL_SITE_WORDS"),
        "{body}"
    );
    assert_eq!(built.experiment.sites, 10);
    let prelude = cudalint::verify::extract::PRELUDE;
    assert!(prelude.contains(
        "T* cl_in(T (&array)[N], long long index, unsigned site, unsigned kind, cl_u64* report)"
    ));
    assert!(prelude.contains("%%dynamic_smem_size"));
}

#[test]
fn only_the_dimensions_an_array_declares_are_checked() {
    // An array of pointers is left as written (its second subscript would index what a pointer
    // points at). An address taken is not an access, and a constant table may be needed in a
    // constant expression.
    let file = "__global__ void rows(float* a, float* b, int n) {\n    float* ptrs[2] = {a, b};\n    constexpr int order[2] = {1, 0};\n    float sums[2];\n    float* last = &sums[1];\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    sums[0] = ptrs[order[0]][i];\n    *last = 0;\n}\n";
    let body = kernel_source(file, "rows").body;
    assert!(
        body.contains(
            "(*cl_in(sums, (long long)(0), 0u, 2u, cudalint_report)) = ptrs[order[0]][i];"
        ),
        "{body}"
    );
    assert!(body.contains("float* last = &sums[1];"), "{body}");
}

#[test]
fn dynamic_shared_memory_and_pointers_into_it_are_checked_against_the_launch() {
    let file = "__global__ void solve(const float* a_d, float* x_d, int size) {\n    extern __shared__ float shared[];\n    float* a = shared;\n    float* b = &a[size + 1];\n    float* moved = shared;\n    moved = b;\n    float* mixed = size > 0 ? shared : x_d;\n    int t = threadIdx.x;\n    a[t] = a_d[t];\n    b[t] = a[t] * 2;\n    moved[t] = 0;\n    mixed[t] = 1;\n    x_d[t] = shared[t];\n}\n";
    let built = kernel_experiment(file, "solve");
    let body = &built.source.body;
    assert!(body.contains("float* b = &a[size + 1];"), "{body}");
    assert!(
        body.contains("(*cl_dyn(a, (long long)(t), shared, 2u, 2u, cudalint_report)) = (*cl_at(a_d, (long long)(t), 0, cudalint_bytes_0, cudalint_initialized_0, 0u, 1u, cudalint_report));"),
        "{body}"
    );
    assert!(
        body.contains("(*cl_dyn(b, (long long)(t), shared, 3u, 2u, cudalint_report)) = (*cl_dyn(a, (long long)(t), shared, 4u, 1u, cudalint_report)) * 2;"),
        "{body}"
    );
    assert!(
        body.contains("= (*cl_dyn(shared, (long long)(t), shared, 5u, 1u, cudalint_report));"),
        "{body}"
    );
    // Assigned again, or possibly a buffer: left as written.
    assert!(body.contains("moved[t] = 0;"), "{body}");
    assert!(body.contains("mixed[t] = 1;"), "{body}");
    // The launch gives the block dynamic shared memory.
    assert!(built.experiment.configs.iter().any(|c| c.shared_bytes > 0));
}

#[test]
fn hips_dynamic_shared_array_is_checked_and_given_memory() {
    let file = "#include <hip/hip_runtime.h>\n__global__ void cache(float* out, int n) {\n    HIP_DYNAMIC_SHARED(float, buffer);\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    buffer[threadIdx.x] = 1.0f;\n    __syncthreads();\n    out[i] = buffer[threadIdx.x];\n}\n";
    let built = kernel_experiment(file, "cache");
    let body = &built.source.body;
    assert!(
        body.contains(
            "(*cl_dyn(buffer, (long long)(threadIdx.x), buffer, 1u, 2u, cudalint_report)) = 1.0f;"
        ),
        "{body}"
    );
    assert!(built.source.sites[1].own_array);
    assert!(built.experiment.configs.iter().all(|c| c.shared_bytes > 0));
}

#[test]
fn an_index_that_is_itself_an_access_is_checked_too() {
    let file = "__global__ void gather(const int* map, float* out, const float* in) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    out[i] = in[map[i]];\n}\n";
    let body = kernel_source(file, "gather").body;
    assert!(
        body.contains("(*cl_at(in, (long long)((*cl_at(map, (long long)(i), 0,"),
        "{body}"
    );
}

#[test]
fn a_default_argument_does_not_precede_the_added_parameters() {
    let file = "__global__ void scan(int* data, int width, int* partial = NULL) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    data[i] += width;\n    if (partial != NULL) partial[blockIdx.x] = data[i];\n}\n";
    let body = kernel_source(file, "scan").body;
    assert!(
        body.contains(
            "void scan(int* data, int width, int* partial, unsigned long long cudalint_bytes_0,"
        ),
        "{body}"
    );
}

#[test]
fn an_enumeration_template_parameter_takes_its_first_enumerator() {
    // The launch passes the host function's own template parameter: nothing binds it.
    let file = "enum class Op { Min, Max };\ntemplate <Op op>\n__global__ void reduce(const int* in, int* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) out[i] = op == Op::Min ? in[i] : -in[i];\n}\ntemplate <Op op>\nvoid run(const int* in, int* out, int n) { reduce<op><<<(n + 255) / 256, 256>>>(in, out, n); }\n";
    let source = kernel_source(file, "reduce");
    assert!(
        source.body.contains("constexpr Op op = Op::Min;"),
        "{}",
        source.body
    );
    assert_eq!(
        source.template_bindings,
        [("op".to_string(), "Op::Min".to_string())]
    );
}

#[test]
fn a_guard_edit_that_begins_with_an_own_array_access_is_kept_in_the_twin() {
    use cudalint::verify::twin::Guards;
    let file = "__global__ void k(float* out, int n) {\n    __shared__ int s[256];\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    s[threadIdx.x] = i;\n    if (s[threadIdx.x] <= n) out[i] = 1.0f;\n}\n";
    let start = file.find("s[threadIdx.x] <= n").unwrap();
    let guards = Guards {
        sites: Vec::new(),
        edits: vec![(
            start..start + "s[threadIdx.x] <= n".len(),
            "s[threadIdx.x] < n".to_string(),
        )],
        described: Vec::new(),
    };
    let twin = with_model(Path::new("k.cu"), file, |m| {
        cudalint::verify::extract::build_twin(m, 0, &[], &guards)
    })
    .unwrap()
    .unwrap();
    assert!(
        twin.body.contains("if (s[threadIdx.x] < n) (*cl_at(out,"),
        "{}",
        twin.body
    );
    // The access written before the guard is still checked.
    assert!(
        twin.body.contains("(*cl_in(s, (long long)(threadIdx.x),"),
        "{}",
        twin.body
    );
}

#[test]
fn a_macro_whose_last_line_continues_onto_a_blank_line_ends_there() {
    // `} while (0) \` then a blank line: in the file the blank line ends the macro; written out
    // without it, the continuation would swallow the next definition.
    let text = "#define CHECK(call) \\\n  do { \\\n    int status = call; \\\n    if (status) return; \\\n  } while (0) \\\n\n#define TILE 16\n__global__ void fill(int* out, int n) {\n  int i = blockIdx.x * TILE + threadIdx.x;\n  out[i] = n;\n}\n";
    let source = kernel_source(text, "fill");
    assert!(
        source.body.contains("} while (0)\n#define TILE 16\n"),
        "{}",
        source.body
    );
}

#[test]
fn a_specialisation_of_a_host_library_template_is_kept_with_the_template() {
    // a header of host classes whose trait template the kernel names: the primary template is a
    // placeholder, the specialisations give the vector types
    let program = program_in_folder(
        "specialisation",
        &[(
            "particles.h",
            "#pragma once\n#include <string>\ntemplate <typename T> struct vec4 { typedef T Type; };\ntemplate <> struct vec4<float> { typedef float4 Type; };\ntemplate <> struct vec4<double> { typedef double4 Type; };\ntemplate <typename T> class Particles {\npublic:\n  Particles(int n) : n(n) {}\n  void load(const std::string& path);\n  int n;\n};\n",
        )],
        "step.cu",
        "#include \"particles.h\"\ntemplate <typename T>\n__global__ void step(typename vec4<T>::Type* pos, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  pos[i].w = pos[i].x;\n}\nvoid run(float4* pos, int n) { step<float><<<(n + 255) / 256, 256>>>(pos, n); }\n",
    );
    assert!(
        program.contains("template <> struct vec4<float> { typedef float4 Type; };"),
        "{program}"
    );
    assert!(
        program.contains("template <> struct vec4<double>"),
        "{program}"
    );
    assert!(!program.contains("class Particles"), "{program}");
}

#[test]
fn a_pointer_advanced_in_place_is_checked_at_its_distance_from_the_parameter() {
    let text = "__global__ void scale(float* rows, const float* bias, float* out, const float* pairs, int width, int n) {\n  int row = blockIdx.x;\n  rows += row * width;\n  pairs += row * width;\n  const float2* pair = reinterpret_cast<const float2*>(pairs);\n  const float* b = bias;\n  b++;\n  float* o = out;\n  o = o + row;\n  float* other = out;\n  other = rows;\n  for (int i = threadIdx.x; i < width; i += blockDim.x) {\n    rows[i] = rows[i] * b[i] + pair[i].x;\n    o[i] = other[i];\n  }\n}\n";
    let source = kernel_source(text, "scale");
    let body = &source.body;
    // the entry values of the advanced parameters are kept
    assert!(body.contains("{ auto const cudalint_origin_0 = rows; auto const cudalint_origin_1 = bias; auto const cudalint_origin_3 = pairs; auto const cudalint_origin_2 = out;"), "{body}");
    assert!(
        body.contains("cl_at(rows, (long long)(i), (long long)(((const char*)rows - (const char*)cudalint_origin_0) / (long long)sizeof(*rows)),"),
        "{body}"
    );
    assert!(
        body.contains("cl_at(b, (long long)(i), (long long)(((const char*)b - (const char*)cudalint_origin_1) / (long long)sizeof(*b)),"),
        "{body}"
    );
    assert!(
        body.contains("cl_at(o, (long long)(i), (long long)(((const char*)o - (const char*)cudalint_origin_2) / (long long)sizeof(*o)),"),
        "{body}"
    );
    // a pointer of another type derived from an advanced one: its distance in its own elements
    assert!(body.contains("cl_at(pair, (long long)(i), (long long)(((const char*)pair - (const char*)cudalint_origin_3) / (long long)sizeof(*pair)),"), "{body}");
    // pointed at another buffer: not an advance of `out`, left as the model reads it
    assert!(!body.contains("other - cudalint_origin"), "{body}");
}

#[test]
fn a_kernel_reading_a_texture_reference_is_not_verifiable_and_says_why() {
    let text = "texture<float, 1, cudaReadModeElementType> t_gain;\n__global__ void apply(float* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = tex1Dfetch(t_gain, i);\n}\n__global__ void clear(float* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = 0;\n}\n";
    let reasons = with_model(Path::new("k.cu"), text, |m| {
        m.kernels
            .iter()
            .map(|(index, _)| experiment_for_kernel(m, *index).err())
            .collect::<Vec<_>>()
    })
    .unwrap();
    assert_eq!(reasons.len(), 2);
    let reason = reasons[0].clone().unwrap_or_default();
    assert!(reason.contains("texture reference `t_gain`"), "{reason}");
    assert!(reason.contains("CUDA 12 removed"), "{reason}");
    // the file's other kernel does not read it
    assert!(reasons[1].is_none(), "{:?}", reasons[1]);
}

#[test]
fn std_qualified_fixed_width_integers_are_brought_into_std() {
    let text = "#include <cstdint>\nstruct Entry { std::uint16_t next; std::uint8_t symbol; };\n__global__ void decode(const Entry* table, std::uint32_t* out, std::uint32_t n) {\n  std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;\n  uint32_t plain = table[i].next;\n  out[i] = plain + table[i].symbol;\n}\n";
    let program = kernel_source(text, "decode").source();
    assert!(
        program.starts_with("#include <cuda/std/cstdint>\n"),
        "{program}"
    );
    assert!(program.contains("namespace std { using cuda::std::uint8_t; using cuda::std::uint16_t; using cuda::std::uint32_t; }"), "{program}");
    // the global names stay, from the stand-in's declarations
    assert!(
        program.contains("using cuda::std::uint32_t; using cuda::std::uint64_t;"),
        "{program}"
    );
    // without <cstdint>: the header, the global names and the `std` ones
    let text = "__global__ void decode(std::int64_t* out, int n) {\n  int64_t i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = n;\n}\n";
    let program = kernel_source(text, "decode").source();
    assert!(
        program.starts_with("#include <cuda/std/cstdint>\nusing cuda::std::int8_t;"),
        "{program}"
    );
    assert!(
        program.contains("namespace std { using cuda::std::int64_t; }"),
        "{program}"
    );
}

#[test]
fn a_parameter_type_a_project_header_defines_is_synthesised() {
    let root = std::env::temp_dir().join(format!("cudalint-header-types-{}", std::process::id()));
    std::fs::create_dir_all(root.join("include")).unwrap();
    std::fs::write(
        root.join("include/codec_types.h"),
        "#pragma once\n#include <cstdint>\n#define WORD_TYPE std::uint32_t\ntypedef struct Affine { double m[2][3]; } Affine;\n",
    )
    .unwrap();
    let file = root.join("decode.cu");
    let text = "#include \"codec_types.h\"\n__global__ void decode(const WORD_TYPE* in, float* out, WORD_TYPE seed, Affine t, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = (float)(in[i] ^ seed) * (float)t.m[0][0];\n}\n";
    let shapes = with_model(&file, text, |m| {
        experiment_for_kernel(m, 0).map(|b| b.shapes)
    })
    .unwrap();
    std::fs::remove_dir_all(&root).ok();
    let shapes = shapes.unwrap();
    assert_eq!(
        shapes[2].1,
        ParameterShape::Integer { bytes: 4 },
        "{shapes:?}"
    );
    match &shapes[3].1 {
        ParameterShape::Record(record) => assert_eq!(record.size, 48, "{record:?}"),
        other => panic!("Affine: {other:?}"),
    }
}

#[test]
fn a_type_only_a_host_variable_names_is_left_out() {
    // a benchmark object built at file level: host code, like `main`
    let text = "#include <fstream>\nstruct Rotation { float r[9]; };\nclass Runner {\n  std::ifstream input;\npublic:\n  void run();\n};\n__global__ void rotate(const float* in, float* out, Rotation rot, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = rot.r[0] * in[i];\n}\nvoid Runner::run() { }\nRunner runner = Runner();\n";
    let source = kernel_source(text, "rotate");
    assert!(!source.body.contains("class Runner"), "{}", source.body);
    assert!(source.body.contains("struct Rotation"), "{}", source.body);
}

/// The configurations tried for each kernel of `fixture`, one a line under the kernel's name.
fn configurations_of(fixture: &str) -> String {
    let text = std::fs::read_to_string(fixture).unwrap();
    with_model(Path::new(fixture), &text, |model| {
        model
            .kernels
            .iter()
            .map(|(index, _)| {
                let name = &model.functions[*index].name;
                let built = experiment_for_kernel(model, *index)
                    .unwrap_or_else(|e| panic!("{fixture} {name}: {e}"));
                let matrix = &built.matrix_configs;
                let lines: Vec<String> = built
                    .experiment
                    .configs
                    .iter()
                    .enumerate()
                    .map(|(at, c)| {
                        let mark = if matrix.contains(&at) {
                            " [matrix]"
                        } else {
                            ""
                        };
                        format!("  {}{mark}\n", c.description)
                    })
                    .collect();
                format!("{name}\n{}", lines.concat())
            })
            .collect::<String>()
    })
    .unwrap()
}

#[test]
fn launch_shapes_and_matrix_buffers_match_snapshots() {
    for fixture in [
        "testdata/bad/whole_block_groups.cu",
        "testdata/bad/unguarded_tiles_stepped_together.cu",
        "testdata/bad/unguarded_launch_branches_and_flags.cu",
    ] {
        let listing = configurations_of(fixture);
        // The HIP twin launches alike.
        let hip = fixture.replace("testdata/bad/", "testdata/hip/bad/");
        assert_eq!(configurations_of(&hip), listing, "{hip}");
        let name = format!("configs__{}", fixture.replace(['/', '.', '-'], "_"));
        insta::assert_snapshot!(name, listing);
    }
}

#[test]
fn a_launch_shaped_by_a_host_count_is_evaluated_with_the_count_chosen() {
    // `<<<(numItems + 1) / 2, 2 * THREADS_PER_ITEM>>>` with `numItems` read from argv: an odd
    // count leaves the last block with one item in range and one past it.
    let text = std::fs::read_to_string("testdata/bad/whole_block_groups.cu").unwrap();
    let built = kernel_experiment(&text, "scoreItems");
    let configs = &built.experiment.configs;
    // The defaults first, as before.
    assert!(configs[0].description.starts_with("grid (4,1,1)"));
    let shaped: Vec<_> = configs
        .iter()
        .filter(|c| c.description.starts_with("shaped as the launch at line 41"))
        .collect();
    assert_eq!(shaped.len(), 2, "{configs:#?}");
    assert_eq!(shaped[0].grid, [19, 1, 1]);
    assert_eq!(shaped[0].block, [256, 1, 1]);
    // The host's allocations at that count: `sizeof(float) * numItems * THREADS_PER_ITEM`.
    assert_eq!(
        shaped[0].arguments,
        vec![
            Argument::Buffer {
                bytes: 4 * 37 * 128,
                fill: cudalint::verify::protocol::Fill::F32,
                initialized: true
            },
            Argument::Buffer {
                bytes: 4 * 37,
                fill: cudalint::verify::protocol::Fill::F32,
                initialized: true
            },
            Argument::I32 { value: 37 },
        ]
    );
    assert_eq!(shaped[1].grid, [4, 1, 1]);
    assert_eq!(shaped[1].arguments[2], Argument::I32 { value: 7 });
    // Each block holds two items: 19 blocks for 37 items run item 37 in the last one.
    let items_launched = shaped[0].grid[0] * shaped[0].block[0] / 128;
    assert!(items_launched > 37);
}

#[test]
fn a_launch_shape_keeps_the_constants_the_launch_passes() {
    // `mark_valid<<<(n + 255) / 256, 256>>>(d_in, d_out, n, 1)`: the shift is 1, not the count.
    let text =
        std::fs::read_to_string("testdata/bad/unguarded_launch_branches_and_flags.cu").unwrap();
    let built = kernel_experiment(&text, "mark_valid");
    let shaped = built
        .experiment
        .configs
        .iter()
        .find(|c| {
            c.description
                .starts_with("shaped as the launch at line 105 with n = 37")
        })
        .unwrap();
    assert_eq!(shaped.grid, [1, 1, 1]);
    assert_eq!(shaped.arguments[2], Argument::I32 { value: 37 });
    assert_eq!(shaped.arguments[3], Argument::I32 { value: 1 });
    // No allocation is visible: one count of elements, as one count is chosen.
    assert!(matches!(
        shaped.arguments[1],
        Argument::Buffer { bytes: 148, .. }
    ));
    // A launch whose grid is a function call the file cannot evaluate gives none.
    let bias = kernel_experiment(&text, "bias");
    assert!(!bias
        .experiment
        .configs
        .iter()
        .any(|c| c.description.starts_with("shaped")));
}

#[test]
fn three_sizes_give_matrices_of_two_and_the_guarded_accesses_are_known() {
    let text = std::fs::read_to_string("testdata/bad/unguarded_tiles_stepped_together.cu").unwrap();
    for kernel in ["column_dots_untested", "column_dots_tile_rows"] {
        let built = kernel_experiment(&text, kernel);
        assert_eq!(built.matrix_configs.len(), 3, "{kernel}");
        let smallest = &built.experiment.configs[*built.matrix_configs.last().unwrap()];
        assert_eq!(smallest.arguments[1], Argument::I32 { value: 7 });
        assert!(matches!(
            smallest.arguments[2],
            Argument::Buffer { bytes: 196, .. }
        ));
        // `p` and `dots` are tested against their columns and rows; `q`'s column is not (or its
        // rows are added at another width).
        let guarded: Vec<(String, bool)> = built
            .source
            .sites
            .iter()
            .zip(&built.guarded_sites)
            .filter(|(site, _)| !site.own_array)
            .map(|(site, guarded)| (site.pointer.clone(), *guarded))
            .collect();
        assert!(
            guarded.contains(&("p".to_string(), true)),
            "{kernel}: {guarded:?}"
        );
        assert!(
            guarded.contains(&("dots".to_string(), true)),
            "{kernel}: {guarded:?}"
        );
        assert!(
            guarded.contains(&("q".to_string(), false)),
            "{kernel}: {guarded:?}"
        );
    }
    // Two sizes: the product already is a matrix of two.
    let two = "__global__ void k(float* m, int rows, int cols) { int r = blockIdx.y * blockDim.y + threadIdx.y; int c = blockIdx.x * blockDim.x + threadIdx.x; m[r * cols + c] = 0; }";
    assert!(kernel_experiment(two, "k").matrix_configs.is_empty());
}

#[test]
fn atomic_updates_and_updates_through_the_parameter_are_checked_reads() {
    let text =
        std::fs::read_to_string("testdata/bad/uninitialized_device_read_updates.cu").unwrap();
    for (kernel, pointer, rewritten) in [
        ("blockSums", "total", "atomicAdd((&(*cl_at(total, (long long)(0), 0, cudalint_bytes_1, cudalint_initialized_1, 1u, 3u, cudalint_report))), "),
        ("dot", "result", "atomicAdd((&(*cl_at(result, (long long)(0), 0, cudalint_bytes_2, cudalint_initialized_2, 2u, 3u, cudalint_report))), "),
        ("sumPartials", "out", "(*cl_at(out, (long long)(0), 0, cudalint_bytes_1, cudalint_initialized_1, 1u, 3u, cudalint_report)) += "),
        ("countPerGroup", "counts", "atomicAdd((&(*cl_at(counts, (long long)((*cl_at(key, (long long)(i), 0, cudalint_bytes_0, cudalint_initialized_0, 0u, 1u, cudalint_report))), 0, cudalint_bytes_1, cudalint_initialized_1, 1u, 3u, cudalint_report))), 1)"),
    ] {
        let source = kernel_source(&text, kernel);
        assert!(source.body.contains(rewritten), "{kernel}:\n{}", source.body);
        let site = source
            .sites
            .iter()
            .find(|s| s.pointer == pointer)
            .unwrap_or_else(|| panic!("{kernel}: no site of `{pointer}`"));
        assert_eq!(site.kind, cudalint::model::AccessKind::ReadWrite, "{kernel}");
        assert!(!site.own_array);
    }
    // `&bins[in[i]]` was an access already: checked once.
    let histogram = kernel_source(&text, "histogram");
    assert_eq!(
        histogram
            .sites
            .iter()
            .filter(|s| s.pointer == "bins")
            .count(),
        1
    );
    let file = "__global__ void k(int* count, int* moved, float* f, void* raw, int n) {\n  (*count)++;\n  int x = *count;\n  *f = 1.0f;\n  moved += n;\n  atomicMax(moved, 3);\n  atomicAdd_block(f, 2.0f);\n  atomicAdd((int*)raw, 1);\n}\n";
    let source = kernel_source(file, "k");
    let pointers: Vec<&str> = source.sites.iter().map(|s| s.pointer.as_str()).collect();
    // The increment and the block-scoped atomic; not a plain read or store through the
    // parameter, not a pointer the kernel moves, not a cast of a `void*`.
    assert_eq!(pointers, ["count", "f"], "{}", source.body);
    assert!(source
        .body
        .contains("((*cl_at(count, (long long)(0), 0, cudalint_bytes_0, cudalint_initialized_0, 0u, 3u, cudalint_report)))++"));
}

#[test]
fn data_read_as_an_index_spreads_over_the_buffer_a_partial_memset_left_unwritten() {
    use cudalint::verify::protocol::Fill;
    use cudalint::verify::replay::{self, HostReplay};
    let file = Path::new("testdata/bad/uninitialized_device_read_updates.cu");
    let text = std::fs::read_to_string(file).unwrap();
    let outcome = cudalint::engine::lint_text(file, &text, &cudalint::config::Settings::default());
    let histogram = outcome
        .diagnostics
        .iter()
        .find(|d| {
            d.rule == "uninitialized-device-read" && text[..d.span.start].lines().count() == 119
        })
        .expect("the fixture's histogram launch, line 119");
    with_model(file, &text, |model| {
        let Ok(HostReplay::Launch {
            built, position, ..
        }) = replay::plan(model, histogram.rule, &histogram.span)
        else {
            panic!("no launch replay");
        };
        assert_eq!(position, 1, "the bins are replayed");
        let config = &built.experiment.configs[0];
        // the pixels index the 256 bins: unsigned bytes spread over all of them, where the
        // default fill (1 to 8) stays in the quarter the host cleared
        assert!(
            matches!(
                config.arguments[0],
                Argument::Buffer {
                    fill: Fill::Spanning {
                        bytes: 1,
                        limit: 256
                    },
                    ..
                }
            ),
            "{:?}",
            config.arguments[0]
        );
        // the count is no index: it keeps its value
        assert!(!matches!(
            config.arguments[2],
            Argument::Buffer {
                fill: Fill::Spanning { .. },
                ..
            }
        ));
    });
    // keys into an array of structs, whose element size is not known: the default fill, whose
    // small keys stay inside the array
    let accumulate = outcome
        .diagnostics
        .iter()
        .find(|d| {
            d.rule == "uninitialized-device-read" && text[..d.span.start].lines().count() == 121
        })
        .expect("the fixture's accumulate launch, line 121");
    with_model(file, &text, |model| {
        let Ok(HostReplay::Launch { built, .. }) =
            replay::plan(model, accumulate.rule, &accumulate.span)
        else {
            panic!("no launch replay");
        };
        let spread = built.experiment.configs[0].arguments.iter().any(|a| {
            matches!(
                a,
                Argument::Buffer {
                    fill: Fill::Spanning { .. },
                    ..
                }
            )
        });
        assert!(!spread);
    });
}
