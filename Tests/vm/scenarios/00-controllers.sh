# The virtual controllers the other scenarios rely on: two LE controllers that power on, and LE
# discovery through the management interface seeing the other one's advertising (DESIGN §5).
# vm-timeout: 60
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_SIM"
bt_power_on "$HCI_BOX"
# btvirt drops an advertising report that arrives while discovery is still starting (as h10sim's own
# advertising works around by re-enabling each second while unconnected): advertise again each second
# while the box's discovery runs, until it has seen the other controller.
btm -i "$HCI_SIM" add-adv -c -n -d 020106 1 > /dev/null || fail "add-adv on $HCI_SIM failed"
timeout 10 stdbuf -oL btmgmt -i "$HCI_BOX" find -l < <(sleep 30) > find.txt 2>&1 &
finder=$!
for _ in 1 2 3 4 5 6 7 8; do
    sleep 1
    grep -qi "$ADDR_SIM" find.txt && break
    btm -i "$HCI_SIM" rm-adv 1 > /dev/null 2>&1 || true
    btm -i "$HCI_SIM" add-adv -c -n -d 020106 1 > /dev/null || fail "add-adv on $HCI_SIM failed"
done
kill "$finder" 2> /dev/null || true
wait "$finder" 2> /dev/null || true
cat find.txt
grep -qi "$ADDR_SIM" find.txt || fail "LE discovery on $HCI_BOX did not see $HCI_SIM ($ADDR_SIM) advertising"
say "discovery saw $ADDR_SIM"
