# Sourced by the VM stages (40-bluetooth-vm, 45-gpio-vm) first thing: the stages' preamble
# (Tests/stages/preamble.bash: $repo, PATH, $stage_start, the Debian packages), then the pinned
# virtme-ng venv the VM needs, builds the three binaries a scenario may run, and sets $bin to their folder.
. "$(dirname "${BASH_SOURCE[0]}")/../stages/preamble.bash"

# virtme-ng, pinned, in its own venv; Debian's python3 (python3-venv) builds it.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
if ! .venv-vm/bin/python -c 'import virtme_ng' 2>/dev/null \
    || ! cmp -s Tests/vm/requirements.txt .venv-vm/requirements.txt; then
    echo "prepare: installing virtme-ng (Tests/vm/requirements.txt) into .venv-vm, about a minute" >&2
    rm -rf .venv-vm
    "$py" -m venv .venv-vm
    .venv-vm/bin/pip install --disable-pip-version-check --progress-bar off -r Tests/vm/requirements.txt |
        { grep -E '^(Collecting|Successfully installed)' >&2 || true; }
    cp Tests/vm/requirements.txt .venv-vm/requirements.txt
fi

echo "prepare: building h10sim, recoverydeck, recoverydeck-fixture, recoverydeckd and recoverydeckd-sim" >&2
swift build --product h10sim >&2
swift build --product recoverydeck >&2
swift build --product recoverydeck-fixture >&2
swift build --product recoverydeckd >&2
swift build --product recoverydeckd-sim >&2
bin=$(swift build --show-bin-path)
