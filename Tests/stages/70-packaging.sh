#!/usr/bin/env bash
# Packaging stage: the hardened unit's exposure score, the manual pages and completion, the .deb
# (contents, control data, 16 KiB-page alignment of its binaries), and a real install, upgrade,
# remove and purge of it into a scratch root with dpkg's own maintainer-script handling.
# Takes about as long as one release build of the package (it reuses .build/release when current).
. "$(dirname "$0")/preamble.bash"

started=$(date +%s)
failures=0
fail() { echo "70-packaging: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "70-packaging: ok: $*" >&2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- The unit: systemd-analyze security, offline (systemd 252 has --offline). ---------------
unit=deploy/recoverydeckd.service
analysis=$(systemd-analyze security --offline=yes "$unit" 2>&1) || true
score=$(printf '%s\n' "$analysis" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
if [ -z "$score" ]; then
    fail "systemd-analyze security gave no score: $analysis"
elif awk -v s="$score" 'BEGIN { exit !(s <= 1.8) }'; then
    pass "unit exposure $score (limit 1.8)"
else
    fail "unit exposure $score is above 1.8"
fi
for setting in Type=notify WatchdogSec= User=recoverydeck SupplementaryGroups=gpio StateDirectory=recoverydeck \
    ConfigurationDirectory=recoverydeck RuntimeDirectory=recoverydeck AmbientCapabilities=CAP_NET_ADMIN \
    CapabilityBoundingSet=CAP_NET_ADMIN "RestrictAddressFamilies=AF_BLUETOOTH AF_UNIX" IPAddressDeny=any \
    DevicePolicy=closed "DeviceAllow=char-gpiochip rw" SystemCallFilter=@system-service PrivateNetwork=no; do
    grep -q "^$setting" "$unit" || fail "unit lacks $setting"
done

# --- Manual pages: groff and mandoc both silent. ----------------------------------------------
for page in deploy/man/*.[0-9]; do
    out=$(groff -man -ww -z "$page" 2>&1)
    [ -z "$out" ] || fail "groff warns on $page: $out"
    out=$(mandoc -T lint -W warning "$page" 2>&1) || true
    [ -z "$out" ] || fail "mandoc warns on $page: $out"
    out=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
    [ -z "$out" ] || fail "man -l warns on $page: $out"
done
pass "manual pages render without warnings"
bash -n deploy/completion/recoverydeck.bash || fail "completion script has a syntax error"

# --- The package. -----------------------------------------------------------------------------
deb=$(deploy/build-deb --out "$work/out" --version 1.0.0)
info=$(dpkg-deb -I "$deb")
contents=$(dpkg-deb -c "$deb")
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = recoverydeck ] || fail "package name is $(field Package)"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "architecture is $(field Architecture)"
depends=$(field Depends)
for lib in libc6 libsqlite3-0 libgpiod2 systemd; do
    [[ ", $depends," == *", $lib"[\ ,]* ]] || fail "Depends lacks $lib: $depends"
done
[[ "$depends" != *swift* ]] || fail "Depends names a Swift runtime: $depends"
[ "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles)" = /etc/recoverydeck/recoverydeck.conf ] ||
    fail "conffiles is not exactly /etc/recoverydeck/recoverydeck.conf"
for script in postinst prerm postrm; do
    grep -q " $script " <<<"$info" || fail "no $script maintainer script"
done
expect=(
    "-rwxr-xr-x root/root ./usr/bin/recoverydeck"
    "-rwxr-xr-x root/root ./usr/bin/recoverydeckd"
    "-rw-r--r-- root/root ./usr/lib/systemd/system/recoverydeckd.service"
    "-rw-r--r-- root/root ./usr/lib/sysusers.d/recoverydeck.conf"
    "-rw-r--r-- root/root ./usr/lib/udev/rules.d/60-recoverydeck-gpio.rules"
    "-rw-r--r-- root/root ./etc/recoverydeck/recoverydeck.conf"
    "-rw-r--r-- root/root ./usr/share/man/man1/recoverydeck.1.gz"
    "-rw-r--r-- root/root ./usr/share/man/man5/recoverydeck.conf.5.gz"
    "-rw-r--r-- root/root ./usr/share/man/man8/recoverydeckd.8.gz"
    "-rw-r--r-- root/root ./usr/share/bash-completion/completions/recoverydeck"
    "-rw-r--r-- root/root ./usr/share/doc/recoverydeck/copyright"
)
listing=$(awk '{ print $1, $2, $6 }' <<<"$contents")
for line in "${expect[@]}"; do
    grep -qxF -- "$line" <<<"$listing" || fail "package lacks '$line'"
done
if grep -v ' root/root ' <<<"$listing" | grep -q .; then fail "files not owned by root/root"; fi
pass "package $(basename "$deb"): $(grep -c . <<<"$contents") entries, Depends: $depends"

root="$work/extract"
dpkg-deb -x "$deb" "$root"
# Debian policy 12.5: a machine-readable copyright file, every Files paragraph with a licence.
copyright="$root/usr/share/doc/recoverydeck/copyright"
[ "$(head -1 "$copyright")" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ] ||
    fail "the copyright file is not in the copyright-format 1.0"
files=$(grep -c '^Files:' "$copyright")
licences=$(awk '/^Files:/ { f = 1 } /^License:/ && f { n++; f = 0 } END { print n + 0 }' "$copyright")
[ "$files" -ge 1 ] && [ "$files" = "$licences" ] || fail "copyright: $files Files paragraphs, $licences with a License"
pass "copyright file: $files Files paragraphs, each with its License"
# 16 KiB pages (Raspberry Pi 5 kernels): every LOAD segment must be aligned to at least 0x4000.
for exe in recoverydeck recoverydeckd; do
    aligns=$(readelf -lW "$root/usr/bin/$exe" | awk '$1 == "LOAD" { print $NF }')
    [ -n "$aligns" ] || fail "$exe has no LOAD segments"
    for a in $aligns; do
        [ $((a)) -ge $((0x4000)) ] || fail "$exe has a LOAD segment aligned to $a (< 0x4000)"
    done
    pass "$exe LOAD alignment: $(echo $aligns)"
    if readelf -d "$root/usr/bin/$exe" | grep -q 'NEEDED.*libswift'; then fail "$exe needs a Swift shared library"; fi
done
# The unit, pointed at the packaged binary, passes systemd's own checks.
sed "s|^ExecStart=/usr/bin/|ExecStart=$root/usr/bin/|" "$root/usr/lib/systemd/system/recoverydeckd.service" \
    >"$work/recoverydeckd.service"
out=$(systemd-analyze verify --man=no "$work/recoverydeckd.service" 2>&1) || fail "systemd-analyze verify: $out"

# --- Every command of the CLI registry is in the manual page and the completion. ---------------
cli="$root/usr/bin/recoverydeck"
names=$("$cli" --help | awk '/^COMMANDS:/ { on = 1; next } on && /^  [^ ]/ { sub(/^  /, ""); split($0, a, "  "); print a[1]; next } on && !/^   / { on = 0 }')
[ -n "$names" ] || fail "recoverydeck --help lists no commands"
page=deploy/man/recoverydeck.1
completion=deploy/completion/recoverydeck.bash
top=$(sed -n 's/^ *local commands="\(.*\)"$/\1/p' "$completion")
before=$failures
while IFS= read -r name; do
    [ -n "$name" ] || continue
    grep -qE "^\.B $name( |\$)" "$page" || fail "recoverydeck(1) does not describe '$name'"
    first=${name%% *}
    [[ " $top " == *" $first "* ]] || fail "the completion does not offer '$first'"
    if [ "$first" != "$name" ]; then
        group=$(sed -n "s/.*\[$first\]=\"\([^\"]*\)\".*/\1/p" "$completion")
        [[ " $group " == *" ${name#* } "* ]] || fail "the completion does not offer '$name'"
    fi
done <<<"$names"
# The completion, loaded by bash-completion, completes what a person types.
complete_words() {
    bash -c 'source /usr/share/bash-completion/bash_completion; source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _recoverydeck; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@"
}
# Every option of every command's --help: offered by the completion after that command, and named
# in the manual page.
manual=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l -Tutf8 "$page" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g')
while IFS= read -r name; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086 # a group name is two words
    # The help must come out and list --help among its options, or the check below would pass on nothing.
    # shellcheck disable=SC2086
    if ! help=$("$cli" $name --help 2>&1); then
        fail "recoverydeck $name --help failed: $help"
        continue
    fi
    listed=$(awk '/^OPTIONS:/ { on = 1; next } /^[A-Z ]+:$/ { on = 0 } on' <<<"$help" |
        grep -oE '^  (-[a-z], )?--[a-z-]+' | sed 's/.*--/--/') || true
    grep -qx -- '--help' <<<"$listed" || fail "recoverydeck $name --help lists no options (not even --help)"
    options=$(grep -vx -- '--help' <<<"$listed") || true  # a command whose only option is --help
    # shellcheck disable=SC2086
    offered=" $(complete_words recoverydeck $name -- | tr '\n' ' ') "
    for option in $options; do
        [[ "$offered" == *" $option "* ]] || fail "the completion does not offer '$name $option'"
        grep -qF -- "$option" <<<"$manual" || fail "recoverydeck(1) does not name '$name $option'"
    done
done <<<"$names"
[ $failures = "$before" ] && pass "manual page and completion cover every command and option: $(echo $names | tr '\n' ' ')"
[ "$(complete_words recoverydeck doc)" = doctor ] || fail "'recoverydeck doc<TAB>' does not complete to doctor"
[ "$(complete_words recoverydeck import c)" = csv ] || fail "'recoverydeck import c<TAB>' does not complete to csv"
[ "$(complete_words recoverydeck report --s)" = --svg ] || fail "'recoverydeck report --s<TAB>' does not complete to --svg"

# --- The documented configuration is the daemon's: deploy/recoverydeck.conf passes its own check and
# states each key's built-in default, and recoverydeck.conf(5) names every key the daemon knows. ---
daemon="$root/usr/bin/recoverydeckd"
"$daemon" --help 2>&1 | grep -q -- '--print-config' || fail "recoverydeckd --help does not offer --print-config"
before=$failures
out=$("$daemon" --check-config --config deploy/recoverydeck.conf 2>&1) || fail "recoverydeckd rejects deploy/recoverydeck.conf: $out"
defaults=$("$daemon" --print-config | grep -v '^#' | grep . | sed 's/ *$//')
shipped=$(grep -v '^#' deploy/recoverydeck.conf | grep . | sed 's/ *$//')
while IFS= read -r line; do
    grep -qxF -- "$line" <<<"$defaults" || fail "deploy/recoverydeck.conf's '$line' is not the daemon's default"
done <<<"$shipped"
manual5=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l deploy/man/recoverydeck.conf.5 2>/dev/null)
for key in $(cut -d' ' -f1 <<<"$defaults"); do
    grep -qw -- "$key" <<<"$manual5" || fail "recoverydeck.conf(5) does not document '$key'"
done
[ $failures = "$before" ] && pass "deploy/recoverydeck.conf and recoverydeck.conf(5) match the daemon's $(grep -c . <<<"$defaults") keys"

# The released daemon holds only the product: none of the simulation module's symbols (its stepped clock, virtual
# strap, simulated panel, chip and script, press and advance requests) in the release build the package strips
# (ProjectTests checks the debug one).
release_daemon=.build/release/recoverydeckd
[ "$(nm "$release_daemon" | wc -l)" -gt 1000 ] || fail "nm lists too few symbols of $release_daemon to judge"
found=$(nm "$release_daemon" | grep -E '10Simulation|SteppedClock|ScaledClock|VirtualStrap|SimulatedPanel|SimulatedChip|PanelScript' | head -3 || true)
[ -z "$found" ] && pass "the release recoverydeckd holds none of the simulation's symbols" \
    || fail "the release recoverydeckd holds the simulation: $found"

# The unit's system call filter (@system-service without @privileged and @resources) allows every
# call the daemon makes: started unprivileged with the simulated panel and strap, traced, stopped. The box's
# daemon has no simulated strap, so it is the same code on a simulated box: recoverydeckd-sim, built alike.
swift build -c release --product recoverydeckd-sim --static-swift-stdlib >&2
expand() { # the system calls of a systemd group, nested groups expanded
    systemd-analyze syscall-filter "$1" | awk 'NR > 1 && $1 !~ /^#/ && NF { print $1 }' | while read -r m; do
        case "$m" in @*) expand "$m" ;; *) echo "$m" ;; esac
    done
}
sim="$work/simulated"
mkdir -p "$sim"
chmod 0711 "$work"
chown nobody "$sim"
# control_group: the daemon's own group, as recoverydeck is on the box.
printf 'database = %s/r.db\ncontrol_socket = %s/control.sock\ncontrol_group = nogroup\npanel = simulated\nstrap = simulated\n' \
    "$sim" "$sim" >"$sim/d.conf"
