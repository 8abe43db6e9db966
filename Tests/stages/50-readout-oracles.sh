#!/usr/bin/env bash
# Readout oracles: ln rMSSD, its 7-day rolling mean and CV, the 60-day SWC and "k of 7 valid"
# against pandas' rolling windows, in the core and through `recoverydeck history --json` and `lights --try`.
# Needs python3-venv (deploy/dev-packages.txt) and PyPI; fails, never skips, when either is missing.
# About 40 s with a warm venv.
. "$(dirname "$0")/preamble.bash"
here=Tests/stages
venv=.build/venv-readout
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
echo "50-readout-oracles: checking $venv against $here/50-readout-oracles.requirements.txt" >&2
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/50-readout-oracles.requirements.txt"
swift build --product insights-bench >&2
swift build --product recoverydeck-fixture >&2
bin="$(swift build --show-bin-path)"
"$venv/bin/python" "$here/50-readout-oracles.py" "$bin/insights-bench" "$bin/recoverydeck-fixture"
