#!/bin/bash
# First boot of the installed box (systemd as PID 1, bluetoothd beside it, the package as apt installed it).
# Each step ends in an "ok:" line or the first FAIL. Two boxes run it, each for what the other cannot show:
# - both: the unit's READY and its confinement; alice (in the group, over SSH) scans, pairs, checks in and
#   measures a real-time morning started with GO on GPIO17, byte for byte the strap's RR; root's doctor.
# - the arm64 trixie box alone (rdcheck.scope=box, Tests/arm64box): an outsider refused, alice's doctor, no
#   backtracer warning (the runtime warns on 16 KiB pages only), VmHWM after the morning, and on one kernel
#   the tests qemu-user cannot run; then it stops.
# - the x86 Debian 12 box alone (scope all, Tests/installed/run.sh): a real disk's block log for the power
#   cuts, so alice's refused and root's restore and a migration the daemon runs at start come first, and
#   the package is upgraded under alice's morning; then restart, kill -9, stop and the watchdog; the power
#   cuts replayed from the state disk's block log (guest-powercuts.sh); remove keeps the data, purge deletes
#   it; bluez is removed for the second boot.
. /usr/local/lib/rdcheck/guest-lib.bash
mornings() { runuser -u recoverydeck -- sqlite3 /var/lib/recoverydeck/recoverydeck.db "SELECT count(*) FROM measurement"; }
# The state disk's block log (boot 1 of the x86 box); the box scope has none.
mark() { [ "$scope" = box ] && return 0; sync; dmsetup message rdstate 0 mark "$1"; say "mark $1"; }
today=$(date +%F)
say "kernel $(uname -r) ($(uname -m), $(getconf PAGESIZE)-byte pages); systemd $(systemctl --version | head -1 | cut -d' ' -f2); package $(dpkg-query -W -f='${Version}' recoverydeck)"

# --- The unit as installed. ----------------------------------------------------------------------
wait_active 60
pid=$(main_pid)
status=/proc/$pid/status
[ "$(unit_prop Type)" = notify ] || fail "the unit is not Type=notify"
uid=$(awk '/^Uid:/ {print $2}' "$status")
[ "$(id -un "$uid")" = recoverydeck ] || fail "the daemon runs as $(id -un "$uid"), not recoverydeck"
capamb=$(awk '/^CapAmb:/ {print $2}' "$status")
[ $(( 0x$capamb )) = $(( 1 << 12 )) ] || fail "ambient capabilities are $capamb, not CAP_NET_ADMIN alone"
[ "$(awk '/^Seccomp:/ {print $2}' "$status")" = 2 ] || fail "no seccomp filter on the daemon"
[ "$(awk '/^NoNewPrivs:/ {print $2}' "$status")" = 1 ] || fail "NoNewPrivs is not set"
id -Gn recoverydeck | grep -qw gpio || fail "the service user is not in gpio"
ls -l /dev/gpiochip* | grep -q ' gpio ' || fail "udev did not give the GPIO chip to the gpio group: $(ls -l /dev/gpiochip*)"
ok "unit READY (Type=notify), as recoverydeck with CAP_NET_ADMIN only, seccomp and NoNewPrivs; bluetoothd $(systemctl is-active bluetooth)"
# The daemon's start as the boot made it: exec to READY=1 (systemd's own timestamps), and its memory once ready.
ready_us=$(( $(unit_prop ActiveEnterTimestampMonotonic) - $(unit_prop ExecMainStartTimestampMonotonic) ))
figure daemon_start_to_ready_ms $(( ready_us / 1000 )) ms "exec to READY=1 at boot, $(uname -m), $(getconf PAGESIZE)-byte pages, emulated"
figure daemon_rss_kib "$(awk '/^VmRSS:/ {print $2}' "$status")" KiB "VmRSS once READY, idle"

# --- Outside the group: one sentence naming it, non-zero, nothing changed (the command line's own check of
# the data folder's group: the same on both boxes, so shown on the arm64 one). ------------------------------
if [ "$scope" = box ]; then
if as bob recoverydeck history > bob.out 2> bob.err; then fail "bob, outside the group, read the history"; fi
grep -q 'recoverydeck' bob.err && [ "$(wc -l < bob.err)" -le 2 ] || fail "bob's refusal is not one sentence naming the group: $(cat bob.err)"
ok "bob (not in the group) refused: $(head -1 bob.err)"
fi

