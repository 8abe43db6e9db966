#!/usr/bin/env bash
# Boots the installed box's image once under qemu (software emulation, the host's Debian kernel and initrd,
# the image as /dev/vda; on boot 1 the state disk, its block log and the replay disk as vdb, vdc, vdd) and
# streams OUT/bootN/log. When the guest has written OUT/bootN/done, qemu is killed, not shut down: the
# end of every boot is a power cut.
#
#   boot.sh IMAGE_DIR OUT BOOT_NUMBER TIMEOUT_SECONDS
#
# Another machine's box (Tests/arm64box) names its own: RDCHECK_QEMU (the emulator and machine),
# RDCHECK_KERNEL and RDCHECK_INITRD, RDCHECK_CONSOLE (its serial port), and RDCHECK_SCOPE=box for the box's
# own checks alone (guest-boot1.sh stops after doctor; no state disk, no power cuts), and RDCHECK_APPEND for
# more of the kernel's command line (rdcheck.unittests=1: guest-boot1.sh runs the arm64 tests it was given).
set -euo pipefail
images=$1 out=$2 boot=$3 limit=$4
kernel=${RDCHECK_KERNEL:-$(ls /boot/vmlinuz-* | sort -V | tail -1)}
initrd=${RDCHECK_INITRD:-/boot/initrd.img-${kernel##*/vmlinuz-}}
read -r -a qemu_cmd <<< "${RDCHECK_QEMU:-qemu-system-x86_64 -accel tcg}"
scope=${RDCHECK_SCOPE:-all}
dir=$out/boot$boot
rm -rf "$dir"; mkdir -p "$dir"
drives=(-drive "file=$images/root.img,format=raw,if=virtio")
if [ "$boot" = 1 ] && [ "$scope" = all ]; then
    # 96 MiB of state leaves doctor's disk check above its 50 MiB floor once the box's files are in (a warning
    # below 200 MiB, not a failure); the replay disk is the state disk's size.
    for disk in state:96M log:1G replay:96M; do
        rm -f "$images/${disk%%:*}.img"; truncate -s "${disk#*:}" "$images/${disk%%:*}.img"
        drives+=(-drive "file=$images/${disk%%:*}.img,format=raw,if=virtio")
    done
fi
start=$(date +%s)
"${qemu_cmd[@]}" -m 1536 -smp 1 -nographic -no-reboot -nodefaults -serial "file:$dir/console.log" \
    -kernel "$kernel" -initrd "$initrd" "${drives[@]}" \
    -virtfs "local,path=$out,mount_tag=rdout,security_model=none,id=rdout" \
    -append "root=/dev/vda rw console=${RDCHECK_CONSOLE:-ttyS0} rdcheck.boot=$boot rdcheck.scope=$scope ${RDCHECK_APPEND:-} quiet systemd.show_status=0 panic=-1" &
qemu=$!
seen=0
stream() {
    [ -f "$dir/log" ] || return 0
    local total; total=$(wc -l < "$dir/log")
    [ "$total" -gt "$seen" ] || return 0
    sed -n "$((seen + 1)),${total}p" "$dir/log" | sed "s/^/  boot $boot: /" >&2
    seen=$total
}
booted=0
while kill -0 $qemu 2>/dev/null; do
    stream
    if [ $booted = 0 ] && [ -f "$dir/log" ]; then
        booted=1; echo "installed-box: boot $boot up after $(( $(date +%s) - start )) s" >&2
    fi
    [ -f "$dir/done" ] && break
    if [ $(( $(date +%s) - start )) -gt "$limit" ]; then
        echo "installed-box: boot $boot timed out after $limit s; console tail:" >&2
        tail -30 "$dir/console.log" | sed 's/^/    /' >&2
        break
    fi
    sleep 2
done
kill -KILL $qemu 2>/dev/null || true
wait $qemu 2>/dev/null || true
stream
echo "$(( $(date +%s) - start ))" > "$dir/seconds"
rc=$(cat "$dir/rc" 2>/dev/null || echo missing)
echo "installed-box: boot $boot: $(cat "$dir/seconds") s, rc $rc" >&2
[ "$rc" = 0 ]
