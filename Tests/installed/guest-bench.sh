#!/bin/bash
# The bench (rdcheck-bench.service): gpio-sim as the Pi 4's chip (pinctrl-bcm2711, 58 lines, GO released),
# and on the first boot /var/lib/recoverydeck on its own disk behind dm-log-writes, so that every write the
# box makes is logged in order with its flushes (guest-powercuts.sh replays them).
set -euo pipefail
bench=/usr/local/lib/rdcheck
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
# x86: the module beside the bench; another machine's image carries it for each of its kernels (Tests/arm64box).
if [ -f $bench/recoverydeck-gpio-sim.ko ]; then insmod $bench/recoverydeck-gpio-sim.ko; else modprobe recoverydeck-gpio-sim; fi
dev=/sys/kernel/config/gpio-sim/pi4
mkdir "$dev" "$dev/bank0"
echo pinctrl-bcm2711 > "$dev/bank0/label"
echo 58 > "$dev/bank0/num_lines"
echo 1 > "$dev/live"
chip=/sys/devices/platform/$(cat "$dev/dev_name")/$(cat "$dev/bank0/chip_name")
echo pull-up > "$chip/sim_gpio17/pull"
echo "$chip" > /run/rdcheck-chip
udevadm settle
if grep -q 'rdcheck.boot=1' /proc/cmdline && ! grep -q 'rdcheck.scope=box' /proc/cmdline; then
    modprobe dm-log-writes
    dmsetup create rdstate --table "0 $(blockdev --getsz /dev/vdb) log-writes /dev/vdb /dev/vdc"
    mkfs.ext4 -q -L rdstate -E lazy_itable_init=0,lazy_journal_init=0,nodiscard /dev/mapper/rdstate
    mount /dev/mapper/rdstate /var/lib/recoverydeck
    chown recoverydeck:recoverydeck /var/lib/recoverydeck
    chmod 2770 /var/lib/recoverydeck
    sync
    dmsetup message rdstate 0 mark bench-ready
fi
