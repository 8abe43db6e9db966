# An HR-only strap: notifications without RR give the spec's exact sentence and degraded mode
# (RecoveryDeck spec §4.1), while BPM keeps arriving.
# vm-timeout: 60
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_BOX"
spawn sim "$BIN/h10sim" --adapter "$HCI_SIM" --public --hr-only --speed 2 --seed 5
wait_for_line sim.log '^advertising' 20
"$BIN/recoverydeck" strap --adapter "$HCI_BOX" --address "$ADDR_SIM" --address-type public --seconds 12 --json > client.log 2> client.err \
    || { cat client.err; fail "client failed"; }
cat client.err
grep -q '"state":"heartRateOnly"' client.log || fail "no degraded (heart rate only) state"
grep -qF 'RR intervals not available — ensure H10 is snug, charged, and not connected exclusively elsewhere; prefer H10 in heart rate mode.' client.log \
    || fail "the spec's HR-only sentence is missing"
grep -q '"state":"rrOK"' client.log && fail "RR OK claimed for an HR-only strap"
grep -Eq '"event":"sample".*"bpm":[0-9]+' client.log || fail "no BPM samples"
python3 - client.log <<'PY' || fail "HR-only samples carried RR"
import json, sys
samples = [json.loads(l) for l in open(sys.argv[1]) if '"event":"sample"' in l]
assert samples and all(s["rr"] == [] for s in samples), samples[:3]
print(len(samples), "BPM-only samples")
PY
