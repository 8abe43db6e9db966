#!/usr/bin/env bash
# Export readers: pandas reads every column of `export --format intervals`, `--format goldencheetah` and
# `export --rr DAY` as the type docs/exports.md gives it, with the values the box stored.
# Needs python3-venv (deploy/dev-packages.txt) and PyPI; fails, never skips, when either is missing.
# A few seconds with a warm venv.
. "$(dirname "$0")/preamble.bash"
here=Tests/stages
venv=.build/venv-exports
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
echo "55-export-readers: checking $venv against $here/55-export-readers.requirements.txt" >&2
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/55-export-readers.requirements.txt"
swift build --product recoverydeck-fixture >&2
bin="$(swift build --show-bin-path)"
"$venv/bin/python" "$here/55-export-readers.py" "$bin/recoverydeck-fixture"
