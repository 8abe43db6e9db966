#!/usr/bin/env bash
# The box as a Raspberry Pi owner installs it: Debian 13 for arm64, the arm64 package through apt, booted under
# qemu-system-aarch64 with systemd as PID 1 on Debian's 4 KiB and 16 KiB page kernels, the installed box's own
# checks on each (Tests/arm64box/run.sh says which).
# run-all: alongside — one emulated CPU for most of its time, so it runs beside the stages after it.
exec bash "$(dirname "$0")/../arm64box/run.sh"
