# The virtual controllers the other scenarios rely on: two LE controllers that power on, and LE
# discovery through the management interface seeing the other one's advertising (DESIGN §5).
# vm-timeout: 60
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_SIM"
bt_power_on "$HCI_BOX"
btm -i "$HCI_SIM" add-adv -c -n -d 020106 1 > /dev/null || fail "add-adv on $HCI_SIM failed"
timeout 6 stdbuf -oL btmgmt -i "$HCI_BOX" find -l < <(sleep 30) > find.txt 2>&1 || true
cat find.txt
grep -qi "$ADDR_SIM" find.txt || fail "LE discovery on $HCI_BOX did not see $HCI_SIM ($ADDR_SIM) advertising"
say "discovery saw $ADDR_SIM"
