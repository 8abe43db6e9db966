# H10 firmware before mid-2024 uses a random static address (DESIGN §5): the scan takes the address
# type from the strap's own report, pairing stores it, and the morning connects with it. Here h10sim
# runs its seeded synthetic heart with artifacts. While the box's client holds the strap, a second
# program on the box is refused with the "already connected" sentence (spec §4.2: one session owns
# the peripheral at a time). Last, an advertiser named otherwise is still found by its Heart Rate
# service (0x180D).
# vm-timeout: 90
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_BOX"
static=C4:11:22:33:44:55
spawn sim "$BIN/h10sim" --adapter "$HCI_SIM" --static-address "$static" --seed 9 --artifacts 0.05 --speed 4
sim_pid=$bg_pid
wait_for_line sim.log '^advertising' 20
grep -Eq "^advertising name=\"Polar H10 [0-9A-F]{8}\" address=$static " sim.log || fail "h10sim is not advertising from $static"
name=$(sed -n 's/^advertising name="\([^"]*\)".*/\1/p' sim.log | head -1)

"$BIN/recoverydeck" scan --adapter "$HCI_BOX" --seconds 6 --json > scan.json 2> scan.err || { cat scan.err; fail "scan failed"; }
cat scan.json
python3 - "$name" "$static" scan.json <<'PY' || fail "scan did not report the strap's random static address"
import json, sys
name, address, path = sys.argv[1:4]
hit = [s for s in json.load(open(path)) if s["address"] == address]
assert hit and hit[0]["name"] == name and hit[0]["addressType"] == "random", hit
print("scan found", name, address, "random")
PY

export RECOVERYDECK_DB=$(mktemp -d)/recoverydeck.db
"$BIN/recoverydeck" pair --adapter "$HCI_BOX" --seconds 6 > pair.txt 2> pair.err || { cat pair.err; fail "pair failed"; }
cat pair.txt
grep -qF "Paired with $name ($static), random address." pair.txt || fail "pair did not store the random address type"

# The paired strap, its type from the store (no --address, no --address-type).
spawn client "$BIN/recoverydeck" strap --adapter "$HCI_BOX" --seconds 20 --json
client_pid=$bg_pid
wait_for_line client.log '"state":"rrOK"' 20
grep -q "^connected peer=$ADDR_BOX" sim.log || fail "h10sim did not see the box connect"

# A second program on the box while the first holds the strap's ATT channel.
rc=0
"$BIN/recoverydeck" strap --adapter "$HCI_BOX" --address "$static" --seconds 3 > second.txt 2> second.err || rc=$?
cat second.err
[ "$rc" = 1 ] || fail "a second client exited $rc, want 1"
tail -1 second.err | grep -qF "Another program on this box is already connected to the strap $static (a measurement" \
    || fail "a second client did not say the strap is held by another program"

kill -INT "$client_pid"
wait "$client_pid" || fail "the client exited with an error"
python3 - client.log <<'PY' || fail "no synthetic RR arrived"
import json, sys
rr = [r for l in open(sys.argv[1]) if '"event":"sample"' in l for r in json.loads(l)["rr"]]
# Resting beats of 0.3–2 s; an injected missed beat merges two (up to 4 s).
assert len(rr) >= 10 and all(300 <= r * 1000 / 1024 <= 4000 for r in rr), rr
print(len(rr), "synthetic RR intervals")
PY

# An advertiser that is not named "Polar H10 …" but lists the Heart Rate service.
kill "$sim_pid"
bt_fresh
spawn other "$BIN/h10sim" --adapter "$HCI_SIM" --public --name "HRM-Pro 7" --seed 2
wait_for_line other.log '^advertising' 20
bt_power_on "$HCI_BOX"
"$BIN/recoverydeck" scan --adapter "$HCI_BOX" --seconds 6 --json > scan2.json 2> scan2.err || { cat scan2.err; fail "scan found nothing"; }
cat scan2.json
grep -qF "\"name\":\"HRM-Pro 7\",\"address\":\"$ADDR_SIM\"" scan2.json || fail "the Heart Rate service advertiser was not found"
