# Sourced by the VM stages (40-bluetooth-vm, 62-daemon-vm): installs the Debian packages and the pinned
# virtme-ng venv the VM needs, builds the three binaries a scenario may run, and sets $bin to their folder.
# Expects to run from the repository root with the Swift toolchain on PATH.
deploy/dev-setup --tests

# virtme-ng, pinned, in its own venv; Debian's python3 (python3-venv) builds it.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
if ! .venv-vm/bin/python -c 'import virtme_ng' 2>/dev/null \
    || ! cmp -s Tests/vm/requirements.txt .venv-vm/requirements.txt; then
    rm -rf .venv-vm
    "$py" -m venv .venv-vm
    .venv-vm/bin/pip install --quiet --disable-pip-version-check -r Tests/vm/requirements.txt
    cp Tests/vm/requirements.txt .venv-vm/requirements.txt
fi

swift build --product h10sim
swift build --product recoverydeck
swift build --product recoverydeckd
bin=$(swift build --show-bin-path)
