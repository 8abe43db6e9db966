#!/usr/bin/env bash
# The box as shipped: the .deb installed with apt into a debootstrapped Debian 12 image and booted twice under
# qemu with systemd as PID 1 (Tests/installed/README.md says what each boot checks).
# run-all: alongside — one emulated CPU for most of its time, so it runs beside the stages after it.
exec bash "$(dirname "$0")/../installed/run.sh"
