# Helpers for the installed box's guest checks (sourced by guest-boot*.sh, which run as root under systemd).
#   OUT: this boot's result folder on the host (9p)
set -euo pipefail
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
bench=/usr/local/lib/rdcheck
OUT=$1
cd "$OUT"
# all: every check of the boot; box: the box's own checks alone (another machine's box, Tests/arm64box).
scope=$(sed -n 's/.*rdcheck.scope=\([a-z]*\).*/\1/p' /proc/cmdline)
scope=${scope:-all}
t0=$(date +%s)
say() { echo "[$(date +%T) +$(( $(date +%s) - t0 )) s] $*"; }
fail() { say "FAIL: $*"; exit 1; }
ok() { say "ok: $*"; echo "ok: $*" >> "$OUT/results"; }
figure() { echo "$*" >> "$OUT/figures"; say "figure: $*"; }
# as PERSON COMMAND...: what that person types over SSH (a login session: their groups, their environment).
as() { local who=$1; shift; ssh -i /root/.ssh/id_ed25519 "$who@localhost" "$@"; }
unit_prop() { systemctl show recoverydeckd -p "$1" --value; }
main_pid() { unit_prop MainPID; }
# wait_active SECONDS [OLD_PID]: the unit active (READY=1 sent: Type=notify) with a main PID other than OLD_PID.
wait_active() {
    local i=0 limit=$(( $1 * 5 )) old=${2:-0}
    until [ "$(unit_prop ActiveState)" = active ] && [ "$(main_pid)" != 0 ] && [ "$(main_pid)" != "$old" ]; do
        i=$((i + 1)); [ $i -le $limit ] || fail "recoverydeckd not active within $1 s: $(systemctl status recoverydeckd --no-pager 2>&1 | tail -5)"
        sleep 0.2
    done
}
journal_since() { journalctl -u recoverydeckd --no-pager -o cat --since "@$1"; }
# wait_journal SINCE PATTERN SECONDS: a daemon journal line matching the extended regex.
wait_journal() {
    local i=0
    until journal_since "$1" | grep -Eq -- "$2"; do
        i=$((i + 1)); [ $i -le $(( $3 * 2 )) ] || fail "no journal line matching '$2' within $3 s"
        sleep 0.5
    done
}
chip=$(cat /run/rdcheck-chip 2>/dev/null || true)
# The person's hand on GO (GPIO17, active low, pulled up): a press of 150 ms, or held for $1 s.
go_press() { echo pull-down > "$chip/sim_gpio17/pull"; sleep "${1:-0.15}"; echo pull-up > "$chip/sim_gpio17/pull"; }
# The daemon's controller, from its journal line naming the adapter it uses; the strap takes another one.
box_adapter() { journal_since 0 | sed -n 's/.*Bluetooth adapter \(hci[0-9]*\).*/\1/p' | tail -1; }
strap_adapter() {
    local mine=$1 h
    for h in $(ls /sys/class/bluetooth | grep '^hci[0-9]*$' | sort -V | tac); do
        [ "$h" != "$mine" ] && { echo "$h"; return; }
    done
}
# start_strap NAME ARGS...: h10sim (the virtual Polar H10) advertising on a controller the box does not use.
start_strap() {
    local name=$1 adapter; shift
    adapter=$(strap_adapter "$(box_adapter)")
    [ -n "$adapter" ] || fail "no controller left for the strap"
    "$bench/h10sim" --adapter "$adapter" --public "$@" > "$OUT/$name.log" 2>&1 &
    strap_pid=$!
    local i=0
    until grep -q '^advertising' "$OUT/$name.log"; do
        i=$((i + 1)); [ $i -le 100 ] || fail "h10sim did not advertise: $(tail -3 "$OUT/$name.log")"
        sleep 0.2
    done
    strap_address=$(sed -n 's/^advertising.* address=\([0-9A-F:]*\).*/\1/p' "$OUT/$name.log" | head -1)
    [ -n "$strap_address" ] || strap_address=$(cat /sys/class/bluetooth/"$adapter"/address 2>/dev/null | tr a-f A-F || true)
    say "strap $name on $adapter ($strap_address)"
}
stop_strap() { kill "$strap_pid" 2>/dev/null || true; wait "$strap_pid" 2>/dev/null || true; }
# snapshot: the daemon's session as `watch --json` first reports it (watch then ends: its reader has gone).
snapshot() { recoverydeck watch --json 2>/dev/null | head -1 || true; }
# wait_session_start SECONDS: until the daemon reports a session that is not idle.
wait_session_start() {
    local i=0 s
    until s=$(snapshot); [[ $s == *'"phase":"'* && $s != *'"phase":"idle"'* ]]; do
        i=$((i + 1)); [ $i -le $(( $1 * 2 )) ] || fail "no session started within $1 s: $s"
        sleep 0.5
    done
}
# wait_phase PHASE SECONDS: until the daemon reports the session in PHASE.
wait_phase() {
    local i=0
    until snapshot | grep -q "\"phase\":\"$1\""; do
        i=$((i + 1)); [ $i -le $(( $2 * 4 )) ] || return 1
        sleep 0.25
    done
}
