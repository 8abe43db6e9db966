# recoverydeckd refusing to start on kernel GPIO lines it cannot have (gpio-sim): a line already held by
# another consumer, no chip with the label, a chip with too few lines. Each: exit status 1, one sentence
# naming the line or chip, every line it did get released again. The daemon is $BIN/recoverydeckd unless
# RECOVERYDECKD names another build (faults-v2.sh: libgpiod v2).
# vm-timeout: 90
. "$VM_LIB"
daemon=${RECOVERYDECKD:-$BIN/recoverydeckd-sim}
module=$REPO/.build/gpio-sim/recoverydeck-gpio-sim.ko
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
lsmod | grep -q recoverydeck_gpio_sim || insmod "$module" || fail "insmod $module failed"
chip() { # NAME LABEL LINES
    local dev=/sys/kernel/config/gpio-sim/$1
    [ -d "$dev" ] && return 0 # made by an earlier run of this scenario in the same VM
    mkdir "$dev" "$dev/bank0"
    echo "$2" > "$dev/bank0/label"
    echo "$3" > "$dev/bank0/num_lines"
    echo 1 > "$dev/live"
}
# Labels of their own: the chips of other scenarios in this VM may still be there.
chip fbusy fault-busy 58
chip fshort fault-short 24
box=$(mktemp -d)
# refused NAME LABEL SENTENCE: the daemon on LABEL exits 1 within 20 s with exactly SENTENCE in its log.
refused() {
    cat > "$box/$1.conf" <<CONF
database = $box/$1.db
control_socket = $box/$1.sock
panel = gpio
chip_label = $2
strap = simulated
reminder = off
CONF
    set +e
    timeout 20 "$daemon" --config "$box/$1.conf" > "$1.log" 2>&1
    local rc=$?
    set -e
    cat "$1.log"
    [ $rc = 1 ] || fail "$1: exit status $rc, not 1"
    grep -qF "$3" "$1.log" || fail "$1: the log does not say: $3"
    gpioinfo "$2" > "$1-after.txt" 2>&1 || true
    if grep -E '"(go-button|keypad-[a-z0-9]+|red|yellow|green|blue|buzzer)"' "$1-after.txt"; then
        fail "$1: lines still held after the refusal"
    fi
    say "$1: refused as it should be"
}

gpioset --mode=signal fault-busy 18=0 &
holder=$!
sleep 1
gpioinfo fault-busy | grep -q '"gpioset"' || fail "gpioset does not hold GPIO18"
refused held fault-busy "The panel could not be opened: GPIO18 (buzzer) could not be requested: Device or resource busy"
kill "$holder"; wait "$holder" 2>/dev/null || true
refused missing pinctrl-bcm2712 \
    'The panel could not be opened: No GPIO chip labelled "pinctrl-bcm2712" was found; chips present: gpiochip'
grep -q '(fault-busy), .*(fault-short)' missing.log || fail "missing: the chips present are not listed"
refused short fault-short \
    'The panel could not be opened: GPIO24 (green) is not on GPIO chip "fault-short", which has 24 lines (0–23).'