echo 'speed = 20' >"$sim/s.conf"
cp .build/release/recoverydeckd-sim "$sim/recoverydeckd-sim"
timeout -s TERM 8 setpriv --reuid=nobody --regid=nogroup --clear-groups \
    strace -f -qq -o "$sim/trace" "$sim/recoverydeckd-sim" --config "$sim/d.conf" --simulation "$sim/s.conf" >"$sim/log" 2>&1 || true
grep -q 'ready' "$sim/log" || fail "the simulated daemon did not start: $(cat "$sim/log")"
calls=$(sed -E 's/^[0-9]+ +//' "$sim/trace" 2>/dev/null | grep -oE '^[a-z_0-9]+\(' | tr -d '(' | sort -u) || true
[ -n "$calls" ] || fail "strace recorded no system call of the daemon"
before=$failures
allowed=$(expand @system-service | sort -u)
denied=$( (expand @privileged; expand @resources) | sort -u)
for call in $calls; do
    if ! grep -qx "$call" <<<"$allowed" || grep -qx "$call" <<<"$denied"; then
        fail "the unit's SystemCallFilter refuses $call, which the daemon calls"
    fi
done
[ $failures = "$before" ] && pass "the unit's system call filter allows all $(wc -w <<<"$calls") system calls of a simulated run"

