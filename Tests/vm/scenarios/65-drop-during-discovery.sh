# A strap that drops the link in the middle of service discovery (h10sim --drop-during-discovery),
# then the box closing its L2CAP socket: on Debian's 6.1 kernel this once hit "list_del corruption"
# in hci_chan_del ← l2cap_sock_release and killed the client. The box must come back by itself:
# the link reconnects and RR flow, and the kernel logs no list corruption or BUG.
# vm-timeout: 60
. "$VM_LIB"
bt_fresh
bt_power_on "$HCI_BOX"
dmesg -c > /dev/null
spawn sim "$BIN/h10sim" --adapter "$HCI_SIM" --public --seed 41 --drop-during-discovery --quiet
wait_for_line sim.log '^advertising' 20
spawn client "$BIN/recoverydeck" strap --adapter "$HCI_BOX" --address "$ADDR_SIM" --address-type public \
    --seconds 30 --json
client_pid=$bg_pid
wait_for_line sim.log '^dropping during discovery' 20
wait_for_line client.log '"state":"rrOK"' 25
kill -INT "$client_pid"
rc=0
wait "$client_pid" || rc=$?
dmesg > dmesg.txt
! grep -E 'list_del corruption|kernel BUG|general protection' dmesg.txt || fail "the kernel oopsed on the teardown"
[ "$rc" = 0 ] || fail "the client exited $rc"
grep -q '"state":"lost"' client.log || fail "the client did not see the drop"
say "dropped during discovery: the client reconnected and RR flow; no oops"
