use super::support::variable_name;
use crate::lint::LintContext;
use crate::model::host::Memory;
use crate::model::Model;

crate::declare_lint!(
    CROSS_DEVICE_POINTER,
    "cross-device-pointer",
    Memory,
    Warning,
    "buffer allocated on one GPU used by a launch on another without peer access",
    check
);

fn check(model: &Model, cx: &mut LintContext) {
    for host in &model.host.functions {
        if host.peer_access {
            continue;
        }
        for launch in &host.launches {
            let Some(launch_device) = launch.device else {
                continue;
            };
            for (position, pointer) in launch.pointer_arguments.iter().enumerate() {
                let Some(pointer) = pointer else { continue };
                let Some(event) = host.event_at(pointer.variable, launch.call) else {
                    continue;
                };
                let Some(allocation) = host.reaching_allocation(pointer.variable, event) else {
                    continue;
                };
                if allocation.memory != Memory::Device {
                    continue;
                }
                let Some(allocation_device) = host
                    .event_at(pointer.variable, allocation.call)
                    .and_then(|e| e.device)
                else {
                    continue;
                };
                if allocation_device == launch_device {
                    continue;
                }
                let name = variable_name(host, pointer.variable);
                cx.report(
                    cx.diagnostic(launch.arguments[position].byte_range(), format!("`{name}` lives on device {allocation_device}, but `{}` runs on device {launch_device} with no peer access enabled, so the kernel faults on an illegal address", launch.kernel))
                        .with_label(allocation.call.byte_range(), format!("`{name}` allocated while device {allocation_device} was current"))
                        .with_help(format!("copy `{name}` to device {launch_device} (cudaMemcpyPeer), or call cudaDeviceEnablePeerAccess({allocation_device}, 0) on device {launch_device} first")),
                );
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CROSS_DEVICE_POINTER;
    use crate::testing::assert_cases;

    const KERNEL: &str = "__global__ void k(float* out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = 1; }\n";

    #[test]
    fn cases() {
        let pass = [
            "void f(int n) { float* d; cudaSetDevice(0); cudaMalloc(&d, n * 4); k<<<1, 1>>>(d, n); }",
            "void f(int n) { float* d; cudaSetDevice(0); cudaMalloc(&d, n * 4); cudaSetDevice(1); cudaDeviceEnablePeerAccess(0, 0); k<<<1, 1>>>(d, n); }",
            "void f(int n, int g) { float* d; cudaSetDevice(0); cudaMalloc(&d, n * 4); cudaSetDevice(g); k<<<1, 1>>>(d, n); }",
            // copies between two devices' buffers work without peer access (the runtime stages them)
            "void f(int n) { float *a, *b; cudaSetDevice(0); cudaMalloc(&a, n * 4); cudaSetDevice(1); cudaMalloc(&b, n * 4); cudaMemcpy(b, a, n * 4, cudaMemcpyDeviceToDevice); cudaMemcpy2D(b, 64, a, 64, 64, n / 64, cudaMemcpyDeviceToDevice); }",
        ];
        let fail = ["void f(int n) { float* d; cudaSetDevice(0); cudaMalloc(&d, n * 4); cudaSetDevice(1); k<<<1, 1>>>(d, n); }"];
        let pass: Vec<String> = pass.iter().map(|c| format!("{KERNEL}{c}")).collect();
        let fail: Vec<String> = fail.iter().map(|c| format!("{KERNEL}{c}")).collect();
        assert_cases(
            &CROSS_DEVICE_POINTER,
            &pass.iter().map(String::as_str).collect::<Vec<_>>(),
            &fail.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}
