#!/usr/bin/env bash
# SD card wear (Tests/Benchmarks/SDWear/wear.py): a fresh 256 MiB ext4 file system on a loop device (mounted
# noatime, as Raspberry Pi OS mounts its root), the daemon's database on it, the bytes the device takes per
# morning, per idle day and per year, beside a naive SQLite configuration. Needs root (losetup, mount).
#   Tests/Benchmarks/SDWear/run.sh [--mornings N]
set -euo pipefail
cd "$(dirname "$0")/../../.."
export PATH="/opt/swift/usr/bin:$PATH"
[ "$(id -u)" = 0 ] || { echo "run.sh: needs root for losetup and mount" >&2; exit 1; }
swift build --product recoverydeckd-sim >&2
work=$(mktemp -d)
img=$work/sd.img
mnt=$work/mnt
loop=""
cleanup() { umount "$mnt" 2>/dev/null || true; [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
# Twice: ext4 as Raspberry Pi OS makes it (with its journal), then without the journal, so the difference
# shows what the file system's own journal adds to what the box writes.
for variant in "ext4 (journal, as Raspberry Pi OS)|" "ext4 without its journal|-O ^has_journal"; do
    label=${variant%%|*}; features=${variant#*|}
    rm -f "$img"; truncate -s 256M "$img"
    # No lazy initialisation: the kernel would otherwise zero the inode tables in the background, into the count.
    # shellcheck disable=SC2086
    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $features "$img"
    loop=$(losetup -f --show "$img")
    mkdir -p "$mnt"
    mount -o noatime "$loop" "$mnt"
    python3 Tests/Benchmarks/SDWear/wear.py --mnt "$mnt" --dev "$(basename "$loop")" --label "$label" "$@"
    umount "$mnt"; losetup -d "$loop"; loop=""
done
