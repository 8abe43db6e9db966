# The box beside a running bluetoothd, as on Raspberry Pi OS: the kernel ATT socket still owns its
# channel and the RR arrive whole (DESIGN §5: the management socket and the L2CAP client coexist
# with bluetoothd).
# vm-timeout: 90
. "$VM_LIB"
bt_fresh
bt_start_bluetoothd
i=0
until btm -i "$HCI_BOX" info | grep -q 'current settings:.*powered'; do
    # bluetoothd powers its adapters itself; help it along if it has not yet.
    i=$((i + 1)); [ $i -le 20 ] || fail "$HCI_BOX did not power on under bluetoothd"
    [ $i = 10 ] && bt_power_on "$HCI_BOX"
    sleep 0.5
done
rrfile=$REPO/Tests/vm/data/rr-replay.txt
spawn sim "$BIN/h10sim" --adapter "$HCI_SIM" --public --rr-file "$rrfile" --speed 8 --seed 21 --quiet
sim_pid=$bg_pid
wait_for_line sim.log '^advertising' 20
spawn client "$BIN/recoverydeck" strap --adapter "$HCI_BOX" --address "$ADDR_SIM" --address-type public --seconds 60 --json
client_pid=$bg_pid
wait "$sim_pid" || fail "h10sim exited with an error"
sleep 1
kill -INT "$client_pid"
wait "$client_pid" || fail "the client exited with an error"
pgrep -x bluetoothd > /dev/null || fail "bluetoothd is not running any more"
python3 "$REPO/Tests/vm/check_rr.py" exact "$rrfile" client.log || fail "RR intervals differ from the file with bluetoothd running"
