#!/usr/bin/env bash
# Insights through the real CLI path: 30 seeded no-effect people (200 days, 10 % missing, rMSSD log-normal AR(1)
# rho 0.7, five ordinal scores AR(1) rho 0.5, all independent), 30 with an independent weekly rhythm in every series,
# and 30 with a planted sleep -> rMSSD effect, each imported with `recoverydeck import csv` into its own database and
# scanned with `recoverydeck findings --json`; 52-insights-people.py asserts (no-effect: share with a
# non-definitional finding compatible with <= 10 %; weekly: nothing reaches T3 unlabelled; planted: found in >= 80 %).
# Then the T4 experiment's calibration: randomisation-test false-positive rate at alpha 0.05 and power against the
# plan's promise (insights-bench experiment; the release build stage 51 made). About 1.5 min on 2 cores.
. "$(dirname "$0")/preamble.bash"
swift build --product recoverydeck >&2
swift build --product recoverydeck-fixture >&2
cli="$(swift build --show-bin-path)/recoverydeck"
# findings at a stated time: the command line built for the tests, never shipped.
fixture="$(swift build --show-bin-path)/recoverydeck-fixture"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
map=date=date,rmssd=rmssd,fatigue=fatigue,mood=mood,soreness=soreness,stress=stress,sleep=sleep
{
    for kind in null weekly planted; do
        mkdir -p "$work/$kind"
        case "$kind" in
            null) python3 Tests/stages/52-insights-people.py generate "$work/$kind" 30 14 ;;
            weekly) python3 Tests/stages/52-insights-people.py generate "$work/$kind" 30 15 --weekly ;;
            planted) python3 Tests/stages/52-insights-people.py generate "$work/$kind" 30 16 --planted ;;
        esac
        for ((k = 0; k < 30; k++)); do
            db="$work/$kind/person-$k.db"
            "$cli" --db "$db" import csv "$work/$kind/person-$k.csv" --map "$map" >/dev/null 2>&1
            printf '%s %s ' "$kind" "$k"
            "$fixture" --now 2026-11-30T08:00 --db "$db" findings --json \
                | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)))'
        done
    done
} | python3 Tests/stages/52-insights-people.py check

swift build -c release --product insights-bench >&2
bench="$(swift build -c release --show-bin-path)/insights-bench"
{
    "$bench" experiment --json 1 --trials 1000 --redraws 999 --seed 20261201 --rho 0,0.5,0.7,0.85 --days 28,56
    "$bench" experiment --json 1 --trials 1000 --redraws 999 --seed 20261202 --rho 0,0.5,0.7,0.85 --days 28,56 --planted 1
} | python3 Tests/stages/52-insights-experiment.py
