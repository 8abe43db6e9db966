#!/usr/bin/env bash
# The arm64 box's base: Debian 13 "trixie" for arm64 made by mmdebstrap from Debian's archive (the machine's apt
# sources untouched), with what Tests/installed/build-image.sh installs on x86 besides, and both of Debian's
# arm64 kernels (linux-image-arm64, 4 KiB pages; linux-image-arm64-16k, 16 KiB). Kept in CACHE, named after
# its package list, mirror and this recipe, and made once per machine.
#
#   build-base.sh CACHE MIRROR   → prints the base's path (CACHE/arm64box-base-KEY)
#
# Everything a package runs inside the root runs under qemu-user, so what costs minutes there and nothing
# here is done here. Measured on 2 cores shared with a VM and builds (load 8 to 10): 1667 s with
# initramfs-tools and the emulated depmod, 774 s without (mmdebstrap 759 s: downloads 4 s, the essential
# packages 2.5 minutes, unpacking the rest 4, their maintainer scripts 5.5 (perl's deb-systemd-helper,
# ssh-keygen, Python's byte-compilation, all emulated); depmod and both initramfs here 15 s):
# - no initramfs-tools: mkinitramfs took about 4 minutes a kernel under qemu-user (238 s for one), and it
#   ran again for its triggers. A package of this recipe's own provides linux-initramfs-tool, which the
#   kernels depend on, and build-initramfs.sh makes each kernel's initramfs here in a second;
# - no emulated depmod (29 s a kernel): it is diverted to true while the packages install, and this machine's
#   depmod, which reads arm64 modules, writes each kernel's module lists afterwards;
# Not done: dpkg's path-exclude for documentation, manual pages and translations saves little here (every
# package's archive is decompressed under qemu-user all the same) and broke the essential packages' install
# (dpkg could not create a translated manual page's folder under an excluded one); man-db, whose triggers
# would be slow, is not installed at all.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=$1 mirror=$2
include=systemd,systemd-sysv,udev,dbus,kmod,procps,iproute2,openssh-server,openssh-client,sqlite3,python3,gpiod,bluez
include+=,bluez-test-tools,dmsetup,e2fsprogs,util-linux,passwd,adduser,busybox-static,linux-image-arm64,linux-image-arm64-16k
# The key: the package list, the mirror and the recipe (this file's and build-initramfs.sh's commands).
key=$({ echo "2 $mirror $include"; grep -hv '^ *#' "$0" "$here/build-initramfs.sh"; } | sha256sum | cut -c1-12)
base=$cache/arm64box-base-$key
if [ -e "$base/.complete" ]; then echo "$base"; exit 0; fi
if grep -q " $base" /proc/mounts; then echo "arm64box: $base has mounts inside; unmount them first" >&2; exit 1; fi
rm -rf "$base"
mkdir -p "$cache"
log=$cache/arm64box-base-$key.log
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The kernels' "initramfs-tools | linux-initramfs-tool", answered by an empty package.
mkdir -p "$work/noinitramfs/DEBIAN"
cat > "$work/noinitramfs/DEBIAN/control" <<'EOF'
Package: rdcheck-initramfs-made-outside
Version: 1
Architecture: all
Provides: linux-initramfs-tool
Maintainer: RecoveryDeck checks <root@localhost>
Description: the arm64 box check's initramfs is made outside the root (Tests/arm64box/build-initramfs.sh)
EOF
dpkg-deb --root-owner-group --build "$work/noinitramfs" "$work/noinitramfs.deb" > /dev/null
chmod 0755 "$work"; chmod 0644 "$work/noinitramfs.deb"

# Timed parts, for the log and the stage's output.
stamp() { echo "arm64box: base: $1 after $(( $(date +%s) - begun )) s" >&2; }
begun=$(date +%s)
echo "arm64box: mmdebstrap trixie arm64 into $base (log $log)" >&2
mmdebstrap --variant=minbase --arch=arm64 --include="$include" --include="$work/noinitramfs.deb" \
    --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
    --essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/depmod && ln -s /bin/true "$1/usr/sbin/depmod"' \
    --customize-hook='rm "$1/usr/sbin/depmod" && chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/sbin/depmod' \
    trixie "$base" "deb $mirror trixie main" > "$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
stamp "packages installed"
for kernel in "$base"/usr/lib/modules/*; do
    depmod -b "$base" "${kernel##*/}"
    "$here/build-initramfs.sh" "$base" "${kernel##*/}"
done
stamp "module lists and initramfs made"
touch "$base/.complete"
echo "$base"
