#!/usr/bin/env bash
# 365 simulated mornings in a row through one recoverydeckd process (keypad questionnaire, GO, the whole
# protocol, the clock moved to the next day): every day stored and complete, resident memory flat
# within 1 MB after a warm-up of 30 mornings (Tests/stages/daemon/soak.py). About 2–3 minutes.
. "$(dirname "$0")/preamble.bash"
swift build --product recoverydeckd-sim
python3 Tests/stages/daemon/soak.py --mornings "${SOAK_MORNINGS:-365}" --speed "${SOAK_SPEED:-1000}"
