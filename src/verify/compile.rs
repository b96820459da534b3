//! NVRTC compilation for the worker: straight to the device's machine code (a CUBIN, so loading a
//! module costs no JIT), as cheaply as NVRTC allows.
//!
//! Two things dominate NVRTC's time on the small programs `--verify` builds:
//! - the headers NVRTC includes implicitly (the device runtime API): `-minimal` leaves them out,
//!   which takes a small kernel from about 13 ms to 8 ms; a program that needs them (textures,
//!   device-side launches) is compiled again without `-minimal`;
//! - <cooperative_groups.h>, which by default pulls in libcu++ (`cuda/std/type_traits`,
//!   `cuda/atomic`): 0.8 to 1.4 s of NVRTC's front end. `_CG_LIMIT_INCLUDED_DEPENDENCIES`, the
//!   header's own switch, makes it use its internal type traits instead: 45 ms for a file of
//!   eight kernels. The few APIs that need libcu++ atomics then fail to compile, and the program
//!   is compiled again with the full header.
//!
//! Programs with toolkit headers put them first and are compiled with `--pch`, so a worker parses
//! them once and later programs with the same headers start from the precompiled state. NVRTC's
//! precompiled headers live in a heap of the loading process (warning 20282: a PCH file only fits
//! "the same dynamic instance of the NVRTC library"), so they cannot be kept across runs.

use cudarc::nvrtc::{result as nvrtc, sys as nvrtc_sys};

/// Extra NVRTC options, split at whitespace (`-DTILE=32`, `--time=nvrtc-times.csv`).
pub const OPTIONS_VARIABLE: &str = "CUDALINT_NVRTC_OPTIONS";

pub struct Compiler {
    base_options: Vec<String>,
    nvrtc_version: (i32, i32),
}

impl Compiler {
    pub fn new(arch: &str, include_paths: &[String]) -> Compiler {
        let mut base_options = vec![
            format!("--gpu-architecture={arch}"),
            "-std=c++17".to_string(),
            // Member functions of the file's structs and helpers written without a qualifier
            // compile for the device, as nvcc accepts them in constant expressions; the
            // experiment holds no host code for them to be meant for.
            "--device-as-default-execution-space".to_string(),
        ];
        base_options.extend(include_paths.iter().map(|p| format!("--include-path={p}")));
        if let Ok(extra) = std::env::var(OPTIONS_VARIABLE) {
            base_options.extend(extra.split_whitespace().map(str::to_string));
        }
        Compiler {
            base_options,
            nvrtc_version: nvrtc_version(),
        }
    }

    /// NVRTC's version and options, for the report.
    pub fn describe(&self) -> String {
        let (major, minor) = self.nvrtc_version;
        format!(
            "NVRTC {major}.{minor}, {} -minimal -D_CG_LIMIT_INCLUDED_DEPENDENCIES (--pch with headers; without the last three when that fails)",
            self.base_options.join(" ")
        )
    }

    /// Compiles `source` to a CUBIN with the file's own `options` (a `-std=` replaces the
    /// default); the error is NVRTC's log.
    pub fn compile(&self, source: &str, options: &[String]) -> Result<Vec<u8>, String> {
        let mut base = self.base_options.clone();
        for option in options {
            if option.starts_with("-std=") {
                base.retain(|o| !o.starts_with("-std="));
            }
            base.push(option.clone());
        }
        let mut fast = base.clone();
        fast.push("-minimal".into());
        fast.push("-D_CG_LIMIT_INCLUDED_DEPENDENCIES".into());
        let includes_headers = source.trim_start().starts_with("#include");
        if includes_headers {
            fast.push("--pch".into());
        }
        compile_cubin(source, &fast).or_else(|first_log| {
            // The full language (implicit runtime headers, libcu++ in cooperative groups): the
            // reference compile, whose log is the one worth showing.
            compile_cubin(source, &base).map_err(|log| if log.is_empty() { first_log } else { log })
        })
    }
}

fn nvrtc_version() -> (i32, i32) {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: writes two ints; the library is loaded (the worker checked it).
    let _ = unsafe { nvrtc_sys::nvrtcVersion(&mut major, &mut minor) };
    (major, minor)
}

fn compile_cubin(source: &str, options: &[String]) -> Result<Vec<u8>, String> {
    let source =
        std::ffi::CString::new(source).map_err(|_| "the source holds a NUL byte".to_string())?;
    let name = c"cudalint_verify.cu";
    let program = nvrtc::create_program(&source, Some(name)).map_err(|e| format!("{e:?}"))?;
    // SAFETY: `program` is live until destroy_program below; the buffers are sized as NVRTC says.
    let outcome = unsafe {
        match nvrtc::compile_program(program, options) {
            Err(_) => {
                let log = nvrtc::get_program_log(program)
                    .map(|l| {
                        l.iter()
                            .map(|c| *c as u8)
                            .take_while(|b| *b != 0)
                            .collect::<Vec<u8>>()
                    })
                    .unwrap_or_default();
                Err(String::from_utf8_lossy(&log).into_owned())
            }
            Ok(()) => {
                let mut size = 0usize;
                if nvrtc_sys::nvrtcGetCUBINSize(program, &mut size)
                    != nvrtc_sys::nvrtcResult::NVRTC_SUCCESS
                {
                    Err("NVRTC produced no CUBIN".to_string())
                } else {
                    let mut image = vec![0u8; size];
                    if nvrtc_sys::nvrtcGetCUBIN(program, image.as_mut_ptr().cast())
                        != nvrtc_sys::nvrtcResult::NVRTC_SUCCESS
                    {
                        Err("NVRTC produced no CUBIN".to_string())
                    } else {
                        Ok(image)
                    }
                }
            }
        }
    };
    // SAFETY: destroyed once, after its last use.
    let _ = unsafe { nvrtc::destroy_program(program) };
    outcome
}
