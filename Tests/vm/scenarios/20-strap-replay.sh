# The box's client against h10sim replaying an RR file: the strap is discovered by name, paired
# (remembered in the store), connected without scanning, notifications enabled, and every RR
# interval arrives in order, none lost (DESIGN §5; RecoveryDeck spec §4.1 quantisation). Also
# measures connect() → first RR and CPU time per notification.
# vm-timeout: 120
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_BOX"
rrfile=$REPO/Tests/vm/data/rr-replay.txt
spawn sim "$BIN/h10sim" --adapter "$HCI_SIM" --public --rr-file "$rrfile" --speed 4 --seed 11
sim_pid=$bg_pid
wait_for_line sim.log '^advertising' 20
name=$(sed -n 's/^advertising name="\([^"]*\)".*/\1/p' sim.log)
[[ "$name" =~ ^Polar\ H10\ [0-9A-F]{8}$ ]] || fail "h10sim advertises \"$name\", not \"Polar H10\" and 8 hex digits"

"$BIN/recoverydeck" scan --adapter "$HCI_BOX" --seconds 6 --json > scan.json 2> scan.err || { cat scan.err; fail "scan failed"; }
cat scan.json
python3 - "$name" "$ADDR_SIM" scan.json <<'PY' || fail "scan did not list the strap by name"
import json, sys
name, address, path = sys.argv[1:4]
found = json.load(open(path))
hit = [s for s in found if s["address"] == address]
assert hit, f"{address} not in {found}"
assert hit[0]["name"] == name, f"name {hit[0]['name']!r}, want {name!r}"
assert hit[0]["addressType"] == "public", hit[0]
print("scan found", name, address)
PY

# Pairing remembers the only strap in range; the morning then connects to it with no address given.
export RECOVERYDECK_DB=$(mktemp -d)/recoverydeck.db
"$BIN/recoverydeck" pair --adapter "$HCI_BOX" --seconds 6 > pair.txt 2> pair.err || { cat pair.err; fail "pair failed"; }
cat pair.txt
grep -q "Paired with $name ($ADDR_SIM), public address." pair.txt || fail "pair did not remember $name"
spawn client "$BIN/recoverydeck" strap --adapter "$HCI_BOX" --seconds 90 --json
client_pid=$bg_pid
wait "$sim_pid" || fail "h10sim exited with an error"
sleep 1
kill -INT "$client_pid"
wait "$client_pid" || fail "the client exited with an error"
grep -q '"state":"connecting"' client.log || fail "no connecting state"
grep -q '"state":"live"' client.log || fail "never live (notifications enabled)"
grep -q '"state":"rrOK"' client.log || fail "never RR OK"
grep -q '"event":"battery","percent":87' client.log || fail "battery level not read"
grep -q '"event":"firmware","revision":"5.0.0"' client.log || fail "firmware revision not read"
python3 "$REPO/Tests/vm/check_rr.py" exact "$rrfile" client.log || fail "RR intervals differ from the file"
python3 - client.log <<'PY' >> "$SCENARIO_OUT/figures"
import json, sys
summary = [json.loads(l) for l in open(sys.argv[1]) if '"event":"summary"' in l][-1]
print(f"connect_to_live_ms {summary['firstLiveAfterConnectMs']} ms (connect() to notifications enabled; TCG VM)")
print(f"connect_to_first_rr_ms {summary['firstRRAfterConnectMs']} ms (TCG VM; includes ~500 ms h10sim waits at --speed 4 for the file's first beat)")
print(f"cpu_per_notification_us {summary['cpuMicrosecondsPerNotification']:.0f} us ({summary['notifications']} notifications, user+system, client process)")
PY
cat "$SCENARIO_OUT/figures"
