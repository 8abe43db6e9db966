#!/usr/bin/env bash
# Insights calibration: the association test's false-positive rate on the 15-cell AR(1) grid (1000 trials × 1000
# resamples per cell) and on 4 cells with 30 % of days missing (2000 trials), its power at rho 0.7, n 365, and the shift
# (change-point) test's false-positive rate on a 25-cell grid (1000 trials × 500 resamples); tolerances derived in
# 51-insights-calibration.py. Release build of the small insights-bench product (~1–2 min cold) plus ~1–2 min of
# simulation on 2 cores.
. "$(dirname "$0")/preamble.bash"
started=$(date +%s)
step() { echo "51-insights-calibration: $* ($(($(date +%s) - started)) s so far)" >&2; }
step "building insights-bench (release)"
swift build -c release --product insights-bench >&2
bench="$(swift build -c release --show-bin-path)/insights-bench"
{
    step "1/5 association null, 15 cells"
    "$bench" grid --json 1 --trials 1000 --resamples 1000 --seed 20260802
    step "2/5 association null with 30 % missing, 4 cells"
    "$bench" grid --json 1 --trials 2000 --resamples 1000 --seed 20260806 --rho 0.7,0.85 --n 120,365 --missing 0.3
    step "3/5 power at r 0.3"
    "$bench" grid --json 1 --trials 1000 --resamples 1000 --seed 20260803 --rho 0.7 --n 365 --effect 0.3
    step "4/5 power at r 0.4"
    "$bench" grid --json 1 --trials 1000 --resamples 1000 --seed 20260804 --rho 0.7 --n 365 --effect 0.4
    step "5/5 shift test null, 25 cells"
    "$bench" shifts --json 1 --trials 1000 --resamples 500 --seed 20260805
} | python3 Tests/stages/51-insights-calibration.py
