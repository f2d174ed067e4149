"""Independent cross-check of gpuprobe's P2P copy-engine matrix: PyTorch's
device-to-device copy (cudaMemcpyPeerAsync underneath when peer access is
on, staged through the host otherwise), 256 MiB, CUDA events on the source's
stream, median and range of 20 repeats after 3 warm-ups; both directions at
once with one stream per source.  Prints one line per pair; no file."""
import statistics
import time

import torch

BYTES = 256 << 20
REPS = 20


def one_way(src, dst):
    a = torch.empty(BYTES, dtype=torch.uint8, device=f"cuda:{src}").fill_(1)
    b = torch.empty(BYTES, dtype=torch.uint8, device=f"cuda:{dst}")
    t = []
    with torch.cuda.device(src):
        for i in range(REPS + 3):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            b.copy_(a, non_blocking=True)
            e1.record()
            e1.synchronize()
            if i >= 3:
                t.append(BYTES / (e0.elapsed_time(e1) * 1e6))
    return t


def both_ways(x, y):
    a = [torch.empty(BYTES, dtype=torch.uint8, device=f"cuda:{d}").fill_(1) for d in (x, y)]
    b = [torch.empty(BYTES, dtype=torch.uint8, device=f"cuda:{d}") for d in (y, x)]
    s = [torch.cuda.Stream(device=d) for d in (x, y)]
    t = []
    for i in range(REPS + 3):
        torch.cuda.synchronize(x), torch.cuda.synchronize(y)
        t0 = time.perf_counter()
        for k in range(2):
            with torch.cuda.stream(s[k]):
                b[k].copy_(a[k], non_blocking=True)
        s[0].synchronize(), s[1].synchronize()
        if i >= 3:
            t.append(2 * BYTES / ((time.perf_counter() - t0) * 1e9))
    return t


n = torch.cuda.device_count()
print(f"torch {torch.__version__}, {n} GPUs, {BYTES >> 20} MiB, median (min-max) of {REPS}, GB/s")
for i in range(n):
    for j in range(n):
        if i != j:
            t = one_way(i, j)
            print(f"copy {i} -> {j}: {statistics.median(t):.1f} ({min(t):.1f}-{max(t):.1f}) "
                  f"peer access {torch.cuda.can_device_access_peer(j, i)}")
for i in range(n):
    for j in range(i + 1, n):
        t = both_ways(i, j)
        print(f"both ways {i} <-> {j}: {statistics.median(t):.1f} ({min(t):.1f}-{max(t):.1f})")
