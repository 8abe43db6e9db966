# Helpers for VM scenarios: `. "$VM_LIB"` at the top of a scenario (bash).
# Environment given to each scenario by guest.sh:
#   SCENARIO_OUT  this scenario's result folder (read-write, visible on the host)
#   BIN           the build folder holding h10sim and recoverydeck
#   REPO          the repository root (read-only in the guest)
# After bt_fresh: HCI_SIM and HCI_BOX name two powered-off LE controllers (hciN), and
# ADDR_SIM / ADDR_BOX their public addresses.
set -euo pipefail
cd "$SCENARIO_OUT"

_bt_pids=()
_bt_cleanup() {
    local p
    for p in "${_bt_pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap _bt_cleanup EXIT

say() { echo "[$(date +%T.%3N)] $*"; }
fail() { say "FAIL: $*"; exit 1; }

# Records one figure for the report: figure NAME VALUE UNIT [NOTE...]
figure() { echo "$*" >> "$SCENARIO_OUT/figures"; say "figure: $*"; }

# Starts a command in the background, output to $SCENARIO_OUT/NAME.log; its pid lands in $bg_pid.
spawn() {
    local name=$1; shift
    "$@" > "$SCENARIO_OUT/$name.log" 2>&1 &
    bg_pid=$!
    _bt_pids+=("$bg_pid")
}

# Waits until FILE contains a line matching the extended regex, or fails after SECONDS.
wait_for_line() {
    local file=$1 pattern=$2 seconds=$3 i=0
    while ! grep -Eq -- "$pattern" "$file" 2>/dev/null; do
        i=$((i + 1))
        [ $i -le $((seconds * 10)) ] || fail "no line matching '$pattern' in $file within $seconds s"
        sleep 0.1
    done
}

# Waits until the kernel has no Bluetooth controller left (those of an earlier scenario go away
# once its btvirt has ended).
bt_none() {
    local i=0
    while [ -n "$(ls /sys/class/bluetooth 2>/dev/null)" ]; do
        i=$((i + 1)); [ $i -le 50 ] || fail "old controllers did not go away"; sleep 0.1
    done
}

_btvirt_pid=""
# Fresh virtual controllers for this scenario: btvirt -L -l3 (three LE-only controllers, linked
# to one another). hci0 sometimes comes up unconfigured (DESIGN §5), so the last two are used.
bt_fresh() {
    if [ -n "$_btvirt_pid" ]; then kill "$_btvirt_pid" 2>/dev/null || true; wait "$_btvirt_pid" 2>/dev/null || true; fi
    bt_none
    btvirt -L -l3 > "$SCENARIO_OUT/btvirt.log" 2>&1 &
    _btvirt_pid=$!
    _bt_pids+=("$_btvirt_pid")
    local i=0
    while [ "$(ls /sys/class/bluetooth 2>/dev/null | grep -c '^hci[0-9]*$')" -lt 3 ]; do
        i=$((i + 1)); [ $i -le 100 ] || fail "btvirt did not create three controllers"; sleep 0.1
    done
    local names
    names=$(ls /sys/class/bluetooth | grep '^hci[0-9]*$' | sort -V)
    HCI_SIM=$(echo "$names" | sed -n 2p)
    HCI_BOX=$(echo "$names" | sed -n 3p)
    # Wait for the kernel to finish setting them up (address known, management index present).
    i=0
    until btm -i "$HCI_SIM" info 2>/dev/null | grep -q 'addr ' && btm -i "$HCI_BOX" info 2>/dev/null | grep -q 'addr '; do
        i=$((i + 1)); [ $i -le 100 ] || fail "controllers $HCI_SIM/$HCI_BOX not ready"; sleep 0.1
    done
    ADDR_SIM=$(bt_addr "$HCI_SIM")
    ADDR_BOX=$(bt_addr "$HCI_BOX")
    say "controllers: sim $HCI_SIM ($ADDR_SIM), box $HCI_BOX ($ADDR_BOX)"
}

# btmgmt (bt_shell) quits as soon as its standard input ends, before the kernel has answered:
# give it an input that stays open for a while.
btm() { btmgmt "$@" < <(sleep 30); }

bt_addr() { btm -i "$1" info | sed -n 's/^[[:space:]]*addr \([0-9A-F:]*\).*/\1/p' | head -1; }

# Turns LE on and powers controller $1 (the box expects bluetoothd or the person to have done so).
bt_power_on() {
    btm -i "$1" le on > /dev/null
    btm -i "$1" power on > /dev/null
    btm -i "$1" info | grep -q 'current settings:.*powered' || fail "$1 did not power on"
}

# Starts the system D-Bus and bluetoothd, as on a Raspberry Pi OS box (for coexistence scenarios).
bt_start_bluetoothd() {
    mkdir -p /run/dbus
    dbus-daemon --system --fork --nopidfile
    spawn bluetoothd /usr/libexec/bluetooth/bluetoothd -n -d
}

# Like spawn, each output line prefixed with the wall time in seconds ("1764581234.123456 line"),
# for figures between two processes' events. bash's $EPOCHREALTIME: no process per line.
spawn_stamped() {
    local name=$1; shift
    ( "$@" 2>&1 | while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done ) \
        > "$SCENARIO_OUT/$name.log" &
    bg_pid=$!
    _bt_pids+=("$bg_pid")
}

# Records the kernel's HCI and management traffic (btmon) into $SCENARIO_OUT/NAME.snoop until
# btmon_text NAME, which stops it and decodes the trace into NAME.txt: what the kernel itself
# sent and received, for assertions "from the kernel's side".
btmon_start() {
    local name=$1
    btmon -w "$SCENARIO_OUT/$name.snoop" > "$SCENARIO_OUT/$name.btmon.log" 2>&1 &
    eval "_btmon_$name=$!"
    _bt_pids+=("$!")
    sleep 0.5
}
btmon_text() {
    local name=$1 pid
    eval "pid=\$_btmon_$name"
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    btmon -r "$SCENARIO_OUT/$name.snoop" > "$SCENARIO_OUT/$name.txt" 2>&1 || true
}

# Writes DIR/recoverydeck.conf for recoverydeckd over the box's controller and h10sim's public
# address, with the simulated panel, and DIR/simulation.conf (recoverydeckd-sim --simulation) at SPEED
# (default 1, as fast as h10sim --speed); database and control socket as exported in RECOVERYDECK_DB
# and RECOVERYDECK_SOCKET.
daemon_config() {
    cat > "$1/recoverydeck.conf" <<CONF
database = $RECOVERYDECK_DB
control_socket = $RECOVERYDECK_SOCKET
panel = simulated
strap = bluetooth
adapter = $HCI_BOX
strap_address = $ADDR_SIM
strap_address_type = public
reminder = off
CONF
    echo "speed = ${2:-1}" > "$1/simulation.conf"
}
