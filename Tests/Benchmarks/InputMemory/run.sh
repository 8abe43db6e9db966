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
measure "rr analyze: 20 MB of RR numbers (refused: over 2 MiB)" "$cli" rr analyze "$work/rr-20mb.txt"
measure "rr analyze: 2 MiB of RR numbers (about 400,000 beats)" "$cli" rr analyze "$work/rr-2mib.txt"
measure "import csv: a 30 MB header of commas" "$cli" import csv "$work/commas.csv" --map date=date,rmssd=rmssd
measure "import csv: three years of daily rows" "$cli" import csv "$work/three-years.csv" \
    --map date=date,rmssd=rmssd,lying_hr=lying_hr
"$cli" export --full -o "$work/export.json" 2>/dev/null
echo "        export of three years: $(($(stat -c %s "$work/export.json") / 1024)) KiB"
measure "restore: that export, over the same data" "$cli" restore "$work/export.json" --replace
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
doc = json.load(open(f"{w}/export.json"))
days = doc.get("days", [])
# About 30 MB (just under the 32 MiB limit): the same days repeated under later dates would be refused as duplicates, so pad the notes.
for day in days:
    day.setdefault("questionnaire", None)
doc["padding"] = "x" * (30 << 20)
json.dump(doc, open(f"{w}/big.json", "w"))
PY
measure "restore: a 30 MB export document" "$cli" restore "$work/big.json" --replace
python3 -c "import sys; open(sys.argv[1], 'w').write(open(sys.argv[2]).read() + ' ' * (30 << 20))" "$work/huge.json" "$work/big.json"
measure "restore: a 60 MB export document (refused: over 32 MiB)" "$cli" restore "$work/huge.json" --replace