# The restore and the migration are the x86 box's alone: the package's data, not the machine's.
if [ "$scope" = all ]; then
# --- A restore holds every morning while it runs, so only root (or the daemon's user) may pause the daemon:
# alice's is refused with one sentence and changes nothing; root restores (its block writes are one class of
# power cuts). Both with --replace, as a person restoring onto a box already in use must: once the morning
# reminder has been shown (06:30 to 10:00 by default), the database holds that event and a restore without
# it is refused for that reason instead. ---------------------------------------------------------------------
days_in_file=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["days"]))' $bench/history.json)
before=$(mornings)
if as alice recoverydeck restore --replace $bench/history.json > restore-alice.out 2>&1; then
    fail "alice, a member, paused the daemon's writes for a restore: $(cat restore-alice.out)"
fi
grep -q "Only root or the daemon's user may pause" restore-alice.out \
    || fail "alice's refused restore did not say why: $(cat restore-alice.out)"
[ "$(mornings)" = "$before" ] || fail "alice's refused restore changed the history ($before → $(mornings) mornings)"
ok "alice's restore refused while the daemon runs, nothing changed: $(tail -1 restore-alice.out)"
mark restore-begin
recoverydeck restore --replace $bench/history.json > restore.out 2>&1 || fail "root's restore failed: $(cat restore.out)"
mark restore-end
got=$(mornings)
ok "root restored $days_in_file days from an export ($got mornings in alice's history): $(tail -1 restore.out)"

# --- A box from before the artifact-rule step: the daemon migrates its database as it starts. ---------------
systemctl stop recoverydeckd
runuser -u recoverydeck -- sqlite3 /var/lib/recoverydeck/recoverydeck.db \
    "DROP TABLE rmssd_recomputation; DELETE FROM schema_migrations WHERE identifier = '0004-artifact-rule';"
mark migrate-begin
systemctl start recoverydeckd
wait_active 60
mark migrate-end
steps=$(runuser -u recoverydeck -- sqlite3 /var/lib/recoverydeck/recoverydeck.db "SELECT count(*) FROM schema_migrations")
recomputed=$(runuser -u recoverydeck -- sqlite3 /var/lib/recoverydeck/recoverydeck.db "SELECT count(*) FROM rmssd_recomputation")
# Every step the package has (0001 to 0005-artifact-judgement), the artifact-rule step applied again.
[ "$steps" = 5 ] || fail "after the migration the database records $steps steps, not 5"
ok "the daemon migrated a database without its artifact-rule step at start: 5 steps, $recomputed mornings recomputed under the pattern rule"
fi

# --- alice's morning: scan, pair, check in over SSH; GO on the GPIO line; a real-time morning. ------------
start_strap strap1 --rr-file $bench/morning-rr.txt --seed 5 --quiet --conn-update-at 30
as alice recoverydeck scan --seconds 6 --json > scan.json 2> scan.err || fail "alice's scan failed: $(cat scan.err)"
python3 -c 'import json,sys; a=sys.argv[2]; sys.exit(0 if any(s["address"]==a for s in json.load(open(sys.argv[1]))) else 1)' \
    scan.json "$strap_address" || fail "alice's scan did not list the strap $strap_address: $(cat scan.json)"
as alice recoverydeck pair "$strap_address" > pair.out 2>&1 || fail "alice could not pair: $(cat pair.out)"
as alice recoverydeck checkin --fatigue 5 --mood 6 --soreness 5 --stress 4 --sleep 6 > checkin.out 2>&1 \
    || fail "alice could not check in: $(cat checkin.out)"
ok "alice scanned ($(grep -c address scan.json) strap(s)), paired $strap_address and checked in, without sudo"
mark save-begin
since=$(date +%s)
go_press
wait_session_start 20
pressed=$(date +%s)
old=$(main_pid)
as alice recoverydeck watch < /dev/null > watch1.txt 2>&1 &
watch_pid=$!
if [ "$scope" = all ]; then
    # The x86 box's upgrade, 20 s into the morning: the package's postinst must wait for the morning to end.
    sleep 20
    s=$(snapshot)
    [[ $s == *'"phase":"'* && $s != *'"phase":"idle"'* ]] || fail "no morning was running when the upgrade began: $s"
    newer=$(ls $bench/recoverydeck_*.deb)
    apt_start=$(date +%s)
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$newer" > upgrade.log 2>&1 || fail "the upgrade failed: $(tail -5 upgrade.log)"
    apt_end=$(date +%s)
fi
wait "$watch_pid" || fail "alice's morning did not end saved: $(tail -5 watch1.txt)"
morning_end=$(date +%s)
figure installed_morning_s $((morning_end - pressed)) s "GO to saved, real time, the installed daemon under systemd"
if [ "$scope" = all ]; then
    wait_active 60 "$old"
    mark save-end
    [ "$(dpkg-query -W -f='${Version}' recoverydeck)" = "$(dpkg-deb -f "$newer" Version)" ] || fail "the newer package is not installed"
    [ $((apt_end - apt_start)) -ge $((morning_end - apt_start - 15)) ] \
        || fail "apt returned after $((apt_end - apt_start)) s, while the morning ran $((morning_end - apt_start)) s more: postinst did not wait"
    figure upgrade_wait_s $((apt_end - apt_start)) s "apt-get install of the newer .deb, started 20 s into a morning"
    ok "the upgrade to $(dpkg-deb -f "$newer" Version) waited for alice's morning (apt $((apt_end - apt_start)) s) and restarted the daemon after it"
