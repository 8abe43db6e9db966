#!/usr/bin/env bash
# recoverydeckd end to end over the real kernel Bluetooth stack in a VM (the Bluetooth stage's harness,
# Tests/vm/run.sh): the simulated panel, h10sim replaying an RR file; one full real-time morning whose
# stored metrics are recomputed from the file, and a drop-out while standing that ends in a resumed,
# complete morning (Tests/stages/daemon/vm-morning.sh). Installs what it needs; about 7 minutes.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
export PATH="/opt/swift/usr/bin:$PATH"
stage_start=$(date +%s)
deploy/dev-setup --tests
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
set +e
Tests/vm/run.sh --out "$repo/vm-out/daemon" --bin "$bin" --timeout 600 "$repo/Tests/stages/daemon/vm-morning.sh"
rc=$?
set -e
echo "62-daemon-vm: $(( $(date +%s) - stage_start )) s, results in vm-out/daemon/" >&2
exit $rc
