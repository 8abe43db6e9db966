#!/usr/bin/env bash
# The real-kernel Bluetooth test (DESIGN §5 "Testing against the real kernel stack"): builds h10sim
# and recoverydeck, boots one VM with virtual controllers and runs every scenario in Tests/vm/scenarios
# (virtual strap on one controller, the box's client on another). Installs what it needs; never
# skips; exits non-zero when any scenario fails. Each scenario's result is printed as it finishes.
# The daemon's own mornings over the same stack (80-daemon-morning: a real-time one, a drop-out while
# standing) run in this VM too, so one boot serves every Bluetooth check: 795 s on a 2-core machine, the
# daemon's mornings 275 s of it, nearly all of it the VM (see Tests/vm/README.md for adding a scenario).
. "$(dirname "$0")/../vm/prepare.sh"

set +e
Tests/vm/run.sh --out "$repo/vm-out" --bin "$bin"
rc=$?
set -e
echo "40-bluetooth-vm: $(( $(date +%s) - stage_start )) s, results in vm-out/" >&2
exit $rc
