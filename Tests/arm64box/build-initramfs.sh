#!/usr/bin/env bash
# The arm64 box's initramfs for one kernel of the base, made on this machine in a second: Debian's arm64
# kernels have the virtio disk and ext4 as modules, so something must load them before the root is mounted.
# initramfs-tools does it inside the emulated root in about 4 minutes a kernel (every one of its shell
# scripts' programs started through qemu-user), so the base has none; this one holds the base's static
# busybox (busybox-static), the disk's and ext4's modules with their dependencies (this machine's modprobe
# reads the base's modules.dep), unpacked from xz, and an /init that loads them, mounts root= (read-write)
# and hands over to systemd.
#
#   build-initramfs.sh BASE RELEASE   → BASE/boot/initrd.img-RELEASE
set -euo pipefail
base=$1 release=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{bin,dev,proc,sys,root,modules}
busybox=$base/usr/bin/busybox
[ -x "$busybox" ] || { echo "build-initramfs: $busybox is missing (busybox-static)" >&2; exit 1; }
! readelf -l "$busybox" | grep -q INTERP || { echo "build-initramfs: $busybox is not static" >&2; exit 1; }
install -m 0755 "$busybox" "$work/bin/busybox"
for applet in sh mount umount insmod switch_root sleep cat; do ln -s busybox "$work/bin/$applet"; done
# In load order, each once (ext4's soft dependency names crc32c again).
modprobe -d "$base" -S "$release" -a --show-depends virtio_blk ext4 crc32c | awk '$1 == "insmod" && !seen[$2]++ {print $2}' \
    | while IFS= read -r module; do
        name=$(basename "${module%.xz}")
        case $module in *.xz) xz -dc "$module" > "$work/modules/$name" ;; *) cp "$module" "$work/modules/$name" ;; esac
        echo "$name" >> "$work/modules/order"
    done
[ "$(grep -c . "$work/modules/order")" -ge 2 ] || { echo "build-initramfs: no modules found for $release in $base" >&2; exit 1; }
cat > "$work/init" <<'EOF'
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for module in $(cat /modules/order); do insmod /modules/$module || echo "initramfs: insmod $module failed"; done
root=/dev/vda
for arg in $(cat /proc/cmdline); do case $arg in root=*) root=${arg#root=} ;; esac; done
i=0
while [ ! -b "$root" ]; do
    i=$((i + 1)); [ $i -le 300 ] || { echo "initramfs: $root did not appear"; exec sh; }
    sleep 0.1
done
mount -t ext4 -o rw "$root" /root || { echo "initramfs: cannot mount $root"; exec sh; }
umount /proc /sys
mount --move /dev /root/dev
exec switch_root /root /sbin/init
EOF
chmod 0755 "$work/init"
(cd "$work" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) > "$base/boot/initrd.img-$release"
