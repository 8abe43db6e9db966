#!/usr/bin/env bash
# recoverydeckd end to end over the real kernel Bluetooth stack in a VM (the Bluetooth stage's harness,
# Tests/vm/run.sh): the simulated panel, h10sim replaying an RR file; one full real-time morning whose
# stored metrics are recomputed from the file, and a drop-out while standing that ends in a resumed,
# complete morning (Tests/stages/daemon/vm-morning.sh). Installs what it needs; about 7 minutes.
set -euo pipefail
. "$(dirname "$0")/../vm/prepare.sh"
set +e
Tests/vm/run.sh --out "$repo/vm-out/daemon" --bin "$bin" --timeout 600 "$repo/Tests/stages/daemon/vm-morning.sh"
rc=$?
set -e
echo "62-daemon-vm: $(( $(date +%s) - stage_start )) s, results in vm-out/daemon/" >&2
exit $rc
