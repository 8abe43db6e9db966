#!/usr/bin/env bash
# Real faults around the built recoverydeckd (Tests/stages/daemon/reliability.py): another process holding
# the write lock across the save, the database on a full tmpfs (needs root), a backup moved over the live
# file, the files deleted, a delete during a session, the control socket out of descriptors, overflowing
# test-only requests, an upgrade's restart during a session, a stall, a clock a day behind (checkin, GO and
# measure refused with code 10). Fails if any morning is lost, the database is
# damaged, or a status request takes over a second while a fault lasts. Python's standard library only.
# About 2 minutes.
. "$(dirname "$0")/preamble.bash"
swift build --product recoverydeckd-sim
swift build --product recoverydeck
python3 Tests/stages/daemon/reliability.py --speed "${RELIABILITY_SPEED:-50}"
