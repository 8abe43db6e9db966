# A drop-out: h10sim drops the link and stops advertising for 5 s; the client sees the loss, comes
# back by itself, and RR resumes where the strap's heart is (the beats of the gap are lost, as with
# a real strap: it does not buffer).
# vm-timeout: 120
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_BOX"
rrfile=$REPO/Tests/vm/data/rr-replay.txt
spawn sim "$BIN/h10sim" --adapter "$HCI_SIM" --public --rr-file "$rrfile" --speed 2 --dropout 8:5 --seed 3
sim_pid=$bg_pid
wait_for_line sim.log '^advertising' 20
spawn client "$BIN/recoverydeck" strap --adapter "$HCI_BOX" --address "$ADDR_SIM" --address-type public --seconds 100 --json
client_pid=$bg_pid
wait "$sim_pid" || fail "h10sim exited with an error"
sleep 1
kill -INT "$client_pid"
wait "$client_pid" || fail "the client exited with an error"
grep -q '^dropout' sim.log || fail "h10sim did not drop the link"
grep -q '"state":"lost"' client.log || fail "the client did not notice the loss"
grep -q '"state":"reconnecting"' client.log || fail "the client did not plan a reconnection"
python3 - client.log <<'PY' || fail "the link did not come back with RR after the loss"
import json, sys
states = [json.loads(l)["state"] for l in open(sys.argv[1]) if '"event":"state"' in l]
lost = states.index("lost")
assert "rrOK" in states[lost:], states
print("states:", " → ".join(states))
PY
python3 "$REPO/Tests/vm/check_rr.py" gap "$rrfile" client.log || fail "RR after the drop-out do not continue the file"
