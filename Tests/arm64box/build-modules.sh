#!/usr/bin/env bash
# Cross-builds, on amd64, the two modules the arm64 box's bench needs and Debian's arm64 kernels lack
# (CONFIG_BT_HCIVHCI and CONFIG_GPIO_SIM/CONFIG_IRQ_SIM are off in linux-image-arm64 and -arm64-16k): hci_vhci
# (btvirt's virtual controllers) and gpio-sim with its interrupt simulator, as one module
# recoverydeck-gpio-sim.ko, for one exact kernel release. The route is Debian's own for a cross build of
# out-of-tree modules: in a trixie amd64 root (kept in the cache), gcc-aarch64-linux-gnu (gcc 14, the
# kernels' compiler), linux-kbuild for amd64 (Multi-Arch: foreign), linux-headers-<release>-common, and
# linux-headers-<release> for arm64 unpacked beside them (installed with apt it would pull in gcc-14:arm64,
# which amd64 cannot run). The sources are the kernel's own version from linux-source-6.12; a mismatch
# fails by name (gpio-sim reaches into gpiolib's internals).
#
#   build-modules.sh RELEASE PACKAGE_VERSION CACHE   → prints the folder holding hci_vhci.ko and
#                                                      recoverydeck-gpio-sim.ko (kept between runs)
#
# RELEASE is the kernel's (6.12.117+deb13-arm64), PACKAGE_VERSION its Debian version (6.12.117-1).
set -euo pipefail
release=$1 version=$2 cache=$3
mirror=${RECOVERYDECK_DEBIAN_MIRROR:-http://deb.debian.org/debian}
abi=${release%-arm64*}                                  # 6.12.117+deb13
series=$(echo "$version" | cut -d. -f1-2)               # 6.12
out=$cache/arm64box-modules-$release-$version-$(cat "$0" | sha256sum | cut -c1-12)
if [ -f "$out/hci_vhci.ko" ] && [ -f "$out/recoverydeck-gpio-sim.ko" ]; then
    echo "$out"; exit 0
fi

# The build root: what does not depend on the kernel's version, made once.
packages=gcc-aarch64-linux-gnu,make,xz-utils,bc,libc6-dev,linux-source-$series
kroot=$cache/arm64box-kbuild-$(echo "1 $mirror $packages" | sha256sum | cut -c1-12)
if [ ! -e "$kroot/.complete" ]; then
    if grep -q " $kroot" /proc/mounts; then echo "arm64box: $kroot has mounts inside; unmount them first" >&2; exit 1; fi
    rm -rf "$kroot"
    echo "arm64box: making the module build root $kroot (trixie amd64 with arm64 enabled, about 2 minutes)" >&2
    mmdebstrap --variant=apt --architectures=amd64,arm64 --include="$packages" trixie "$kroot" \
        "deb $mirror trixie main" > "$cache/arm64box-kbuild.log" 2>&1 || { tail -20 "$cache/arm64box-kbuild.log" >&2; exit 1; }
    touch "$kroot/.complete"
fi
in_kroot() { chroot "$kroot" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }
headers=/usr/src/linux-headers-$release
if [ ! -f "$kroot$headers/Module.symvers" ] || [ "$(in_kroot dpkg-query -W -f='${Version}' linux-source-$series)" != "$version" ]; then
    in_kroot apt-get update -qq >&2
    in_kroot apt-get install -y -qq "linux-kbuild-$abi=$version" "linux-headers-$abi-common=$version" \
        "linux-source-$series=$version" >&2 || {
        echo "arm64box: the kernel $release ($version) has no matching linux-kbuild/linux-headers/linux-source in $mirror trixie;" \
            "the archive has moved on: remove $cache/arm64box-image-* to make the image with the current kernels" >&2
        exit 1
    }
    in_kroot sh -c "cd /var/tmp && rm -f linux-headers-*.deb && apt-get download -qq linux-headers-$release:arm64=$version" >&2
    dpkg-deb -x "$kroot"/var/tmp/linux-headers-"$release"_*_arm64.deb "$kroot/"
    rm -f "$kroot"/var/tmp/linux-headers-*.deb
fi
[ "$(in_kroot dpkg-query -W -f='${Version}' linux-source-$series)" = "$version" ] || {
    echo "arm64box: linux-source-$series is not $version, the kernel's version" >&2; exit 1; }

work=$kroot/var/tmp/arm64box-$release
rm -rf "$work"; mkdir -p "$work/src" "$work/vhci" "$work/gpio-sim"
trap 'rm -rf "$work"' EXIT
s=linux-source-$series
tar -xJf "$kroot/usr/src/$s.tar.xz" -C "$work/src" $s/Makefile $s/drivers/gpio/gpio-sim.c $s/drivers/gpio/gpiolib.h \
    $s/kernel/irq/irq_sim.c $s/drivers/bluetooth/hci_vhci.c
made=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$work/src/$s/Makefile" | paste -sd.)
[ "$made" = "${version%%-*}" ] || { echo "arm64box: linux-source's Makefile says $made, the kernel is $version" >&2; exit 1; }
cp "$work/src/$s/drivers/bluetooth/hci_vhci.c" "$work/vhci/"
echo 'obj-m := hci_vhci.o' > "$work/vhci/Kbuild"
cp "$work/src/$s/drivers/gpio/gpio-sim.c" "$work/src/$s/drivers/gpio/gpiolib.h" "$work/src/$s/kernel/irq/irq_sim.c" "$work/gpio-sim/"
# irq_to_desc is not exported to modules; generic_handle_irq does the same lookup and handling (as
# Tests/stages/gpio/build-gpio-sim.sh does for x86; the keypad-matrix patch is for 6.1 and the box needs none).
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$work/gpio-sim/irq_sim.c" || {
    echo "arm64box: irq_sim.c no longer calls handle_simple_irq(irq_to_desc(irqnum)); revisit the build" >&2; exit 1; }
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$work/gpio-sim/irq_sim.c"
printf 'obj-m := recoverydeck-gpio-sim.o\nrecoverydeck-gpio-sim-y := gpio-sim.o irq_sim.o\n' > "$work/gpio-sim/Kbuild"
for m in vhci gpio-sim; do
    in_kroot make -s -C "$headers" M="/var/tmp/arm64box-$release/$m" modules >&2
done
mkdir -p "$out.partial"
cp "$work/vhci/hci_vhci.ko" "$work/gpio-sim/recoverydeck-gpio-sim.ko" "$out.partial/"
rm -rf "$out"; mv "$out.partial" "$out"
echo "arm64box: built hci_vhci and gpio-sim for $release ($version)" >&2
echo "$out"
