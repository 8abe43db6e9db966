#!/usr/bin/env bash
# Builds gpio-sim (with its interrupt simulator and the keypad-matrix patch) out of tree for the kernel
# the VM boots: Debian's kernels have neither CONFIG_GPIO_SIM nor CONFIG_IRQ_SIM. From Debian's
# linux-source-6.1: drivers/gpio/gpio-sim.c, drivers/gpio/gpiolib.h and kernel/irq/irq_sim.c, built as one
# module against linux-headers-<release>. gpio-sim uses gpiolib internals, so the source must be the
# running kernel's own version: checked here, and a mismatch fails by name.
#
#   build-gpio-sim.sh KERNEL_IMAGE OUT_DIR      → OUT_DIR/recoverydeck-gpio-sim.ko
#
# No module binary is kept in the repository; the patch is gpio-sim-matrix.patch beside this script.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernel=$1 out=$2
release=${kernel##*/vmlinuz-}
image_pkg=linux-image-$release
headers=/usr/src/linux-headers-$release
tarball=/usr/src/linux-source-6.1.tar.xz

version_of() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
image_version=$(version_of "$image_pkg")
source_version=$(version_of linux-source-6.1)
[ -n "$image_version" ] || { echo "gpio-sim: $image_pkg (the VM's kernel) is not a Debian package here" >&2; exit 1; }
[ -f "$tarball" ] && [ -n "$source_version" ] || {
    echo "gpio-sim: linux-source-6.1 is not installed (deploy/dev-setup --tests installs it)" >&2; exit 1; }
[ -d "$headers" ] || {
    echo "gpio-sim: linux-headers-$release is not installed (the VM kernel's headers; linux-headers-amd64 follows linux-image-amd64)" >&2
    exit 1; }
if [ "$source_version" != "$image_version" ]; then
    echo "gpio-sim: linux-source-6.1 is $source_version but the VM kernel $image_pkg is $image_version;" \
        "gpio-sim uses gpiolib internals, so install the matching linux-source-6.1 (apt-get install" \
        "linux-source-6.1=$image_version) or upgrade linux-image-amd64" >&2
    exit 1
fi

mkdir -p "$out"
module=$out/recoverydeck-gpio-sim.ko
stamp="$image_version $(sha256sum "$here/gpio-sim-matrix.patch" "$0" | sha256sum | cut -c1-16)"
if [ -f "$module" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
    echo "gpio-sim: $module is current ($image_version)" >&2
    exit 0
fi

work=$(mktemp -d /tmp/recoverydeck-gpio-sim.XXXXXX)
trap 'rm -rf "$work"' EXIT
files=(linux-source-6.1/Makefile linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h
    linux-source-6.1/kernel/irq/irq_sim.c)
tar -xJf "$tarball" -C "$work" "${files[@]}"
src=$work/linux-source-6.1
# The tarball's own version line, against the kernel's upstream version (6.1.192 of 6.1.192-3).
made=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.)
[ "$made" = "${image_version%%-*}" ] || {
    echo "gpio-sim: linux-source-6.1's Makefile says $made, the kernel is ${image_version%%-*}" >&2; exit 1; }

(cd "$src" && patch -p1 --quiet --no-backup-if-mismatch < "$here/gpio-sim-matrix.patch")
# irq_to_desc is not exported to modules; generic_handle_irq does the same lookup and handling.
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$src/kernel/irq/irq_sim.c" || {
    echo "gpio-sim: irq_sim.c no longer calls handle_simple_irq(irq_to_desc(irqnum)); revisit the build" >&2; exit 1; }
sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$src/kernel/irq/irq_sim.c"

build=$work/build
mkdir -p "$build"
cp "$src/drivers/gpio/gpio-sim.c" "$src/drivers/gpio/gpiolib.h" "$src/kernel/irq/irq_sim.c" "$build/"
cat > "$build/Kbuild" <<'KBUILD'
obj-m := recoverydeck-gpio-sim.o
recoverydeck-gpio-sim-y := gpio-sim.o irq_sim.o
KBUILD
make -s -C "$headers" M="$build" modules >&2
cp "$build/recoverydeck-gpio-sim.ko" "$module"
echo "$stamp" > "$out/stamp"
echo "gpio-sim: built $module for $release ($image_version)" >&2
