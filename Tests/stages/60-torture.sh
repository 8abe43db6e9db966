#!/usr/bin/env bash
# kill -9 recoverydeckd at 200 seeded random instants of simulated mornings (a quarter aimed at the moment
# the morning is written); after each kill the database passes PRAGMA integrity_check and no day is
# partial (Tests/stages/daemon/torture.py). Python's standard library only. About 2–3 minutes.
. "$(dirname "$0")/preamble.bash"
swift build --product recoverydeckd-sim
python3 Tests/stages/daemon/torture.py --kills "${TORTURE_KILLS:-200}" --speed "${TORTURE_SPEED:-200}"
