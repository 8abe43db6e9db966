#!/usr/bin/env bash
# Insights calibration: the engine's false-positive rate on the 15-cell AR(1) grid (1000 trials × 1000
# resamples per cell) and its power at rho 0.7, n 365; tolerance derived in 51-insights-calibration.py.
# Release build of the small insights-bench product (~1–2 min cold) plus ~30–60 s of simulation on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product insights-bench >&2
bench="$(swift build -c release --show-bin-path)/insights-bench"
{
    "$bench" grid --json 1 --trials 1000 --resamples 1000 --seed 20260802
    "$bench" grid --json 1 --trials 1000 --resamples 1000 --seed 20260803 --rho 0.7 --n 365 --effect 0.3
    "$bench" grid --json 1 --trials 1000 --resamples 1000 --seed 20260804 --rho 0.7 --n 365 --effect 0.4
} | python3 Tests/stages/51-insights-calibration.py
