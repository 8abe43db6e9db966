#!/usr/bin/env bash
# Runs inside the VM (as root, over the host's read-only root filesystem): loads the virtual HCI
# driver, then runs each scenario of the plan in its own process group with fresh controllers.
#   guest.sh OUT BIN REPO   (OUT is the read-write folder shared with the host)
set -u
out=$1 bin=$2 repo=$3
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
exec > "$out/guest.log" 2>&1
echo "guest: kernel $(uname -r), $(nproc) cpus"
modprobe hci_vhci || { echo "guest: modprobe hci_vhci failed"; touch "$out/done"; exit 1; }

while read -r scenario; do
    name=$(basename "$scenario" .sh)
    dir="$out/$name"
    mkdir -p "$dir"
    limit=$(sed -n 's/^# vm-timeout: *\([0-9]*\).*/\1/p' "$scenario" | head -1)
    limit=${limit:-120}
    echo "guest: scenario $name (limit $limit s)"
    start=$(date +%s)
    # setsid: the scenario and everything it starts share one process group, ended afterwards.
    SCENARIO_OUT=$dir BIN=$bin REPO=$repo VM_LIB=$repo/Tests/vm/lib.sh \
        setsid timeout --kill-after=5 "$limit" bash "$scenario" < /dev/null > "$dir/log" 2>&1 &
    pid=$!
    wait $pid
    rc=$?
    kill -KILL -- -$pid 2>/dev/null
    [ $rc = 124 ] && echo "scenario timed out after $limit s" >> "$dir/log"
    echo $(( $(date +%s) - start )) > "$dir/seconds"
    echo $rc > "$dir/rc"
    echo "guest: scenario $name exit $rc"
done < "$out/plan"
dmesg > "$out/dmesg" 2>&1
touch "$out/done"
