#!/usr/bin/env python3
"""Rebuild the H100 repeat pair's records (2026-11-24) from its committed comparison.

The two results folders of compare.md (beside this script) were not
committed; its table is.  This writes run1/<probe>.json and run2/<probe>.json
with every listed value (6 significant digits, as the table shows them), the
band's spread on the side the table names (the other side none), an unstable
flag where the table says so, a range where it says "ranges overlap", and the
clock readings of its notes (a probe the notes do not name ran at 1980 MHz
before and after).  The atomics' clock before the probe is the one their
Gop/s and op/cycle imply (run A 1980, run B 1844 MHz).

    python3 tests/data/h100-clock/make_records.py tests/data/h100-clock/compare.md tests/data/h100-clock
"""
import json
import os
import re
import sys

# "P, run X: the clock moved during the probe (F0 -> F1 MHz)" in the notes,
# and the atomics' conversion clock of run A (not flagged).
CLOCK = re.compile(r"^- (\w+), run ([AB]): the clock moved during the probe \((\d+) -> (\d+) MHz\)")
ROW = re.compile(r"^\| (\w+) \| `(\w+)` \| (\S+) ([^|]*?) \| (\S+) [^|]*? \| [^|]* \| ([^|]*) \| ([^|]*) \|$")


def main(md, out):
    clocks = {}
    rows = []
    for line in open(md, encoding="utf-8"):
        m = CLOCK.match(line)
        if m:
            clocks[(m.group(1), m.group(2))] = (float(m.group(3)), float(m.group(4)))
            continue
        m = ROW.match(line.rstrip("\n"))
        if m:
            rows.append(m.groups())
    # run B's atomics: 84.9895 Gop/s = 46.0914 op/cycle x 1844 MHz (the table's first atomics pair)
    probes = {}
    for probe, key, a, unit, b, band, verdict in rows:
        probes.setdefault(probe, []).append((key, float(a), unit.strip(), float(b), band.strip(), verdict.strip()))
    for side in ("A", "B"):
        folder = os.path.join(out, "run1" if side == "A" else "run2")
        os.makedirs(folder, exist_ok=True)
        for probe, vals in probes.items():
            before, after = clocks.get((probe, side), (1980.0, 1980.0))
            if probe == "atomics":
                g = next(v for v in vals if v[0] == "global_atomic_uncontended_gops")
                c = next(v for v in vals if v[0] == "global_atomic_uncontended_per_cycle")
                i = 1 if side == "A" else 3
                before = round(1e3 * g[i] / c[i], 1)
            moved = (probe, side) in clocks
            values = []
            for key, va, unit, vb, band, verdict in vals:
                v = {"key": key, "value": va if side == "A" else vb, "unit": unit, "spread": None}
                m = re.match(r"([0-9.e+-]+)% \(spread ([AB])\)", band)
                if m and m.group(2) == side:
                    v["spread"] = float(m.group(1)) / 100
                elif band.endswith("(floor)") and side == "A" and va == int(va) and vb == int(vb):
                    v["spread"] = 0.0  # a stored spread below the floor, or the value would be "exact"
                if band == "ranges overlap" and side == "A":
                    v["range"] = [min(va, vb), max(va, vb)]
                v["detected"] = True
                v["unstable"] = verdict.startswith("unstable") and (not m or m.group(2) == side)
                v["method"] = "rebuilt from tests/data/h100-clock/compare.md"
                v["note"] = ""
                values.append(v)
            clock = lambda f: {"measured_mhz": f, "measured_min_mhz": f, "measured_max_mhz": f,
                               "timer_vs_event": 1.0, "timer_hz": 1e9, "timer_nominal_hz": 1e9,
                               "timer_calibrated": False, "reported_source": "nvml", "reported_mhz": 1980,
                               "other_processes": 0}
            rec = {"probe": probe, "date": "2026-11-24", "gpuprobe_version": "0.3.0",
                   "gpuprobe_build": "", "check": "ok", "quick": False,
                   "device": {"name": "NVIDIA H100 80GB HBM3", "vendor": "NVIDIA", "arch": "sm_90",
                              "pci_bus_id": "0000:00:06.0", "compute_units": 132, "wave_size": 32,
                              "reported_clock_mhz": 1980},
                   "clock": {"before": clock(before), "after": clock(after), "moved": moved},
                   "noise": {"flagged": moved, "clock_moved": moved, "other_processes": 0},
                   "values": values, "series": [], "notes": []}
            text = json.dumps({k: v for k, v in rec.items() if k != "values"}, indent=1)
            lines = ",\n  ".join(json.dumps(v) for v in values)
            text = text[:-2] + ',\n "values": [\n  ' + lines + "\n ]\n}\n"
            with open(os.path.join(folder, probe + ".json"), "w", encoding="utf-8") as f:
                f.write(text)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
