#!/bin/bash
# rdcheck.service: mounts the host's result folder (9p) and runs this boot's checks into it.
out=/run/rdout
mkdir -p $out
mount -t 9p -o trans=virtio,version=9p2000.L rdout $out || { echo "rdcheck: no result folder"; exit 1; }
boot=$(sed -n 's/.*rdcheck.boot=\([0-9]*\).*/\1/p' /proc/cmdline)
dir=$out/boot$boot
mkdir -p "$dir"
bash /usr/local/lib/rdcheck/guest-boot$boot.sh "$dir" > "$dir/log" 2>&1
echo $? > "$dir/rc"
journalctl -b --no-pager -o short-monotonic > "$dir/journal.txt" 2>&1
sync
touch "$dir/done"
