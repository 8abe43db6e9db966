#!/usr/bin/env bash
# Packaging stage: the hardened unit's exposure score, the manual pages and completion, the .deb
# (contents, control data, 16 KiB-page alignment of its binaries), and a real install, upgrade,
# remove and purge of it into a scratch root with dpkg's own maintainer-script handling.
# Takes about as long as one release build of the package (it reuses .build/release when current).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
export PATH="/opt/swift/usr/bin:$PATH"
deploy/dev-setup --tests >&2

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
)
listing=$(awk '{ print $1, $2, $6 }' <<<"$contents")
for line in "${expect[@]}"; do
    grep -qxF -- "$line" <<<"$listing" || fail "package lacks '$line'"
done
if grep -v ' root/root ' <<<"$listing" | grep -q .; then fail "files not owned by root/root"; fi
pass "package $(basename "$deb"): $(grep -c . <<<"$contents") entries, Depends: $depends"

root="$work/extract"
dpkg-deb -x "$deb" "$root"
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
[ "$(stat -c '%u %a' "$sr/var/lib/recoverydeck")" = "$uid 700" ] ||
    fail "/var/lib/recoverydeck is not the daemon user's, 0700: $(stat -c '%u %a' "$sr/var/lib/recoverydeck")"
pass "install created user $uid, gpio membership and the state directory"

# An upgrade keeps a locally edited configuration file and the data.
echo "reminder = 07:15" >>"$sr/etc/recoverydeck/recoverydeck.conf"
echo "a morning" >"$sr/var/lib/recoverydeck/recoverydeck.db"
deb2=$(deploy/build-deb --no-build --out "$work/out2" --version 1.0.1)
dpkgr -i "$deb2" >"$work/upgrade.log" 2>&1 || fail "upgrade failed: $(cat "$work/upgrade.log")"
grep -q '^reminder = 07:15$' "$sr/etc/recoverydeck/recoverydeck.conf" || fail "upgrade lost the local configuration"
[ "$(cat "$sr/var/lib/recoverydeck/recoverydeck.db")" = "a morning" ] || fail "upgrade touched the data"
grep -q 'installed. Pair the strap' "$work/upgrade.log" && fail "upgrade printed the first-install message"

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

echo "70-packaging: $((($(date +%s) - started))) s" >&2
if [ $failures -gt 0 ]; then
    echo "70-packaging: $failures failure(s)" >&2
    exit 1
fi
