#!/usr/bin/env bash
# The insights scan benchmark of issue "habit findings": the engine's family step (one association test per pair
# of AR(1) series at rho 0.7, n 365, B 2000 resamples, then BH) against the numpy implementation of the same
# algorithm (Tests/Benchmarks/insights_numpy.py), in the same job, on this machine's cores.
#   Tests/Benchmarks/InsightsBench/run.sh [REPEATS]
# Prints the load average, each side's median of REPEATS (default 5; 3 for the 2000-test numpy side) and the
# ratios. Needs the oracle venv of Tests/stages/50-insights-oracles.sh (numpy pinned there); ~5 minutes.
set -euo pipefail
cd "$(dirname "$0")/../../.."
export PATH="/opt/swift/usr/bin:$PATH"
repeats="${1:-5}"
venv=.venv-insights
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
"$venv/bin/pip" install -q --disable-pip-version-check -r Tests/stages/50-insights-oracles.requirements.txt
swift build -c release --product insights-bench >&2
bench="$(swift build -c release --show-bin-path)/insights-bench"
echo "cores: $(nproc); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() { # tests repeats-for-numpy
    local swift_line numpy_line
    swift_line="$("$bench" scan --tests "$1" --n 365 --resamples 2000 --repeat "$repeats" --threads both)"
    numpy_line="$("$venv/bin/python" Tests/Benchmarks/insights_numpy.py "$1" 365 2000 "$2")"
    echo "$swift_line"
    echo "$numpy_line"
    python3 - "$swift_line" "$numpy_line" <<'PY'
import re, sys
swift, numpy = sys.argv[1], sys.argv[2]
med = lambda line: float(re.search(r"median of \d+ ([0-9.]+) s", line).group(1))
numpy_s = med(numpy)
for line in swift.splitlines():
    name = re.search(r"B=\d+, ([^:]+):", line).group(1)
    print(f"  ratio numpy / swift ({name}): {numpy_s / med(line):.1f}x")
PY
}
run 120 "$repeats"
run 2000 3
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
