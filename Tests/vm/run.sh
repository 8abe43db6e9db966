#!/usr/bin/env bash
# Boots ONE virtual machine (the installed Debian kernel over the host's root filesystem, virtme-ng,
# software emulation) and runs Bluetooth scenarios inside it against virtual controllers (btvirt).
#
#   Tests/vm/run.sh [--out DIR] [--bin DIR] [--timeout SECONDS] [SCENARIO ...]
#
# SCENARIO is a path or a name under Tests/vm/scenarios (default: every scenarios/*.sh, sorted).
# Results land in DIR (default vm-out/): DIR/<scenario>/{log,rc,figures}, DIR/guest.log, DIR/dmesg.
# Each scenario's result is printed to stderr as soon as the guest writes its rc. The VM's budget is
# the boot allowance plus every scenario's own "# vm-timeout" (default 120 s) and kill grace, so the
# limits add up; --timeout raises it, never lowers it below that sum.
# Exit status: 0 when every scenario wrote rc 0, 1 otherwise. See Tests/vm/README.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/vm-out"
bin=""
vm_timeout=0
# Booting the kernel under TCG and loading hci_vhci, with margin for a loaded machine (~40 s quiet).
boot_allowance=120
scenarios=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --timeout) vm_timeout=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
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

# The guest runs each scenario under its own limit (guest.sh reads the same header, default 120 s) plus
# 5 s of kill grace; the VM gets all of them and the boot, so a slow machine fails a scenario by name
# rather than the whole VM at a sum that could never fit.
budget=$boot_allowance
for s in "${resolved[@]}"; do
    limit=$(sed -n 's/^# vm-timeout: *\([0-9]*\).*/\1/p' "$s" | head -1)
    budget=$((budget + ${limit:-120} + 5))
done
[ "$vm_timeout" -gt "$budget" ] && budget=$vm_timeout

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
printf '%s\n' "${resolved[@]}" > "$out/plan"

failed=0
reported=" "
report() { # NAME: the scenario's result line, its log's tail when it failed, and its figures
    local name=$1 rc secs
    rc=$(cat "$out/$name/rc" 2>/dev/null || true)
    rc=${rc:-missing}
    secs=$(cat "$out/$name/seconds" 2>/dev/null || echo "?")
    if [ "$rc" = 0 ]; then
        echo "ok   $name (${secs} s)" >&2
    else
        echo "FAIL $name (rc $rc, ${secs} s); last lines of $out/$name/log:" >&2
        tail -40 "$out/$name/log" 2>/dev/null | sed 's/^/    /' >&2 || true
        failed=1
    fi
    if [ -s "$out/$name/figures" ]; then sed "s/^/     figure: /" "$out/$name/figures" >&2; fi
    reported+="$name "
}
seen=0
stream() { # follows guest.log: boot, each scenario's start, and its result once the guest has written rc
    [ -f "$out/guest.log" ] || return 0
    local total line name
    total=$(wc -l < "$out/guest.log")
    [ "$total" -gt "$seen" ] || return 0
    while IFS= read -r line; do
        case "$line" in
            "guest: kernel "*) echo "vm: booted, ${line#guest: }" >&2 ;;
            "guest: scenario "*" (limit "*) echo "vm: running ${line#guest: scenario }" >&2 ;;
            "guest: scenario "*" exit "*)
                name=${line#guest: scenario }
                name=${name% exit *}
                [[ "$reported" == *" $name "* ]] || report "$name" ;;
        esac
    done < <(sed -n "$((seen + 1)),${total}p" "$out/guest.log")
    seen=$total
}

echo "vm: booting $(basename "$kernel") for ${#resolved[@]} scenario(s), budget $budget s" \
    "(boot $boot_allowance s + each scenario's vm-timeout + 5 s)" >&2
start=$(date +%s)
set +e
# KVM hangs on these machines; TCG is slower but dependable (DESIGN §5).
timeout --kill-after=15 "$budget" "$vng" --run "$kernel" --disable-microvm --disable-kvm -m 1G \
    --rwdir "$out" --exec "bash $repo/Tests/vm/guest.sh $out $bin $repo" > "$out/console.log" 2>&1 &
vm_pid=$!
# The rwdir is the host's folder: results appear here while the VM runs.
while kill -0 "$vm_pid" 2>/dev/null; do
    stream
    sleep 2
done
wait "$vm_pid"
vm_rc=$?
set -e
end=$(date +%s)
stream
echo "vm: $(basename "$kernel"), $((end - start)) s, exit $vm_rc" >&2
[ $vm_rc -eq 124 ] && echo "vm: timed out after $budget s" >&2

# Scenarios the guest never finished (a timed-out or crashed VM): reported as rc missing.
while read -r s; do
    name=$(basename "$s" .sh)
    [[ "$reported" == *" $name "* ]] || report "$name"
done < "$out/plan"
if [ ! -f "$out/done" ]; then
    echo "vm: the guest did not finish its plan; console tail:" >&2
    tail -30 "$out/console.log" | sed 's/^/    /' >&2
    failed=1
fi
exit $failed
