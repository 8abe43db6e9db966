#!/bin/bash
# Second boot, after the first ended in a power cut (qemu killed): Debian without bluez, so nothing but the
# box can power the controller. The package is current, its data fresh from the reinstall; the daemon must
# have powered a controller itself (journal), and alice scans, pairs and checks the strap without sudo.
. /usr/local/lib/rdcheck/guest-lib.bash
dpkg-query -W -f='${Status}' bluez 2>/dev/null | grep -q 'install ok installed' && fail "bluez is installed"
[ -e /usr/libexec/bluetooth/bluetoothd ] && fail "bluetoothd is present"
wait_active 60
wait_journal 0 'Bluetooth adapter hci[0-9]+ was off: powering it on' 30
adapter=$(box_adapter)
[ -n "$adapter" ] && [ -e /sys/class/bluetooth/"$adapter" ] || fail "the daemon names no adapter it powered: '$adapter'"
ok "no bluez: the daemon powered $adapter itself ($(journal_since 0 | grep -m1 'was off'))"
start_strap strap3 --seed 9 --quiet
as alice recoverydeck scan --seconds 6 --json > scan.json 2> scan.err || fail "alice's scan failed: $(cat scan.err)"
grep -q "$strap_address" scan.json || fail "alice's scan did not list the strap: $(cat scan.json)"
as alice recoverydeck pair "$strap_address" > pair.out 2>&1 || fail "alice could not pair: $(cat pair.out)"
as alice recoverydeck status > status.txt 2>&1 || true
grep -qi "$strap_address\|strap" status.txt || say "status: $(head -3 status.txt)"
stop_strap
ok "alice scanned and paired $strap_address through the daemon on a box without bluez"
