#!/usr/bin/env python3
"""Library baselines for the examples, measured on the GPU machine.

Prints one JSON line per baseline: cuBLAS SGEMM (through PyTorch, TF32 off,
so it is true FP32) at 4096^3, and device-to-device copy bandwidth (bytes
read + written) for a 256 MiB buffer. Timing: CUDA events around each call
after warm-up, median of 50 repetitions. Used to put OptiML's results in
context (issue 4: naive SGEMM vs cuBLAS, transpose/elementwise vs copy).
"""
import json
import statistics

import torch


def median_ms(fn, reps=50, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), (max(times) - min(times)) / statistics.median(times)


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(1)
    n = 4096
    a = torch.rand(n, n, device="cuda", generator=gen) * 2 - 1
    b = torch.rand(n, n, device="cuda", generator=gen) * 2 - 1
    c = torch.empty(n, n, device="cuda")
    ms, spread = median_ms(lambda: torch.mm(a, b, out=c))
    print(json.dumps({"baseline": "cublas_sgemm_4096", "median_ms": ms,
                      "range_rel": spread, "tflops": 2 * n**3 / ms / 1e9}))

    count = 64 * 1024 * 1024  # floats: 256 MiB
    src = torch.rand(count, device="cuda", generator=gen)
    dst = torch.empty_like(src)
    ms, spread = median_ms(lambda: dst.copy_(src))
    print(json.dumps({"baseline": "d2d_copy_256MiB", "median_ms": ms,
                      "range_rel": spread,
                      "gb_per_s": 2 * count * 4 / ms / 1e6}))
    print(json.dumps({"device": torch.cuda.get_device_name(0)}))


if __name__ == "__main__":
    main()
