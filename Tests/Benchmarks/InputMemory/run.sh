#!/usr/bin/env bash
# Peak resident memory of `recoverydeck` on hostile and on large valid inputs (a Pi has 1–2 GB; the aim is
# under 64 MB for every case). Prints one line a case: peak RSS, exit status, the case.
#   Tests/Benchmarks/InputMemory/run.sh [path/to/recoverydeck]
set -euo pipefail
cd "$(dirname "$0")/../../.."
cli=${1:-.build/debug/recoverydeck}
[ -x "$cli" ] || { echo "InputMemory: build first (swift build), or pass the binary" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import random, sys
w = sys.argv[1]
random.seed(7)
open(f"{w}/longline.txt", "w").write("8" * (200 << 20) + "\n")
open(f"{w}/rr-20mb.txt", "w").write("\n".join(str(random.randint(700, 1100)) for _ in range((20 << 20) // 5)) + "\n")
rr = []
size = 0
while size < (2 << 20) - 16:
    v = str(random.randint(700, 1100))
    rr.append(v)
    size += len(v) + 1
open(f"{w}/rr-2mib.txt", "w").write("\n".join(rr) + "\n")
open(f"{w}/commas.csv", "w").write("," * (30 << 20) + "\n")
rows = ["date,rmssd,lying_hr"]
import datetime
d = datetime.date(2023, 1, 1)
for i in range(3 * 365):
    rows.append(f"{d + datetime.timedelta(days=i)},{random.uniform(30, 90):.1f},{random.randint(45, 65)}")
open(f"{w}/three-years.csv", "w").write("\n".join(rows) + "\n")
PY
measure() { # LABEL COMMAND…: prints peak RSS in MB and the exit status
    local label=$1
    shift
    python3 - "$label" "$@" <<'PY'
import resource, subprocess, sys
label, *command = sys.argv[1:]
status = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{peak:7.1f} MB  exit {status}  {label}")
PY
}
export TZ=UTC RECOVERYDECK_DB="$work/box.db" SWIFT_BACKTRACE=enable=no
measure "rr analyze: one 200 MB line" "$cli" rr analyze "$work/longline.txt"
measure "rr analyze: 20 MB of RR numbers (refused: over 500,000 intervals)" "$cli" rr analyze "$work/rr-20mb.txt"
measure "rr analyze: 2 MiB of RR numbers (about 400,000 beats)" "$cli" rr analyze "$work/rr-2mib.txt"
head -n 500000 "$work/rr-20mb.txt" >"$work/rr-500k.txt"
measure "rr analyze: 500,000 RR numbers (the most a file may hold)" "$cli" rr analyze "$work/rr-500k.txt"
measure "import csv: a 30 MB header of commas" "$cli" import csv "$work/commas.csv" --map date=date,rmssd=rmssd
measure "import csv: three years of daily rows" "$cli" import csv "$work/three-years.csv" \
    --map date=date,rmssd=rmssd,lying_hr=lying_hr
"$cli" export --full -o "$work/export.json" 2>/dev/null
echo "        export of three years: $(($(stat -c %s "$work/export.json") / 1024)) KiB"
measure "restore: that export, over the same data" "$cli" restore "$work/export.json" --replace
python3 - "$work" <<'PY'
import json, random, sys
w = sys.argv[1]
random.seed(11)
doc = json.load(open(f"{w}/export.json"))
# Hostile documents: a 30 MB string in a member the restore does not know, a 30 MB number, deep nesting, a
# day's element of 20 MB, a 30 MB string where a note goes.
def write(name, text):
    open(f"{w}/{name}", "w").write(text)
head = json.dumps({k: v for k, v in doc.items() if k != "days"})[:-1]
write("padded.json", head + ', "padding": "' + "x" * (30 << 20) + '", "days": []}')
write("bignumber.json", head + ', "padding": ' + "9" * (30 << 20) + ', "days": []}')
write("deep.json", "[" * (10 << 20) + "]" * (10 << 20))
write("deep-member.json", head + ', "padding": ' + "[" * (10 << 20) + "]" * (10 << 20) + ', "days": []}')
write("bigday.json", head + ', "days": [{"date": "2026-03-01", "imported": false, "questionnaire": null, "measurement": '
      + '{"rr": {"raw": [' + ",".join(["1000"] * (4 << 20)) + ']}}}]}')
write("bignote.json", head + ', "days": [{"date": "2026-03-01", "imported": false, "questionnaire": {"notes": "'
      + "x" * (30 << 20) + '"}, "measurement": null}]}')
# A valid 55 MB document: about eleven years of full mornings (the three-year export's days do not carry raw RR
# from the import, so every day gets a 180 s morning of its own).
days = []
start = 0
import datetime
d = datetime.date(2005, 1, 1)
size = 0
while size < (55 << 20):
    rr = [random.randint(900, 1100) for _ in range(200)]
    at, clock = [], 0
    for r in rr:
        clock += r * 1000 // 1024
        at.append(clock + 15000)
    bpm = [random.randint(55, 65) for _ in range(180)]
    day = {"date": d.isoformat(), "imported": False,
           "questionnaire": {"fatigue": 4, "mood": 5, "soreness": 4, "stress": 3, "sleep": 5, "habits": [],
                             "caffeineTime": None, "caffeineMg": None, "lastMealTime": None, "notes": "slept well"},
           "measurement": {"startedAt": 1104562800 + 86400 * len(days), "durationMs": 183000, "quality": "ok",
                           "hrv": {"rmssdMs": 48.2, "rmssdMethod": "adjacent_pairs", "rmssdPairs": 68, "meanRRMs": 1000.0,
                                   "meanHRBpm": 60.0, "sdnnMs": 50.0, "accepted": 70, "rejected": 1, "artifactRatio": 0.014},
                           "meanHRBpm": 60.0, "orthostaticStatus": "skipped", "orthostatic": None,
                           "strapAddress": None, "strapBatteryPercent": None,
                           "phases": {"settleStartMs": 0, "captureStartMs": 15000, "captureEndMs": 75000,
                                      "lyingEndMs": None, "standStartMs": None, "standEndMs": None},
                           "rr": {"raw": rr, "receivedAtMs": at},
                           "heartRate": {"bpm": bpm, "receivedAtMs": [1000 * (i + 1) for i in range(180)]}}}
    text = json.dumps(day)
    size += len(text) + 2
    days.append(day)
    d += datetime.timedelta(days=1)
big = {"protocolVersion": 2, "generator": "RecoveryDeck", "generatedAt": 1773122400, "full": True,
       "habits": doc["habits"], "days": days, "settings": {}, "analytics": [], "experiments": []}
json.dump(big, open(f"{w}/valid-55mb.json", "w"))
print(f"        valid document: {len(days)} days, {size >> 20} MiB", file=sys.stderr)
PY
measure "restore: a valid 55 MB export document ($(($(stat -c %s "$work/valid-55mb.json") >> 20)) MiB)" \
    "$cli" restore "$work/valid-55mb.json" --replace
measure "restore: a 30 MB string in an unknown member (read past)" "$cli" restore "$work/padded.json" --replace
measure "restore: a 30 MB number in an unknown member (read past)" "$cli" restore "$work/bignumber.json" --replace
measure "restore: 10 million [ (refused: deeper than 64)" "$cli" restore "$work/deep.json" --replace
measure "restore: 10 million [ in an unknown member (refused)" "$cli" restore "$work/deep-member.json" --replace
measure "restore: one day's element of 20 MB (refused: over 4 MiB)" "$cli" restore "$work/bigday.json" --replace
measure "restore: a 30 MB note (refused: over 4 MiB)" "$cli" restore "$work/bignote.json" --replace