# --- report --svg renders: a synthetic 150-day history ending today (the packaged binary reads the system's
# clock and takes no stated time), imported, charted, drawn by rsvg-convert. ---
rep="$work/report"
mkdir -p "$rep"
python3 - "$rep/history.csv" <<'PY'
# Seeded synthetic history (seed 5) over the 150 days through today: a slowly wandering recovery state, 8 % of
# mornings missed.
import datetime, random, sys
random.seed(5)
rows = ["date,rmssd,lying_hr,standing_hr,peak_hr,fatigue,mood,soreness,stress,sleep"]
state = 0.0
for i in range(150):
    d = datetime.date.today() - datetime.timedelta(days=149 - i)
    state = 0.75 * state + random.gauss(0, 1)
    if random.random() < 0.08:
        continue
    hr = 52 - 1.5 * state + random.gauss(0, 1.5)
    rise = 18 - state + random.gauss(0, 2)
    scores = [max(1, min(7, round(5 + 0.6 * state + random.gauss(0, 0.8)))) for _ in range(5)]
    rows.append(f"{d},{60 + 6 * state + random.gauss(0, 4):.1f},{hr:.0f},{hr + rise:.0f},{hr + rise + 12:.0f},"
                + ",".join(map(str, scores)))
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY
export RECOVERYDECK_DB="$rep/r.db"
"$cli" import csv "$rep/history.csv" --map \
    date=date,rmssd=rmssd,lying_hr=lying_hr,standing_hr=standing_hr,peak_hr=peak_hr,fatigue=fatigue,mood=mood,soreness=soreness,stress=stress,sleep=sleep \
    >/dev/null 2>"$rep/import.log" || fail "import for the report failed: $(cat "$rep/import.log")"
