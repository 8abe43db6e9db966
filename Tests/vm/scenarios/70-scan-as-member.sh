# A member of the box's group has no CAP_NET_ADMIN, so the kernel refuses them discovery: the running
# daemon, which holds it, scans for them over the control socket (scan, and pair without an address, as
# over SSH without sudo); a user outside the group is refused with one sentence naming the group; and a
# scan is refused while a morning runs. Before that: the box's controller is left off, as after boot on a
# Debian without bluez (only bluetoothd powers controllers), and the daemon powers it on itself.
# vm-timeout: 120
. "$VM_LIB"
bt_fresh
btm -i "$HCI_BOX" info | grep -q 'current settings:.*powered' && fail "$HCI_BOX is powered before the daemon starts"
spawn sim "$BIN/h10sim" --adapter "$HCI_SIM" --public --seed 4
wait_for_line sim.log '^advertising' 20
name=$(sed -n 's/^advertising name="\([^"]*\)".*/\1/p' sim.log | head -1)

# The box as installed: its data in a setgid folder of the group, the socket in a folder only the group enters.
group=users
gid=$(getent group "$group" | cut -d: -f3)
box=$(mktemp -d); chgrp "$group" "$box"; chmod 2770 "$box"
run=$(mktemp -d); chgrp "$group" "$run"; chmod 0750 "$run"
export RECOVERYDECK_DB=$box/recoverydeck.db
export RECOVERYDECK_SOCKET=$run/control.sock
daemon_config "$box"
echo "control_group = $group" >> "$box/recoverydeck.conf"
spawn daemon "$BIN/recoverydeckd-sim" --config "$box/recoverydeck.conf" --simulation "$box/simulation.conf"
wait_for_line daemon.log 'ready' 20
wait_for_line daemon.log "Bluetooth adapter $HCI_BOX was off: powering it on" 20
i=0
until btm -i "$HCI_BOX" info | grep -q 'current settings:.*powered'; do
    i=$((i + 1)); [ $i -le 50 ] || fail "the daemon did not power $HCI_BOX on"; sleep 0.2
done
say "the daemon powered $HCI_BOX on"

member() { setpriv --reuid=64001 --regid=64001 --groups="$gid" --inh-caps=-all -- "$BIN/recoverydeck" "$@"; }
outsider() { setpriv --reuid=64002 --regid=64002 --clear-groups --inh-caps=-all -- "$BIN/recoverydeck" "$@"; }

member scan --seconds 5 --json > scan.json 2> scan.err || { cat scan.err daemon.log; fail "a member's scan failed"; }
cat scan.json
python3 - "$name" "$ADDR_SIM" scan.json <<'PY' || fail "a member's scan did not list the strap"
import json, sys
name, address, path = sys.argv[1:4]
hit = [s for s in json.load(open(path)) if s["address"] == address]
assert hit and hit[0]["name"] == name and hit[0]["addressType"] == "public", hit
print("member's scan found", name, address)
PY
grep -q 'scanning for straps for 5 s, asked over the control socket' daemon.log || fail "the daemon did not scan for the member"

member pair --seconds 5 > pair.txt 2> pair.err || { cat pair.err; fail "a member's pair failed"; }
cat pair.txt
grep -qF "Paired with $name ($ADDR_SIM), public address." pair.txt || fail "a member's pair did not remember the strap"
[ "$(sqlite3 "$RECOVERYDECK_DB" "select value from setting where key = 'strap_address'")" = "$ADDR_SIM" ] \
    || fail "the member's pairing is not in the box's database"

rc=0
outsider scan --seconds 2 > out.txt 2> out.err || rc=$?
cat out.err
[ "$rc" = 1 ] || fail "an outsider's scan exited $rc, want 1"
[ "$(wc -l < out.err)" = 1 ] || fail "an outsider's refusal is not one line"
grep -qF "members of the $group group only: ask root for \`sudo adduser" out.err || fail "the outsider's refusal does not name the group"

# During a morning the radio is the strap's: a scan is refused with a sentence.
member checkin --fatigue 5 --mood 6 --soreness 5 --stress 4 --sleep 6 > checkin.txt 2>&1 || { cat checkin.txt; fail "a member's checkin failed"; }
member measure > measure.txt 2>&1 || { cat measure.txt; fail "the morning did not start"; }
rc=0
member scan --seconds 2 > busy.txt 2> busy.err || rc=$?
cat busy.err
[ "$rc" = 1 ] || fail "a scan during a morning exited $rc, want 1"
grep -qF "A morning session is running; scan when it is over" busy.err || fail "a scan during a morning was not refused"
"$BIN/recoverydeck" cancel > /dev/null 2>&1 || true
say "a member scanned and paired through the daemon; an outsider and a scan during a morning were refused"