fi
as alice recoverydeck history --days 1 > history1.txt
# Today's row of the table, once (a "not like you" sentence under the table names the day too).
[ "$(grep -c "^$today" history1.txt)" = 1 ] || fail "today is not in alice's history exactly once: $(cat history1.txt)"
as alice recoverydeck export --full > export1.json
python3 $bench/check_morning.py exact $bench/morning-rr.txt export1.json "$today" > check1.txt \
    || fail "the stored morning differs from the strap's RR: $(cat check1.txt)"
journal_since "$since" | grep -q "was accepted" || fail "the strap's connection-parameter request was not accepted"
stop_strap
ok "alice's morning (GO on GPIO17) saved and in her history: $(grep "^$today" history1.txt)"

# --- The installed box passes its own doctor, for root and for a member (exit 0: ready). -----------------
# The VM has no time source: mark the kernel clock synchronised (adjtimex: STA_UNSYNC cleared, errors 0, as an
# NTP daemon does), so doctor's clock check sees what a box with time sync sees. struct timex (LP64): modes at
# 0, maxerror at 24, esterror at 32, status at 40.
python3 - <<'EOF' || fail "cannot mark the VM's clock synchronised"
import ctypes, struct
libc = ctypes.CDLL(None, use_errno=True)
timex = ctypes.create_string_buffer(256)
struct.pack_into("I", timex, 0, 0x0004 | 0x0008 | 0x0010)  # ADJ_MAXERROR | ADJ_ESTERROR | ADJ_STATUS
struct.pack_into("q", timex, 24, 0)
struct.pack_into("q", timex, 32, 0)
struct.pack_into("i", timex, 40, 0)
if libc.adjtimex(timex) < 0:
    raise SystemExit("adjtimex: errno %d" % ctypes.get_errno())
EOF
# What root's doctor sees of the chips when it acts as the database's owner: the chips' modes, and that the
# daemon's user with the groups the group database gives it (as login and systemd give them) opens each one.
say "chips: $(ls -l /dev/gpiochip* | awk '{print $1, $4, $NF}' | paste -sd' '); $(id recoverydeck)"
say "as recoverydeck with its groups: $(setpriv --reuid=recoverydeck --regid=recoverydeck --init-groups sh -c 'id; for c in /dev/gpiochip*; do : < $c && echo $c opened; done' 2>&1 | paste -sd' ')"
recoverydeck doctor > doctor-root.txt 2>&1 || fail "root's doctor says the box is not ready: $(cat doctor-root.txt)"
ok "doctor exits 0 for root: $(grep -c '^ok' doctor-root.txt) checks ok, $(grep -c '^WARN' doctor-root.txt) warnings"
# The rest of the box's own checks are the arm64 box's (on x86 the upgrade has replaced the morning's daemon).
if [ "$scope" = box ]; then
as alice recoverydeck doctor > doctor-alice.txt 2>&1 \
    || fail "alice's doctor says the box is not ready: $(cat doctor-alice.txt)"
ok "doctor exits 0 for alice: $(grep -c '^ok' doctor-alice.txt) checks ok, $(grep -c '^WARN' doctor-alice.txt) warnings"
figure daemon_hwm_kib "$(awk '/^VmHWM:/ {print $2}' "/proc/$(main_pid)/status")" KiB "VmHWM after a morning, a pairing and doctor"
# The Swift runtime warns on stderr, on 16 KiB pages, that its backtracer is off: nothing a person reads (the
# commands' output above, the daemon's journal) may carry it.
if grep -il 'backtrac' ./*.out ./*.err ./*.txt ./*.json 2>/dev/null || journal_since 0 | grep -i 'backtrac'; then
    fail "the Swift runtime's backtracer warning reached a person (files above, or the daemon's journal)"
fi
ok "no backtracer warning in what alice, root or the journal saw"
fi
# The arm64 box's boot with rdcheck.unittests=1: the arm64 test binary's tests that qemu-user cannot run
# (Tests/stages/18-arm64-tests.sh names them and why), run here on the arm64 kernel by Swift Testing's
# runner; every one of them must have run and passed.
if grep -qw 'rdcheck.unittests=1' /proc/cmdline; then
    tests=$bench/unit-tests
    count=$(wc -l < $tests/ids)
    (cd /tmp && $tests/RecoveryDeckPackageTests.xctest --testing-library swift-testing --filter "$(cat $tests/filter)") \
        > unit-tests.log 2>&1 || fail "the arm64 tests qemu-user cannot run failed here: $(grep -E -A4 'recorded an issue|error|fatal' unit-tests.log | head -20; tail -2 unit-tests.log)"
    grep -Eq "Test run with $count tests? passed" unit-tests.log \
        || fail "the runner did not say that all $count of $(paste -sd' ' $tests/ids) passed: $(tail -3 unit-tests.log)"
    ok "the arm64 tests qemu-user cannot run passed here ($(uname -r)): $(paste -sd' ' $tests/ids); $(grep -E 'Test run with' unit-tests.log | sed 's/^[^T]*//')"
