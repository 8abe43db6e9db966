# recoverydeckd on real kernel GPIO lines (gpio-sim, built by Tests/stages/45-gpio-vm.sh) in the VM, for the
# Raspberry Pi 4 label (pinctrl-bcm2711, 58 lines) and the Pi 5 one (pinctrl-rp1, 54 lines), both mornings
# at once in real time: questionnaire keyed on the keypad through the in-kernel matrix, GO with contact
# bounce, a key while measuring; on the Pi 4 chip a 2 s hold skips the orthostatic part, then the readout
# and the remeasure question; on the Pi 5 chip the whole morning with the stand cue. ftrace's gpio_value
# records every lamp and buzzer edge; check_edges.py holds each pattern to deploy/LIGHTS.md.
# The daemon is $BIN/recoverydeckd (libgpiod v1, Debian 12's) unless RECOVERYDECKD names another build and
# GPIOD_API its libgpiod API (kernel-gpio-v2.sh: the same mornings on libgpiod v2). The chips are removed at
# the end, so a later scenario in the same VM can make them again.
# vm-timeout: 280
. "$VM_LIB"
here=$REPO/Tests/stages/gpio
daemon=${RECOVERYDECKD:-$BIN/recoverydeckd-sim}
api=${GPIOD_API:-1}
module=$REPO/.build/gpio-sim/recoverydeck-gpio-sim.ko
[ -f "$module" ] || fail "no gpio-sim module at $module (Tests/stages/45-gpio-vm.sh builds it)"
[ -x "$daemon" ] || fail "no daemon at $daemon"
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
lsmod | grep -q recoverydeck_gpio_sim || insmod "$module" || fail "insmod $module failed"
tracing=/sys/kernel/tracing
mountpoint -q $tracing || mount -t tracefs nodev $tracing

# make_chip NAME LABEL LINES: a live gpio-sim chip; prints its sysfs folder and its first global number.
make_chip() {
    local dev=/sys/kernel/config/gpio-sim/$1
    mkdir "$dev" "$dev/bank0"
    echo "$2" > "$dev/bank0/label"
    echo "$3" > "$dev/bank0/num_lines"
    echo 1 > "$dev/live"
    local dir=/sys/devices/platform/$(cat "$dev/dev_name")/$(cat "$dev/bank0/chip_name")
    local base=""
    for c in /sys/class/gpio/gpiochip*; do
        [ "$(cat "$c/label")" = "$2" ] && base=$(cat "$c/base")
    done
    [ -n "$base" ] || fail "chip $2 has no global base in /sys/class/gpio"
    echo "$dir $base"
}
remove_chips() {
    local c
    for c in pi4 pi5; do
        [ -d /sys/kernel/config/gpio-sim/$c ] || continue
        echo 0 > /sys/kernel/config/gpio-sim/$c/live
        rmdir /sys/kernel/config/gpio-sim/$c/bank0 /sys/kernel/config/gpio-sim/$c
    done
}
read -r pi4 pi4_base < <(make_chip pi4 pinctrl-bcm2711 58)
read -r pi5 pi5_base < <(make_chip pi5 pinctrl-rp1 54)
gpiodetect > chips.txt
cat chips.txt
grep -q 'pinctrl-bcm2711.*(58 lines)' chips.txt || fail "the Pi 4 chip is not as made"
grep -q 'pinctrl-rp1.*(54 lines)' chips.txt || fail "the Pi 5 chip is not as made"

# Every output write, with CLOCK_MONOTONIC timestamps; reads are left out (the keypad scan reads often).
echo 0 > $tracing/tracing_on
echo > $tracing/trace
echo mono > $tracing/trace_clock
echo 8192 > $tracing/buffer_size_kb
echo 'get == 0' > $tracing/events/gpio/gpio_value/filter
echo 1 > $tracing/events/gpio/gpio_value/enable
echo 1 > $tracing/tracing_on

# Hands. Keypad (DESIGN §2): rows GPIO5, 6, 13, 19; columns GPIO12, 16, 20; 1 2 3 / 4 5 6 / 7 8 9 / * 0 #.
rows=(5 6 13 19) cols=(12 16 20)
key() { # CHIP KEY: closes the key's contact for 300 ms (the scan must see it twice, 30 ms apart, on a loaded emulated CPU)
    local chip=$1 i
    i=$(expr index "123456789*0#" "$2") || true
    [ "$i" -gt 0 ] || fail "no key $2"
    i=$((i - 1))
    echo "${rows[$((i / 3))]},${cols[$((i % 3))]}" > "$chip/matrix"
    sleep 0.3
    echo > "$chip/matrix"
}
go_down() { echo pull-down > "$1/sim_gpio17/pull"; }
go_up() { echo pull-up > "$1/sim_gpio17/pull"; }
go_bouncy() { # CHIP HOLD_SECONDS: a press that bounces (5 edges within ~1 ms) and a bouncing release
    go_down "$1"; go_up "$1"; go_down "$1"; go_up "$1"; go_down "$1"
    sleep "$2"
    go_up "$1"; go_down "$1"; go_up "$1"
}

