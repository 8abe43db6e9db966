#!/usr/bin/env bash
# The real-kernel Bluetooth test (DESIGN §5 "Testing against the real kernel stack"): builds h10sim
# and recoverydeck, boots one VM with virtual controllers and runs every scenario in Tests/vm/scenarios
# (virtual strap on one controller, the box's client on another). Installs what it needs; never
# skips; exits non-zero when any scenario fails. Each scenario's result is printed as it finishes.
# 6.5–9 minutes on a 2-core machine once the packages are installed (553 s at a load of 15), nearly all
# of it the VM, plus about 265 s for the connection-parameter and drop-during-discovery scenarios
# (see Tests/vm/README.md for adding a scenario).
set -euo pipefail
. "$(dirname "$0")/../vm/prepare.sh"

set +e
Tests/vm/run.sh --out "$repo/vm-out" --bin "$bin"
rc=$?
set -e
echo "40-bluetooth-vm: $(( $(date +%s) - stage_start )) s, results in vm-out/" >&2
exit $rc
