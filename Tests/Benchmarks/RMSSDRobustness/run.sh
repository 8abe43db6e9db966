#!/usr/bin/env bash
# rMSSD robustness benchmark (docs/artifacts.md): seeded artifacts in pyhrv's real RR series, our
# rMSSD beside the old rule, hrv-analysis, NeuroKit2 and (--runs) systole, 20 seeds per rate. Prints a table; asserts no timing.
#   Tests/Benchmarks/RMSSDRobustness/run.sh [--seeds N] [--side-by-side | --runs | --neighbours | --refusals]
# --runs: artifacts that touch and come in runs, the table of docs/artifacts.md "Runs and clusters, measured".
# --neighbours: on the same injected runs, how far one genuine beat beside an artifact, set aside, moves the oracle.
# --refusals: --runs' refusals taken apart: forced by over 20 % injected artifacts, or whose, and which beats.
# Needs what Tests/stages/10-hrv-oracles.sh needs (python3-venv, build-essential, python3-dev); makes
# .venv-hrv-pyhrv (pyhrv's sample files) and .venv-hrv-bench (the peers) at the pinned closures.
set -euo pipefail
cd "$(dirname "$0")/../../.."
export PATH="/opt/swift/usr/bin:$PATH"
here=Tests/Benchmarks/RMSSDRobustness

. Tests/stages/hrv-oracles/venv.sh
venv .venv-hrv-pyhrv Tests/stages/hrv-oracles/requirements-pyhrv.txt
venv .venv-hrv-bench "$here/requirements.txt"
venv .venv-hrv-systole "$here/requirements-systole.txt"

swift build -c release --product hrv-dump >/dev/null
dump="$(swift build -c release --show-bin-path)/hrv-dump"
samples=$(.venv-hrv-pyhrv/bin/python -c \
    'import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec("pyhrv").origin), "files"))')
.venv-hrv-bench/bin/python "$here/robustness.py" --dump "$dump" --samples "$samples" --peers \
    --systole .venv-hrv-systole/bin/python --seeds 20 "$@"