box=$(mktemp -d)
config() { # NAME LABEL
    mkdir -p "$box/$1"
    cat > "$box/$1/recoverydeck.conf" <<CONF
database = $box/$1/recoverydeck.db
control_socket = $box/$1/control.sock
panel = gpio
chip_label = $2
strap = simulated
reminder = off
buzzer = on
log_level = info
CONF
    echo "simulated_seed = 11" > "$box/$1/simulation.conf"
}
config pi4 pinctrl-bcm2711
config pi5 pinctrl-rp1
# The guest's root is the host's, shared over 9p: a page of code the daemon runs for the first time is read
# from the host then, under emulation a stall that can lengthen a 70 ms beep. A box runs from its own flash, so
# the binary's and its libraries' pages are faulted into the guest's page cache first (page_in.py says how).
python3 "$here/page_in.py" "$daemon" $(ldd "$daemon" | awk '$2 == "=>" && $3 ~ /^\// {print $3}')
spawn d4 "$daemon" --config "$box/pi4/recoverydeck.conf" --simulation "$box/pi4/simulation.conf"
d4_pid=$bg_pid
spawn d5 "$daemon" --config "$box/pi5/recoverydeck.conf" --simulation "$box/pi5/simulation.conf"
d5_pid=$bg_pid
wait_for_line d4.log 'ready' 30
wait_for_line d5.log 'ready' 30
grep -F 'gpio chip pinctrl-bcm2711' d4.log | grep -qF "(API v$api)" \
    || fail "the Pi 4 daemon did not open its chip with libgpiod API v$api: $(grep -F 'gpio chip' d4.log)"
grep -F 'gpio chip pinctrl-rp1' d5.log | grep -qF "(API v$api)" \
    || fail "the Pi 5 daemon did not open its chip with libgpiod API v$api: $(grep -F 'gpio chip' d5.log)"
say "both daemons on libgpiod API v$api: $(grep -o 'library=.*' d4.log | head -1)"
gpioinfo pinctrl-bcm2711 > lines-pi4.txt
for consumer in go-button keypad-row1 keypad-col1 red yellow green blue buzzer; do
    grep -q "\"$consumer\"" lines-pi4.txt || fail "no line held by $consumer on the Pi 4 chip"
done
# Open drain: two keys of one column must not join a high row to the low one being read (hardware/pinmap.md).
for row in 1 2 3 4; do
    grep "\"keypad-row$row\"" lines-pi4.txt | grep -q 'open-drain' \
        || fail "keypad row $row is not open drain: $(grep "\"keypad-row$row\"" lines-pi4.txt)"
done
grep '"red"' lines-pi4.txt | grep -q 'open-drain' && fail "the red lamp is open drain: it must be driven high"

# checkin CHIP patient|ahead: the first key wakes the questionnaire (DESIGN §1 step 2), then five scores and #.
# patient: waits for each item's count (N blinks, 600 ms each) before keying it, as the cue asks; ahead: keys a
# digit a second, ahead of the longer counts (each key cuts the count it lands in).
checkin() {
    local n=0 k t
    for k in 1 5 6 5 4 6; do
        key "$1" "$k"
        n=$((n + 1))
        # tenths of a second: item n's count ends (2n - 1) x 300 ms after its key
        t=7
        [ "$2" = patient ] && [ $n -le 5 ] && t=$((n * 6 + 3))
        sleep "$((t / 10)).$((t % 10))"
    done
    key "$1" '#'
    sleep 1
}

# Pi 4: a patient check-in, GO (bouncy), a key while measuring, a 2 s hold that asks to skip, GO confirms; the
# morning ends after the lying phase; the 30 s readout; then GO asks to remeasure (and the question lapses).
pi4_morning() {
    checkin "$pi4" patient
    go_bouncy "$pi4" 0.15
    sleep 6
    key "$pi4" 5
    sleep 2
    go_bouncy "$pi4" 2.4
    sleep 1
    go_bouncy "$pi4" 0.15
    wait_for_line d4.log 'a morning was saved' 150
    say "pi4: morning saved"
    sleep 32
    go_bouncy "$pi4" 0.15
    sleep 7
    say "pi4: done"
}
# Pi 5: a check-in keyed ahead of the counts, GO, a key while measuring, the whole morning with the 3-2-1 stand cue.
pi5_morning() {
    checkin "$pi5" ahead
    go_bouncy "$pi5" 0.15
    sleep 8
    key "$pi5" 5
    wait_for_line d5.log 'a morning was saved' 230
    say "pi5: morning saved"
    sleep 2
}
started=$(date +%s)
( pi4_morning ) > pi4-hands.log 2>&1 &
p4=$!
( pi5_morning ) > pi5-hands.log 2>&1 &
p5=$!
rc4=0 rc5=0
wait $p4 || rc4=$?
wait $p5 || rc5=$?
figure gpio_vm_mornings_s $(( $(date +%s) - started )) s "both mornings, keyed and timed on kernel GPIO lines"
echo 0 > $tracing/tracing_on
cat $tracing/trace > trace.txt
# Major page faults while the mornings ran (field 12 of /proc/PID/stat): code read from the shared root.
figure gpio_vm_major_faults "$(cut -d' ' -f12 /proc/$d4_pid/stat)/$(cut -d' ' -f12 /proc/$d5_pid/stat)" faults \
    "Pi 4/Pi 5 daemon, whole run"
kill -TERM "$d4_pid" "$d5_pid"
wait "$d4_pid" || fail "recoverydeckd (pi4) did not stop cleanly"
wait "$d5_pid" || fail "recoverydeckd (pi5) did not stop cleanly"
gpioinfo pinctrl-bcm2711 > released-pi4.txt
grep -q 'go-button\|buzzer' released-pi4.txt && fail "lines still held after SIGTERM"
[ $rc4 = 0 ] || { cat pi4-hands.log; fail "the Pi 4 morning did not finish"; }
[ $rc5 = 0 ] || { cat pi5-hands.log; fail "the Pi 5 morning did not finish"; }
remove_chips
python3 "$here/check_edges.py" trace.txt "$REPO/deploy/LIGHTS.md" pi4="$pi4_base":skip pi5="$pi5_base":whole \
    | tee edges.txt || fail "a pattern on the kernel's lines differs from the light table"