fi
if [ "$scope" = box ]; then exit 0; fi

# --- restart, kill -9, stop, and the watchdog. ------------------------------------------------------------
old=$(main_pid)
systemctl restart recoverydeckd
wait_active 60 "$old"
ok "systemctl restart: a new daemon READY (pid $old → $(main_pid))"
old=$(main_pid); restarts=$(unit_prop NRestarts)
kill -KILL "$old"
wait_active 60 "$old"
[ "$(unit_prop NRestarts)" = $((restarts + 1)) ] || fail "kill -9 was not followed by Restart=on-failure"
as alice recoverydeck history --days 1 | grep -q "$today" || fail "the morning is gone after kill -9"
ok "kill -9: restarted by Restart=on-failure (NRestarts $(unit_prop NRestarts)), the morning kept"
systemctl stop recoverydeckd
[ "$(unit_prop ActiveState)" = inactive ] && [ "$(unit_prop Result)" = success ] \
    || fail "systemctl stop left the unit $(unit_prop ActiveState)/$(unit_prop Result)"
systemctl start recoverydeckd
wait_active 60
ok "systemctl stop: inactive, result success; started again"
old=$(main_pid); stopped_at=$(date +%s)
kill -STOP "$old"
i=0
until [ "$(main_pid)" != "$old" ] && [ "$(unit_prop ActiveState)" = active ]; do
    i=$((i + 1)); [ $i -le 240 ] || fail "the watchdog did not restart a stopped daemon within 120 s"
    sleep 0.5
done
journalctl -u recoverydeckd -b --no-pager | grep -qi 'watchdog' || fail "the journal does not say the watchdog fired"
figure watchdog_restart_s $(( $(date +%s) - stopped_at )) s "kill -STOP to a new daemon active (WatchdogSec=30s)"
ok "the watchdog restarted a daemon whose loop was stopped ($(( $(date +%s) - stopped_at )) s)"

# --- The power cuts, replayed from the block log. ---------------------------------------------------------
systemctl stop recoverydeckd
umount /var/lib/recoverydeck
dmsetup remove rdstate
bash $bench/guest-powercuts.sh "$OUT" || fail "power cuts: see powercuts.txt"
ok "power cuts: $(tail -1 "$OUT/powercuts.txt")"
# The box's data back on its root file system for the package's own remove and purge.
mkdir -p /mnt/state
mount /dev/vdb /mnt/state
cp -a /mnt/state/. /var/lib/recoverydeck/
umount /mnt/state
systemctl start recoverydeckd
wait_active 60

# --- remove keeps the data, purge deletes it. -----------------------------------------------------------
days_before=$(mornings)
apt-get remove -y -q recoverydeck > remove.log 2>&1 || fail "apt-get remove failed: $(tail -3 remove.log)"
[ -f /var/lib/recoverydeck/recoverydeck.db ] || fail "remove deleted the database"
systemctl is-active -q recoverydeckd && fail "the daemon runs after remove"
apt-get install -y -q "$newer" > reinstall.log 2>&1 || fail "reinstall failed: $(tail -3 reinstall.log)"
wait_active 60
days_after=$(mornings)
[ "$days_after" = "$days_before" ] || fail "reinstalled after remove: $days_after mornings, $days_before before"
apt-get purge -y -q recoverydeck > purge.log 2>&1 || fail "apt-get purge failed: $(tail -3 purge.log)"
[ ! -e /var/lib/recoverydeck ] || fail "purge left /var/lib/recoverydeck: $(ls -la /var/lib/recoverydeck)"
grep -q 'deleted /var/lib/recoverydeck' purge.log || fail "purge did not say it deleted the history"
ok "remove kept $days_before mornings (back after reinstall); purge deleted /var/lib/recoverydeck and said so"

# --- For the second boot: the box installed afresh, bluez gone. ------------------------------------------
apt-get install -y -q "$newer" > install3.log 2>&1 || fail "install for the second boot failed"
wait_active 60
apt-get purge -y -q bluez > bluez.log 2>&1 || fail "could not remove bluez: $(tail -3 bluez.log)"
ok "bluez purged; the second boot starts without bluetoothd"
