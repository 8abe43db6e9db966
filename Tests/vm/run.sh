#!/usr/bin/env bash
# Boots ONE virtual machine (the installed Debian kernel over the host's root filesystem, virtme-ng,
# software emulation) and runs Bluetooth scenarios inside it against virtual controllers (btvirt).
#
#   Tests/vm/run.sh [--out DIR] [--bin DIR] [--timeout SECONDS] [SCENARIO ...]
#
# SCENARIO is a path or a name under Tests/vm/scenarios (default: every scenarios/*.sh, sorted).
# Results land in DIR (default vm-out/): DIR/<scenario>/{log,rc,figures}, DIR/guest.log, DIR/dmesg.
# Exit status: 0 when every scenario wrote rc 0, 1 otherwise. See Tests/vm/README.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/vm-out"
bin=""
vm_timeout=540
scenarios=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --timeout) vm_timeout=$2; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 64 ;;
        *) scenarios+=("$1"); shift ;;
    esac
done
[ -n "$bin" ] || bin="$repo/.build/debug"
bin=$(cd "$bin" && pwd)
if [ ${#scenarios[@]} -eq 0 ]; then
    for s in "$repo"/Tests/vm/scenarios/*.sh; do scenarios+=("$s"); done
fi
resolved=()
for s in "${scenarios[@]}"; do
    if [ -f "$s" ]; then resolved+=("$(cd "$(dirname "$s")" && pwd)/$(basename "$s")")
    elif [ -f "$repo/Tests/vm/scenarios/$s" ]; then resolved+=("$repo/Tests/vm/scenarios/$s")
    elif [ -f "$repo/Tests/vm/scenarios/$s.sh" ]; then resolved+=("$repo/Tests/vm/scenarios/$s.sh")
    else echo "run.sh: no scenario $s" >&2; exit 64; fi
done

vng=""
for candidate in "$repo/.venv-vm/bin/vng" "$(command -v vng || true)"; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && { vng=$candidate; break; }
done
[ -n "$vng" ] || { echo "run.sh: virtme-ng is missing; run Tests/stages/40-bluetooth-vm.sh (it installs .venv-vm)" >&2; exit 1; }
# vng calls its sibling scripts (virtme-run) through PATH.
export PATH="$(dirname "$vng"):$PATH"

kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -1 || true)
[ -n "$kernel" ] || { echo "run.sh: no kernel in /boot; install linux-image-amd64" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
printf '%s\n' "${resolved[@]}" > "$out/plan"

start=$(date +%s)
set +e
# KVM hangs on these machines; TCG is slower but dependable (DESIGN §5).
timeout --kill-after=15 "$vm_timeout" "$vng" --run "$kernel" --disable-microvm --disable-kvm -m 1G \
    --rwdir "$out" --exec "bash $repo/Tests/vm/guest.sh $out $bin $repo" > "$out/console.log" 2>&1
vm_rc=$?
set -e
end=$(date +%s)
echo "vm: $(basename "$kernel"), $((end - start)) s, exit $vm_rc" >&2
[ $vm_rc -eq 124 ] && echo "vm: timed out after $vm_timeout s" >&2

failed=0
while read -r s; do
    name=$(basename "$s" .sh)
    rc=$(cat "$out/$name/rc" 2>/dev/null || echo "missing")
    secs=$(cat "$out/$name/seconds" 2>/dev/null || echo "?")
    if [ "$rc" = 0 ]; then
        echo "ok   $name (${secs} s)" >&2
    else
        echo "FAIL $name (rc $rc, ${secs} s); last lines of $out/$name/log:" >&2
        tail -40 "$out/$name/log" 2>/dev/null | sed 's/^/    /' >&2 || true
        failed=1
    fi
    if [ -s "$out/$name/figures" ]; then sed "s/^/     figure: /" "$out/$name/figures" >&2; fi
done < "$out/plan"
if [ ! -f "$out/done" ]; then
    echo "vm: the guest did not finish its plan; console tail:" >&2
    tail -30 "$out/console.log" | sed 's/^/    /' >&2
    failed=1
fi
exit $failed