"$cli" report --days 90 --svg "$rep/r.svg" 2>/dev/null || fail "report --svg failed"
unset RECOVERYDECK_DB
rsvg-convert "$rep/r.svg" -o "$rep/r.png" || fail "rsvg-convert could not render the report"
python3 Tests/stages/70-packaging-png.py report "$rep/r.png" || fail "the rendered report is not what a person should see"
pass "report --svg renders through rsvg-convert with the band, values and lights"

# --- The wiring picture is its drawing, rendered (hardware/README.md says how). ---------------------
rsvg-convert -w 1240 hardware/wiring.svg -o "$work/wiring.png" || fail "rsvg-convert could not render hardware/wiring.svg"
python3 Tests/stages/70-packaging-png.py same "$work/wiring.png" hardware/wiring.png &&
    pass "hardware/wiring.png is hardware/wiring.svg rendered" ||
    fail "hardware/wiring.png is stale: render it again from hardware/wiring.svg"

# --- Install, upgrade, remove, purge into a scratch root (dpkg --root, scripts run with DPKG_ROOT). ---
sr="$work/scratch"
mkdir -p "$sr/var/lib/dpkg/info" "$sr/var/lib/dpkg/updates" "$sr/etc"
touch "$sr/var/lib/dpkg/status"
grep -v '^gpio:' /etc/group >"$sr/etc/group"
grep -v '^recoverydeck:' /etc/passwd >"$sr/etc/passwd"
cp /etc/shadow /etc/gshadow "$sr/etc/" 2>/dev/null || true
sed -i '/^gpio:/d;/^recoverydeck:/d' "$sr/etc/group" "$sr/etc/shadow" "$sr/etc/gshadow" 2>/dev/null || true
dpkgr() { dpkg --root="$sr" --force-script-chrootless --force-depends --log=/dev/null "$@"; }
dpkgr -i "$deb" >"$work/install.log" 2>&1 || fail "install failed: $(cat "$work/install.log")"
grep -q '^recoverydeck:x:[0-9]*:[0-9]*:.*:/var/lib/recoverydeck:/usr/sbin/nologin$' "$sr/etc/passwd" ||
    fail "postinst did not create the recoverydeck system user"
