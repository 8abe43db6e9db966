#!/usr/bin/env bash
# Builds the installed box's disk image: Debian 12 debootstrapped (systemd as PID 1, udev, D-Bus, OpenSSH,
# bluez beside the box as on Raspberry Pi OS), the package installed with `apt-get install ./recoverydeck_*.deb`
# as a person would, two accounts (alice in the recoverydeck group, bob outside it) reached over SSH, and the
# bench the guest scripts drive: gpio-sim as the Pi 4's GPIO chip, btvirt's virtual controllers, a virtual
# strap (h10sim) and a newer package for the upgrade. The kernel is the host's Debian kernel, booted by qemu
# directly; its modules are copied in.
#
#   build-image.sh DEB NEWER_DEB H10SIM GPIO_SIM_KO HISTORY_JSON OUT_DIR   → OUT_DIR/root.img
#
# The debootstrapped base is kept in OUT_DIR/base between runs of one machine (a clean clone builds it once).
# Another machine's box (Tests/arm64box) gives its own base with its own kernels instead: RDCHECK_BASE (a
# root to copy; no debootstrap, no host modules), RDCHECK_OVERLAY (a tree copied over the image: its kernels'
# extra modules, then depmod for each kernel), RDCHECK_BTVIRT (that machine's btvirt); GPIO_SIM_KO is then "-",
# and NEWER_DEB and HISTORY_JSON may be "-" for the box's own checks alone (no upgrade, no restore).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
deb=$1 newer=$2 h10sim=$3 module=$4 history=$5 out=$6
release=$(ls /boot/vmlinuz-* | sort -V | tail -1); release=${release##*/vmlinuz-}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What a Raspberry Pi OS Lite image has that the box's tests lean on, minimal otherwise.
include=systemd,systemd-sysv,udev,dbus,kmod,procps,iproute2,openssh-server,openssh-client,sqlite3,python3,gpiod,bluez,dmsetup,e2fsprogs,util-linux,passwd,adduser
mkdir -p "$out"
out=$(cd "$out" && pwd)
base=${RDCHECK_BASE:-$out/base}
if [ -z "${RDCHECK_BASE:-}" ] && [ "$(cat "$out/base.stamp" 2>/dev/null)" != "$include" ]; then
    rm -rf "$base"
    echo "installed-box: debootstrap bookworm ($mirror), about 2 minutes" >&2
    debootstrap --variant=minbase --include="$include" bookworm "$base" "$mirror" > "$out/debootstrap.log" 2>&1 \
        || { tail -20 "$out/debootstrap.log" >&2; exit 1; }
    echo "$include" > "$out/base.stamp"
fi

root=$out/root
rm -rf "$root"
cp -a "$base" "$root"
cleanup() {
    for m in dev/pts dev proc sys; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
    return 0
}
trap cleanup EXIT
mount --bind /dev "$root/dev"; mount --bind /dev/pts "$root/dev/pts"
mount -t proc proc "$root/proc"; mount -t sysfs sys "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }

# The package, installed as the README says: apt resolves its dependencies from Debian's archive.
cp "$deb" "$root/root/"
in_root apt-get update -q > "$out/apt.log" 2>&1 || { tail -20 "$out/apt.log" >&2; exit 1; }
in_root apt-get install -y -q "/root/$(basename "$deb")" >> "$out/apt.log" 2>&1 || { tail -30 "$out/apt.log" >&2; exit 1; }
grep -E '^recoverydeck: ' "$out/apt.log" >&2 || true
in_root apt-get clean

# The people: alice is the box's person (in its group, as `sudo adduser alice recoverydeck` makes her),
# bob has an account on the box and is not; both reach it over SSH with a key.
in_root useradd -m -u 64001 -s /bin/bash alice
in_root adduser --quiet alice recoverydeck
in_root useradd -m -u 64002 -s /bin/bash bob
install -d -m 0700 "$root/root/.ssh"
ssh-keygen -q -t ed25519 -N '' -C root@box -f "$root/root/.ssh/id_ed25519"
printf 'Host localhost\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n  BatchMode yes\n' \
    > "$root/root/.ssh/config"
for person in alice bob; do
    install -d -m 0700 "$root/home/$person/.ssh"
    cp "$root/root/.ssh/id_ed25519.pub" "$root/home/$person/.ssh/authorized_keys"
    in_root chown -R "$person:$person" "/home/$person/.ssh"
done

# The bench and the checks.
bench=$root/usr/local/lib/rdcheck
install -d "$bench"
install -m 0755 "$h10sim" "${RDCHECK_BTVIRT:-/usr/bin/btvirt}" "$bench/"
[ "$module" = - ] || install -m 0644 "$module" "$bench/"
for file in "$newer" "$history"; do [ "$file" = - ] || install -m 0644 "$file" "$bench/"; done
install -m 0644 "$repo/Tests/stages/daemon/morning-rr.txt" \
    "$repo/Tests/stages/daemon/check_morning.py" "$bench/"
install -m 0755 "$here"/guest-*.sh "$here/logwrites.py" "$bench/"
install -m 0644 "$here/guest-lib.bash" "$bench/"
if [ -z "${RDCHECK_BASE:-}" ]; then
    install -d "$root/lib/modules"
    cp -a "/lib/modules/$release" "$root/lib/modules/"
fi
if [ -n "${RDCHECK_OVERLAY:-}" ]; then
    cp -a "$RDCHECK_OVERLAY/." "$root/"
    # The machine's own depmod reads any architecture's modules, without emulating the image's.
    for kernel in "$root"/lib/modules/*; do depmod -b "$root" "${kernel##*/}"; done
fi
for unit in "$here"/units/*.service; do
    install -m 0644 "$unit" "$root/etc/systemd/system/"
    ln -sf "/etc/systemd/system/$(basename "$unit")" "$root/etc/systemd/system/multi-user.target.wants/"
done
# Timers a box would run overnight, kept out of a check that measures its own mornings.
for unit in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer man-db.timer serial-getty@ttyS0.service serial-getty@ttyAMA0.service; do
    ln -sf /dev/null "$root/etc/systemd/system/$unit"
done
echo recoverydeck > "$root/etc/hostname"
printf "127.0.0.1\tlocalhost\n127.0.1.1\trecoverydeck\n::1\tlocalhost ip6-localhost ip6-loopback\n" > "$root/etc/hosts"
echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' > "$root/etc/fstab"
in_root passwd -d root > /dev/null
cleanup
trap - EXIT

# An ext4 file system made from the tree, no loop device needed; sparse, grown by what is written.
rm -f "$out/root.img"
mkfs.ext4 -q -L rdroot -d "$root" "$out/root.img" 3G
rm -rf "$root"
echo "$out/root.img"
