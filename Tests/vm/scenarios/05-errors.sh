# What the person reads when Bluetooth is not ready, from the real kernel's answers: each failure is
# one sentence that says what to do, with exit status 1 (RecoveryDeck spec §13).
# vm-timeout: 90
. "$VM_LIB"
rd() { "$BIN/recoverydeck" "$@"; }

expect_failure() {  # expect_failure TEXT COMMAND...: exit 1, ending with one line that says TEXT
    local text=$1; shift
    local rc=0
    "$@" > out.txt 2> err.txt || rc=$?
    cat err.txt
    [ "$rc" = 1 ] || fail "$* exited $rc, want 1"
    tail -1 err.txt | grep -qE '^recoverydeck [a-z]+: [A-Z0-9].*\.$' || fail "$* did not end with one sentence"
    tail -1 err.txt | grep -qF -- "$text" || fail "$* did not say: $text"
}

# No controller at all: the kernel has Bluetooth but no adapter (before bt_fresh makes some).
bt_none
expect_failure "No Bluetooth adapter found: check that the controller is attached" rd scan --seconds 2
expect_failure "No Bluetooth adapter found" rd strap --address 00:AA:01:05:00:05 --seconds 2

bt_fresh
bt_power_on "$HCI_BOX"
# Discovery needs CAP_NET_ADMIN: as an unprivileged user the kernel answers "permission denied".
expect_failure "needs the CAP_NET_ADMIN capability: run this with sudo, or start recoverydeckd" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN/recoverydeck" scan --adapter "$HCI_BOX" --seconds 2
# An adapter that does not exist.
expect_failure "There is no Bluetooth adapter hci9: use --adapter with one of" rd scan --adapter hci9 --seconds 2
# A powered-off adapter.
expect_failure "Bluetooth adapter $HCI_SIM is powered off" \
    rd strap --adapter "$HCI_SIM" --address 00:AA:01:05:00:05 --address-type public --seconds 2
# rfkill: a soft block on the adapter (the kernel powers it off).
switch=$(grep -l "^$HCI_BOX\$" /sys/class/rfkill/rfkill*/name | head -1)
[ -n "$switch" ] || fail "no rfkill switch for $HCI_BOX"
echo 1 > "$(dirname "$switch")/soft"
sleep 1
expect_failure "blocked by rfkill: run \`rfkill unblock bluetooth\`" rd scan --adapter "$HCI_BOX" --seconds 2
echo 0 > "$(dirname "$switch")/soft"
bt_power_on "$HCI_BOX"
# A strap that never answers (not advertising: held by a phone, out of range, asleep).
expect_failure "the strap may be connected to a phone app" \
    rd strap --adapter "$HCI_BOX" --address 00:AA:01:05:00:05 --address-type public --seconds 12
# Nothing in range.
expect_failure "No Polar H10 found in 3 s" rd scan --adapter "$HCI_BOX" --seconds 3
say "every refusal was one sentence with what to do"