grep -Eq '^gpio:x:[0-9]+:(.*,)?recoverydeck(,.*)?$' "$sr/etc/group" ||
    fail "postinst did not create the gpio group with recoverydeck in it"
uid=$(awk -F: '$1 == "recoverydeck" { print $3 }' "$sr/etc/passwd")
gid=$(awk -F: '$1 == "recoverydeck" { print $3 }' "$sr/etc/group")
[ "$(stat -c '%u %g %a' "$sr/var/lib/recoverydeck")" = "$uid $gid 2770" ] ||
    fail "/var/lib/recoverydeck is not the daemon user's and the recoverydeck group's, 2770: $(stat -c '%u %g %a' "$sr/var/lib/recoverydeck")"
pass "install created user $uid, gpio membership and the state directory"

# An upgrade keeps a locally edited configuration file and the data.
echo "reminder = 07:15" >>"$sr/etc/recoverydeck/recoverydeck.conf"
echo "a morning" >"$sr/var/lib/recoverydeck/recoverydeck.db"
deb2=$(deploy/build-deb --no-build --out "$work/out2" --version 1.0.1)
dpkgr -i "$deb2" >"$work/upgrade.log" 2>&1 || fail "upgrade failed: $(cat "$work/upgrade.log")"
grep -q '^reminder = 07:15$' "$sr/etc/recoverydeck/recoverydeck.conf" || fail "upgrade lost the local configuration"
[ "$(cat "$sr/var/lib/recoverydeck/recoverydeck.db")" = "a morning" ] || fail "upgrade touched the data"
grep -q 'installed. Add yourself' "$work/upgrade.log" && fail "upgrade printed the first-install message"

