#!/usr/bin/env bash
# The box a Raspberry Pi owner installs, as arm64: Debian 13 "trixie" for arm64 (mmdebstrap from Debian's
# archive, the machine's apt sources untouched), the arm64 package installed with apt, booted under
# qemu-system-aarch64 (-M virt -cpu max, software emulation) with systemd as PID 1, once on Debian's
# linux-image-arm64 (4 KiB pages) and once on linux-image-arm64-16k (16 KiB pages, as a Pi 5 runs). Each boot runs
# the installed box's own checks (Tests/installed/guest-boot1.sh in its "box" scope): READY under the hardened
# unit, bluetoothd beside it, an outsider refused, alice (in the group, over SSH, no sudo) scans, pairs (btvirt
# over hci_vhci) and checks in, GO on GPIO17 of a gpio-sim chip labelled as a Pi's gives a whole morning in
# her history, doctor exits 0 for root and for her, no backtracer warning reaches her; and prints the
# daemon's start-to-READY time and memory beside the x86 box's. The boot on the 4 KiB kernel also runs, from
# stage 18's arm64 test binary, the tests stage 18 cannot run under qemu-user (it names them and says why).
#
# Kept in /var/cache/recoverydeck between runs (RECOVERYDECK_CACHE), each named after what went into it: the
# trixie base with both kernels, the module build root, and hci_vhci and gpio-sim for each exact kernel
# (Debian's arm64 kernels have neither). The arm64 package is the one 17-trixie-swift left in
# .build/artifacts for this commit, else built here the same way.
. "$(dirname "$0")/../stages/preamble.bash"
cache=${RECOVERYDECK_CACHE:-/var/cache/recoverydeck}
mirror=${RECOVERYDECK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
images=$repo/.build/arm64box
out=$repo/vm-out/arm64box
rm -rf "$out"; mkdir -p "$images" "$out" "$cache"
for tool in qemu-system-aarch64 mmdebstrap; do
    command -v "$tool" > /dev/null || { echo "arm64box: $tool is missing (deploy/dev-packages.txt)" >&2; exit 1; }
done
# An arm64 root's maintainer scripts run through qemu-user: the handler qemu-user-static ships, registered as
# systemd-binfmt registers it at boot on a machine that ran it (a container may not have).
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
    echo "arm64box: registered qemu-aarch64 with binfmt_misc (/usr/lib/binfmt.d/qemu-aarch64.conf)" >&2
fi

# The package as CI keeps it: 17-trixie-swift's, made in this run (after this commit was made), else built here.
artifacts=${RECOVERYDECK_ARTIFACTS:-$repo/.build/artifacts}
deb=$(find "$artifacts" -maxdepth 1 -name 'recoverydeck_*_arm64.deb' -newermt "@$(git log -1 --format=%ct)" \
    -printf '%T@ %p\n' 2>/dev/null | sort -n | tail -1 | cut -d' ' -f2- || true)
[ -n "$deb" ] || deb=$(deploy/build-deb --arch arm64 --out "$artifacts")
echo "arm64box: $deb" >&2
h10sim=$(Tests/arm64box/build-h10sim.sh "$images")
# The arm64 test suite as stage 18 builds it (kept, so only what changed is built), for the tests qemu-user
# cannot run: they run in the VM instead.
troot=$(deploy/trixie-root --cross arm64)
unit_tests=$(Tests/arm64box/build-tests.sh "$troot")
echo "arm64box: arm64 test build ready after $(( $(date +%s) - stage_start )) s" >&2

# The trixie arm64 base with both kernels and their initramfs, what Tests/installed/build-image.sh installs on
# x86 besides.
base=$(Tests/arm64box/build-base.sh "$cache" "$mirror")
echo "arm64box: base ready after $(( $(date +%s) - stage_start )) s" >&2

# Each kernel's two modules, in the image's /usr/lib/modules/RELEASE/updates (trixie has merged /usr).
overlay=$images/overlay
rm -rf "$overlay"
kernels=()
for flavour in arm64 arm64-16k; do
    release=$(ls "$base/lib/modules" | grep -E -- "-$flavour\$" | sort -V | tail -1)
    [ -n "$release" ] || { echo "arm64box: no $flavour kernel in $base" >&2; exit 1; }
    version=$(dpkg-query --admindir="$base/var/lib/dpkg" -W -f='${Version}' "linux-image-$release")
    modules=$(Tests/arm64box/build-modules.sh "$release" "$version" "$cache")
    install -d "$overlay/usr/lib/modules/$release/updates"
    install -m 0644 "$modules"/*.ko "$overlay/usr/lib/modules/$release/updates/"
    kernels+=("$release")
done
echo "arm64box: modules ready after $(( $(date +%s) - stage_start )) s" >&2
# The test binary, the tests it is to run (stage 18's skipped ones, by ID and as one --filter expression) and
# the shared Swift runtime it is linked against, where its rpath looks (the root's /opt/swift-aarch64).
runtime=opt/swift-aarch64/usr/libexec/swift/lib/swift/linux
install -d "$overlay/usr/local/lib/rdcheck/unit-tests" "$overlay/$runtime"
(
    flock -s 9
    install -m 0755 "$unit_tests/scratch/aarch64-unknown-linux-gnu/debug/RecoveryDeckPackageTests.xctest" \
        "$overlay/usr/local/lib/rdcheck/unit-tests/"
) 9>"$unit_tests.lock"
# The runtime's libraries the binary needs, and theirs in turn (readelf reads any architecture's).
needed=("$overlay/usr/local/lib/rdcheck/unit-tests/RecoveryDeckPackageTests.xctest")
while [ ${#needed[@]} -gt 0 ]; do
    for library in $(readelf -d "${needed[0]}" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        if [ -e "$troot/$runtime/$library" ] && [ ! -e "$overlay/$runtime/$library" ]; then
            cp "$troot/$runtime/$library" "$overlay/$runtime/"
            needed+=("$overlay/$runtime/$library")
        fi
    done
    needed=("${needed[@]:1}")
done
bash Tests/stages/18-arm64-tests.sh --skipped > "$overlay/usr/local/lib/rdcheck/unit-tests/ids"
bash Tests/stages/18-arm64-tests.sh --skipped-regex > "$overlay/usr/local/lib/rdcheck/unit-tests/filter"

RDCHECK_BASE=$base RDCHECK_OVERLAY=$overlay RDCHECK_BTVIRT=$base/usr/bin/btvirt \
    Tests/installed/build-image.sh "$deb" - "$h10sim" - - "$images" > /dev/null
echo "arm64box: image ready after $(( $(date +%s) - stage_start )) s" >&2

# One boot per kernel, each on the image as built (-snapshot: its writes are dropped with it).
rc=0
for release in "${kernels[@]}"; do
    pages=4k; [[ $release == *-16k ]] && pages=16k
    # The boot on Debian's plain arm64 kernel also runs the tests qemu-user cannot (guest-boot1.sh).
    append=""; [ $pages = 4k ] && append=rdcheck.unittests=1
    begun=$(date +%s)
    RDCHECK_QEMU="qemu-system-aarch64 -M virt -cpu max,pauth-impdef=on -accel tcg -snapshot" RDCHECK_CONSOLE=ttyAMA0 \
        RDCHECK_SCOPE=box RDCHECK_APPEND=$append RDCHECK_KERNEL=$base/boot/vmlinuz-$release RDCHECK_INITRD=$base/boot/initrd.img-$release \
        Tests/installed/boot.sh "$images" "$out/$pages" 1 1200 || rc=1
    echo "arm64box: $release: $(( $(date +%s) - begun )) s" >&2
done

# The figures beside the x86 box's (from its last run on this machine, if any).
x86=$repo/vm-out/installed/boot1/figures
for name in daemon_start_to_ready_ms daemon_rss_kib daemon_hwm_kib installed_morning_s; do
    line="arm64box: $name:"
    for pages in 4k 16k; do
        line+=" arm64 $pages $(awk -v n="$name" '$1 == n {print $2, $3}' "$out/$pages/boot1/figures" 2>/dev/null)"
    done
    x86_value=$(awk -v n="$name" '$1 == n {print $2, $3}' "$x86" 2>/dev/null || true)
    line+="; x86-64 ${x86_value:-none (not measured there, or no x86 box run on this machine)}"
    echo "$line" >&2
done
echo "arm64box: $(( $(date +%s) - stage_start )) s, results in vm-out/arm64box/" >&2
exit $rc
