#!/usr/bin/env bash
# Insights oracles: BH q-values against statsmodels' fdr_bh, τ_int against emcee, Pearson against numpy, the
# effective number of days on series with missing days against a numpy implementation.
# Needs python3-venv (deploy/dev-packages.txt) and PyPI; about 1 minute with a warm venv, 2–3 cold.
. "$(dirname "$0")/preamble.bash"
here=Tests/stages
venv=.venv-insights
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
echo "50-insights-oracles: checking $venv against $here/50-insights-oracles.requirements.txt (1–2 min when cold)" >&2
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/50-insights-oracles.requirements.txt"
swift build --product insights-bench >&2
"$venv/bin/python" "$here/50-insights-oracles.py" "$(swift build --show-bin-path)/insights-bench"