dpkgr -r recoverydeck >"$work/remove.log" 2>&1 || fail "remove failed: $(cat "$work/remove.log")"
[ -f "$sr/var/lib/recoverydeck/recoverydeck.db" ] || fail "remove deleted the data"
grep -q 'is kept; `apt purge recoverydeck` deletes it' "$work/remove.log" || fail "remove did not say the data is kept"
[ -f "$sr/etc/recoverydeck/recoverydeck.conf" ] || fail "remove deleted the configuration"

dpkgr -P recoverydeck >"$work/purge.log" 2>&1 || fail "purge failed: $(cat "$work/purge.log")"
[ ! -e "$sr/var/lib/recoverydeck" ] || fail "purge left /var/lib/recoverydeck"
grep -q 'purge deletes the measurement history in /var/lib/recoverydeck' "$work/purge.log" ||
    fail "purge did not say what happens to the data"
[ ! -e "$sr/etc/recoverydeck/recoverydeck.conf" ] || fail "purge left the configuration"
pass "upgrade keeps configuration and data; remove keeps data and says so; purge deletes it and says so"

# --- The maintainer scripts on a box that runs systemd: enable and start on first install, restart on
# upgrade, stop on remove. systemd's tools are stubs that log their calls; /run is private so that
# /run/systemd/system exists for the scripts alone. (Purge is covered above: it deletes data.) ---
stubs="$work/stubs"
mkdir -p "$stubs"
for tool in systemd-sysusers udevadm deb-systemd-helper deb-systemd-invoke systemctl install; do
    printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n' "$tool" "$stubs" >"$stubs/$tool"
    chmod +x "$stubs/$tool"
done
maint() { # SCRIPT ARGS…: run a maintainer script as dpkg would on a live systemd box; prints the calls
    rm -f "$stubs/calls"
    unshare -m sh -c 'mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system && PATH="$0:$PATH" exec sh "$@"' \
        "$stubs" "$@" >"$stubs/out" 2>&1 || fail "$* failed: $(cat "$stubs/out")"
    cat "$stubs/calls" 2>/dev/null || true
}
before=$failures
calls=$(maint deploy/debian/postinst configure "")
for expected in "systemd-sysusers recoverydeck.conf" "deb-systemd-helper enable recoverydeckd.service" \
    "systemctl --system daemon-reload" "deb-systemd-invoke start recoverydeckd.service"; do
    grep -qxF "$expected" <<<"$calls" || fail "first install does not run '$expected': $calls"
done
grep -q 'installed. Add yourself to the box.s group' "$stubs/out" || fail "first install does not say what to do next"
calls=$(maint deploy/debian/postinst configure 1.0.0)
grep -qxF "deb-systemd-invoke restart recoverydeckd.service" <<<"$calls" || fail "upgrade does not restart: $calls"
grep -q "invoke start" <<<"$calls" && fail "upgrade starts a stopped daemon: $calls"
calls=$(maint deploy/debian/prerm remove)
grep -qxF "deb-systemd-invoke stop recoverydeckd.service" <<<"$calls" || fail "remove does not stop the daemon: $calls"
calls=$(maint deploy/debian/prerm upgrade 1.0.1)
[ -z "$calls" ] || fail "prerm upgrade touches the service: $calls"
[ $failures = "$before" ] && pass "maintainer scripts enable and start, restart on upgrade, stop on remove"

echo "70-packaging: $((($(date +%s) - started))) s" >&2
if [ $failures -gt 0 ]; then
    echo "70-packaging: $failures failure(s)" >&2
    exit 1
fi
