#!/usr/bin/env bash
# The box as shipped: the .deb installed with apt into a debootstrapped Debian 12 image, booted twice under
# qemu with systemd as PID 1 (Tests/installed/). Boot 1, with bluetoothd beside the box: the hardened unit's
# READY and confinement, root's restore and a migration at start, alice in the recoverydeck group over SSH
# pairing, checking in and measuring a real-time morning started with GO on a gpio-sim GPIO17 while the
# package is upgraded under it, root's doctor, restart / kill -9 / stop / the watchdog, the power cuts
# replayed from the state disk's block log, remove and purge; it ends in a power cut. Boot 2, without bluez:
# the daemon powers the controller itself. What the arm64 box shows is not repeated here
# (Tests/stages/35-installed-box.sh lists which checks live where).
# Not yet in Tests/run-all (Tests/installed/README.md says where it stands). The release build is shared with 70-packaging (same flags); gpio-sim with 45-gpio-vm.
. "$(dirname "$0")/../stages/preamble.bash"
images=$repo/.build/installed
out=$repo/vm-out/installed
rm -rf "$out"; mkdir -p "$images" "$out"

deb=$(deploy/build-deb --out "$images/deb" --version 1.0.0)
# The upgrade's newer package: the same files under a higher version, as the next release would arrive.
newer_dir=$(mktemp -d)
dpkg-deb -R "$deb" "$newer_dir/root"
sed -i 's/^Version: .*/Version: 1.0.1/' "$newer_dir/root/DEBIAN/control"
newer=$images/deb/recoverydeck_1.0.1_$(dpkg --print-architecture).deb
dpkg-deb --root-owner-group -Zxz --build "$newer_dir/root" "$newer" > /dev/null
rm -rf "$newer_dir"
# The virtual strap, static like the box's own programs: the image has no Swift runtime.
swift build -c release --product h10sim --static-swift-stdlib -Xlinker -z -Xlinker max-page-size=65536 >&2
h10sim=$(swift build -c release --show-bin-path)/h10sim
kernel=$(ls /boot/vmlinuz-* | sort -V | tail -1)
Tests/stages/gpio/build-gpio-sim.sh "$kernel" "$repo/.build/gpio-sim"
# alice's history to restore: a synthetic person's 59 mornings, today's left out (she measures it).
demo=$(.build/release/recoverydeck demo --keep --speed 500 --seed 12 2>&1 | sed -n 's/.*The demo database is \([^;]*\);.*/\1/p')
[ -f "$demo" ] || { echo "35-installed-box: the demo kept no database" >&2; exit 1; }
.build/release/recoverydeck --db "$demo" delete --day "$(date +%F)" --yes > /dev/null
.build/release/recoverydeck --db "$demo" export --full -o "$images/history.json"
rm -rf "$(dirname "$demo")"
echo "35-installed-box: inputs ready after $(( $(date +%s) - stage_start )) s" >&2

Tests/installed/build-image.sh "$deb" "$newer" "$h10sim" "$repo/.build/gpio-sim/recoverydeck-gpio-sim.ko" \
    "$images/history.json" "$images" > /dev/null
echo "35-installed-box: image ready after $(( $(date +%s) - stage_start )) s" >&2

rc=0
Tests/installed/boot.sh "$images" "$out" 1 1800 || rc=1
if [ $rc = 0 ]; then Tests/installed/boot.sh "$images" "$out" 2 600 || rc=1; fi
for boot in 1 2; do
    [ -s "$out/boot$boot/figures" ] && sed "s/^/  figure (boot $boot): /" "$out/boot$boot/figures" >&2
done
echo "35-installed-box: $(( $(date +%s) - stage_start )) s, results in vm-out/installed/" >&2
exit $rc
