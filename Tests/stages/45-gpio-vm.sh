#!/usr/bin/env bash
# recoverydeckd on real kernel GPIO lines in a VM: gpio-sim, built here out of tree from Debian's
# linux-source-6.1 against the VM kernel's headers with the keypad-matrix patch (Tests/stages/gpio/), two chips
# with the Raspberry Pi 4 and Pi 5 labels, a real-time morning on each, every lamp and buzzer edge timed by
# ftrace and held to the light table (Tests/stages/gpio/kernel-gpio.sh); then the refusals on lines it cannot
# have (Tests/stages/gpio/faults.sh); then both again with the daemon linked against libgpiod v2
# (kernel-gpio-v2.sh, faults-v2.sh). One VM boot; about 9 minutes.
set -euo pipefail
. "$(dirname "$0")/../vm/prepare.sh"
kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -1 || true)
[ -n "$kernel" ] || { echo "45-gpio-vm: no kernel in /boot; install linux-image-amd64" >&2; exit 1; }
Tests/stages/gpio/build-gpio-sim.sh "$kernel" "$repo/.build/gpio-sim"
echo "45-gpio-vm: module ready after $(( $(date +%s) - stage_start )) s" >&2
# The same daemon linked against libgpiod v2 (built from its pinned sources): the Swift objects are the same
# for both APIs, only the shim's object and the library differ (Tests/stages/gpiod/link-v2.py).
Tests/stages/gpiod/build-v2.sh "$repo/.build/gpiod-v2"
Tests/stages/gpiod/link-v2.py "$bin" "$repo/.build/gpiod-v2" "$repo/.build/gpiod-v2/recoverydeckd-sim"
set +e
Tests/vm/run.sh --out "$repo/vm-out/gpio" --bin "$bin" \
    "$repo/Tests/stages/gpio/kernel-gpio.sh" "$repo/Tests/stages/gpio/faults.sh" \
    "$repo/Tests/stages/gpio/kernel-gpio-v2.sh" "$repo/Tests/stages/gpio/faults-v2.sh"
rc=$?
set -e
echo "45-gpio-vm: $(( $(date +%s) - stage_start )) s, results in vm-out/gpio/" >&2
exit $rc
