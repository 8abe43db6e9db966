#!/usr/bin/env bash
# HRV oracles (RecoveryDeck spec §5.1, DESIGN §6): RecoveryCore's SDNN, mean RR and mean HR on the RR list its
# artifact filter accepted, against pyhrv 0.5.0 and hrv-analysis 1.0.6, to 1e-6 relative, on pyhrv's bundled
# SampleNNISeriesShort/Long and seeded synthetic mornings; rMSSD (adjacent pairs) against the libraries where
# nothing was rejected, and against numpy's adjacent-pair rule where beats were. Then the robustness aim on
# seeded artifacts (Tests/Benchmarks/RMSSDRobustness, ours only, 8 seeds): against the oracle that knows the
# injected beats, the mean within -2.5...+1.5 points and no seed beyond 6 points at 1 in 50, 25 and 12. The two
# libraries need incompatible nolds versions, so each has its own venv.
# Takes ~1.5 min from nothing (venv installs), ~15 s once the venvs exist.
# Needs (deploy/dev-packages.txt): python3, python3-venv, python3-pip, python3-dev and build-essential (pyhrv's
# dependency spectrum builds a C extension).
. "$(dirname "$0")/preamble.bash"
here=Tests/stages/hrv-oracles

. Tests/stages/hrv-oracles/venv.sh
venv .venv-hrv-pyhrv "$here/requirements-pyhrv.txt"
venv .venv-hrv-analysis "$here/requirements-hrv-analysis.txt"

swift build --product hrv-dump >/dev/null
dump="$(swift build --show-bin-path)/hrv-dump"
# pyhrv's sample files, found without importing pyhrv (find_spec does not run the package).
samples=$(.venv-hrv-pyhrv/bin/python -c \
    'import importlib.util, os; print(os.path.join(os.path.dirname(importlib.util.find_spec("pyhrv").origin), "files"))')

.venv-hrv-pyhrv/bin/python "$here/oracle.py" --library pyhrv --dump "$dump" --samples "$samples"
.venv-hrv-analysis/bin/python "$here/oracle.py" --library hrv-analysis --dump "$dump" --samples "$samples"

# The robustness aim (an accuracy assertion, not a timing one): seeded, so it gives the same table every run.
.venv-hrv-analysis/bin/python Tests/Benchmarks/RMSSDRobustness/robustness.py --dump "$dump" --samples "$samples" \
    --seeds 8 --assert-aim
