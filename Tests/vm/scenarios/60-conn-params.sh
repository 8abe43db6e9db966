# The strap's request for a slower interval (DESIGN §5). h10sim asks as Polar straps do (min 250, max
# 400 ×1.25 ms, latency 0, timeout 600 ×10 ms), here 2 s after notifications start instead of ~30 s.
# 1, the negative control: with the box's loading switched off (recoverydeck-fixture, the command line built
#    for the tests, never shipped) the kernel refuses the link-layer request (Negative Reply) and the strap
#    drops the link with 0x3B; both must happen.
# 2: with the parameters loaded the same request is accepted (Reply, mgmt New Connection Parameter)
#    and the link stays up; a drop-out then measures strap advertising again → RR flowing.
# 3: the L2CAP procedure (CID 5) is accepted too. Each outcome asserted from btmon's trace.
# vm-timeout: 240
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_BOX"
rrfile=$REPO/Tests/vm/data/rr-replay.txt
export RECOVERYDECK_DB=$(mktemp -d)/recoverydeck.db

# h10sim's random static address (its default, as older H10 firmware) is in its first line.
sim_address() { sed -n 's/.*advertising name="[^"]*" address=\([0-9A-F:]*\) .*/\1/p' "$1" | head -1; }

# 1. Loading switched off: refused three times, then the strap drops the link with 0x3B.
btmon_start off
spawn sim1 "$BIN/h10sim" --adapter "$HCI_SIM" --seed 31 --conn-update-at 2 --quiet
sim_pid=$bg_pid
wait_for_line sim1.log '^advertising' 20
strap=$(sim_address sim1.log)
[[ "$strap" =~ ^[C-F] ]] || fail "h10sim's default address $strap is not random static"
spawn client1 "$BIN/recoverydeck-fixture" --skip-connection-parameters strap --adapter "$HCI_BOX" \
    --address "$strap" --address-type random --seconds 40 --json
client_pid=$bg_pid
wait_for_line sim1.log '^conn-update giving up: disconnect reason=0x3b' 60
wait_for_line client1.log '"state":"lost"' 10
kill -INT "$client_pid"
wait "$client_pid" || true
btmon_text off
grep -q '^conn-update rejected attempt=2' sim1.log || fail "h10sim was not refused twice before giving up"
# btmon names commands by opcode: 0x0020 Remote Connection Parameter Request Reply, 0x0021 its Negative Reply.
grep -E "HCI Command: .*\(0x08\|0x0021\).*\[$HCI_BOX\]" off.txt \
    || fail "the box's kernel did not refuse the request (no Negative Reply in btmon's trace)"
grep -A3 -E "HCI Event: Disconnect Complete.*\[$HCI_BOX\]" off.txt | grep 'Reason: Unacceptable Connection Parameters (0x3b)' \
    || fail "the box's kernel saw no 0x3B disconnection"
! grep -qE "HCI Command: .*\(0x08\|0x0020\)" off.txt || fail "the kernel accepted without the loading"
say "loading off: refused, then dropped with 0x3B"
kill "$sim_pid" 2>/dev/null || true

# 2. Loading on (the default): accepted, the link stays; then a drop-out for the reconnect time.
bt_fresh
bt_power_on "$HCI_BOX"
btmon_start on
spawn_stamped sim2 "$BIN/h10sim" --adapter "$HCI_SIM" --seed 32 --rr-file "$rrfile" --speed 2 --conn-update-at 2 --dropout 8:2
wait_for_line sim2.log ' advertising' 20
strap=$(sed -n 's/.* advertising name="[^"]*" address=\([0-9A-F:]*\) .*/\1/p' sim2.log | head -1)
spawn_stamped client2 "$BIN/recoverydeck" strap --adapter "$HCI_BOX" --address "$strap" --address-type random \
    --seconds 18 --json
client_pid=$bg_pid
wait_for_line sim2.log ' conn-update accepted' 30
wait_for_line sim2.log ' dropout' 30
wait "$client_pid" || fail "the client exited with an error"
btmon_text on
! grep -q 'conn-update rejected\|giving up' sim2.log || fail "the request was refused with the parameters loaded"
grep -E "HCI Command: .*\(0x08\|0x0020\).*\[$HCI_BOX\]" on.txt || fail "no Reply to the request in btmon's trace"
! grep -qE "HCI Command: .*\(0x08\|0x0021\)" on.txt || fail "a Negative Reply with the parameters loaded"
grep -E "MGMT Command: .*\(0x0035\).*\[$HCI_BOX\]" on.txt || fail "btmon did not see the box load the parameters"
grep -E "MGMT Event: .*\(0x001c\).*\[$HCI_BOX\]" on.txt || fail "no mgmt New Connection Parameter event in btmon's trace"
python3 - sim2.log client2.log <<'PY' >> "$SCENARIO_OUT/figures" || fail "no reconnection figure"
import json, sys
sim = [l.split(" ", 1) for l in open(sys.argv[1])]
client = [l.split(" ", 1) for l in open(sys.argv[2]) if " {" in l]
events = [(float(t), json.loads(rest)) for t, rest in client]
summary = [e for _, e in events if e.get("event") == "summary"][-1]
assert summary["losses"] == 1, summary  # the drop-out only, not the parameter request
assert summary["parameterUpdates"] >= 1, summary
assert "was accepted" in summary["connectionParameters"], summary
back = [float(t) for t, rest in sim if rest.startswith("advertising")][1]  # after the drop-out
lost = [t for t, e in events if e.get("state") == "lost"][0]
rr = [t for t, e in events if e.get("event") == "sample" and e.get("rr") and t > lost][0]
print(f"reconnect_advertising_to_rr_ms {round((rr - back) * 1000)} ms "
      "(h10sim advertising again after a 2 s drop-out to the next RR at the client; TCG VM)")
PY
say "loading on: accepted, one loss (the drop-out)"

# 3. The L2CAP procedure, loading on.
bt_fresh
bt_power_on "$HCI_BOX"
btmon_start l2cap
spawn sim3 "$BIN/h10sim" --adapter "$HCI_SIM" --seed 33 --conn-update-at 2 --conn-update-via l2cap --quiet
wait_for_line sim3.log '^advertising' 20
strap=$(sim_address sim3.log)
spawn client3 "$BIN/recoverydeck" strap --adapter "$HCI_BOX" --address "$strap" --address-type random \
    --seconds 10 --json
client_pid=$bg_pid
wait_for_line sim3.log '^conn-update accepted' 20
wait "$client_pid" || fail "the client exited with an error"
btmon_text l2cap
grep -A4 'Connection Parameter Update Request' l2cap.txt || fail "no L2CAP request in btmon's trace"
grep -A4 'Connection Parameter Update Response' l2cap.txt | grep -i 'accepted' || fail "the L2CAP request was not accepted"
cat "$SCENARIO_OUT/figures"
