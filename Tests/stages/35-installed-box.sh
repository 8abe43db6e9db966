#!/usr/bin/env bash
# The box as shipped: the .deb installed with apt into a debootstrapped Debian 12 image and booted twice under
# qemu with systemd as PID 1 (Tests/installed/README.md says what each boot checks). It keeps only what the
# arm64 box (stage 36, Debian 13 arm64 on 4 KiB and 16 KiB kernels) cannot show:
# - here alone: the amd64 package on Debian 12 (systemd 252, libgpiod 1.6, bluez 5.66): READY and the
#   unit's confinement, alice's scan, pairing, check-in and morning with GO on GPIO17, root's doctor; the
#   restore (alice's refused, root's) and a migration at start; the upgrade under alice's morning; restart,
#   kill -9, stop, the watchdog; the power cuts replayed from a real state disk's block log at every flush of
#   the restore, the migration and the morning's save; remove and purge; the second boot without bluez;
# - on the arm64 box alone: the outsider refused, alice's doctor, VmHWM after the morning, no backtracer
#   warning (16 KiB pages), the tests qemu-user cannot run, and the daemon's start and memory on arm64;
# - no longer here: root's second morning (pair, check-in and remeasure with GO twice) that carried the
#   upgrade, now under alice's morning; the remeasure question is stage 45's.
# run-all: alongside — one emulated CPU for most of its time, so it runs beside the stages after it.
exec bash "$(dirname "$0")/../installed/run.sh"
