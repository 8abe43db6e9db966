# recoverydeckd over the real kernel Bluetooth stack, with the simulated panel and h10sim replaying an RR
# file on the other controller (DESIGN §5). 1: one full real-time morning; the stored day's RR are the
# file's and its metrics equal those computed again from them (check_morning.py). The strap asks for
# new connection parameters 30 s in, as Polar straps do: the kernel must accept (btmon's trace, the
# daemon's log of mgmt New Connection Parameter) and the link stay up through standing. 2: a second morning,
# 4x faster on both sides, whose strap drops out while standing: paused, resumed, one complete morning.
# vm-timeout: 480
. "$VM_LIB"
here=$REPO/Tests/stages/daemon
rrfile=$here/morning-rr.txt
bt_fresh
bt_power_on "$HCI_BOX"
# SQLite's WAL needs a real file system: the shared result folder is not one, the guest's /tmp is.
box=$(mktemp -d)
export RECOVERYDECK_DB=$box/recoverydeck.db
export RECOVERYDECK_SOCKET=$box/control.sock
day=$(date +%F)

# The person checked in over SSH; the daemon knows the strap by its address.
"$BIN/recoverydeck" checkin --fatigue 5 --mood 6 --soreness 5 --stress 4 --sleep 6 || fail "checkin failed"
config() { daemon_config "$box" "$1"; }

# 1. Real time.
config 1
btmon_start trace1
spawn sim1 "$BIN/h10sim" --adapter "$HCI_SIM" --public --rr-file "$rrfile" --seed 5 --quiet --conn-update-at 30
sim_pid=$bg_pid
wait_for_line sim1.log '^advertising' 20
spawn daemon1 "$BIN/recoverydeckd-sim" --config "$box/recoverydeck.conf" --simulation "$box/simulation.conf"
daemon_pid=$bg_pid
wait_for_line daemon1.log 'ready' 20
started=$(date +%s)
"$BIN/recoverydeck" measure --wait > morning1.txt 2>&1 || { cat morning1.txt; cat daemon1.log; fail "the real-time morning did not complete"; }
seconds=$(( $(date +%s) - started ))
cat morning1.txt
figure vm_realtime_morning_s "$seconds" s "GO to readout over btvirt, h10sim replaying $(basename "$rrfile")"
"$BIN/recoverydeck" export --full > export1.json || fail "export failed"
python3 "$here/check_morning.py" exact "$rrfile" export1.json "$day" | tee check1.txt || fail "stored metrics differ from the file's"
kill -TERM "$daemon_pid"; wait "$daemon_pid" || fail "recoverydeckd did not stop cleanly"
kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true
btmon_text trace1
grep -q '^conn-update accepted' sim1.log || fail "the strap's parameter request was not accepted"
! grep -q '^conn-update rejected\|giving up' sim1.log || fail "the strap was refused: $(grep conn-update sim1.log)"
[ "$(grep -c '^connected' sim1.log)" = 1 ] || fail "the link did not stay up through the morning: $(grep -c '^connected' sim1.log) connections"
# btmon names commands by opcode: 0x0020 is LE Remote Connection Parameter Request Reply.
grep -qE "HCI Command: .*\(0x08\|0x0020\).*\[$HCI_BOX\]" trace1.txt || fail "no Reply to the request in btmon's trace"
grep -q "the strap's request for interval 312.5–500 ms, latency 0, timeout 6000 ms was accepted" daemon1.log \
    || fail "the daemon did not see the kernel accept the strap's request (mgmt New Connection Parameter)"

# 2. A drop-out while standing, 4x faster. Heart time: first RR ~1 s, settle 15, capture ~60, lying 30,
# cue 3: standing from ~110 s of heart time = 27.5 s of wall time at 4x; h10sim counts its drop-out in wall
# seconds from the first notification: at 31 s (heart ~124 s) for 2 s (8 s of session time).
config 4
spawn sim2 "$BIN/h10sim" --adapter "$HCI_SIM" --public --rr-file "$rrfile" --seed 6 --speed 4 --dropout 31:2 --quiet
sim_pid=$bg_pid
wait_for_line sim2.log '^advertising' 20
spawn daemon2 "$BIN/recoverydeckd-sim" --config "$box/recoverydeck.conf" --simulation "$box/simulation.conf"
daemon_pid=$bg_pid
wait_for_line daemon2.log 'ready' 20
"$BIN/recoverydeck" measure --overwrite --wait --json > morning2.jsonl 2>&1 || { tail -20 morning2.jsonl; cat daemon2.log; fail "the drop-out morning did not complete"; }
grep -q '^dropout' sim2.log || fail "h10sim did not drop the link"
python3 - morning2.jsonl <<'PY' || fail "the session did not pause and resume in standing"
import json, sys
phases = []
for line in open(sys.argv[1]):
    if line.startswith("{"):
        p = json.loads(line).get("phase")
        if p and (not phases or phases[-1] != p):
            phases.append(p)
print(" → ".join(phases))
i = phases.index("paused")
assert phases[i - 1] == "captureStanding", phases
assert "offeringResume" in phases[i:] and phases[-1] == "readout", phases
assert phases[i:].count("captureStanding") == 1, phases
PY
"$BIN/recoverydeck" export --full > export2.json || fail "export failed"
python3 "$here/check_morning.py" gap "$rrfile" export2.json "$day" | tee check2.txt || fail "the resumed morning is not whole"
kill -TERM "$daemon_pid"; wait "$daemon_pid" || fail "recoverydeckd did not stop cleanly"
cp "$box/recoverydeck.conf" "$SCENARIO_OUT/"
say "both mornings complete"
