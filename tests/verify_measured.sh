#!/usr/bin/env bash
# kernels.<k>.measured: verify a kernel under the table this device's
# microbench run measured (RESULTS/table.txt); skip (77) until one exists.
# Arguments after KERNEL go to verify (--quick).
set -u
gpuprobe=$1 results=$2 kernel=$3
shift 3
if [ ! -f "$results/table.txt" ]; then
    echo "no measured table at $results/table.txt yet (run ctest -L microbench first): skipped"
    exit 77
fi
exec "$gpuprobe" verify "$kernel" --table "$results/table.txt" "$@"
