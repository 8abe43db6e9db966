"""Reads the box's exports for other tools with pandas, each column as docs/exports.md types it, and checks the
values against what was imported (Tests/stages/55-export-readers.sh; argument: `recoverydeck-fixture`, the command
line at a stated time).

A seeded history goes in through `import csv` (rMSSD, lying HR, the orthostatic part, the five answers) and one
morning of RR through `import rr`; then:
- `export --format intervals`: date (datetime), restingHR (Int64, the lying HR rounded), hrv and hrvSDNN
  (float64), fatigue … sleepQuality (Int64 in 1–4, 1 the good end), comments (string, the raw answers);
- `export --format goldencheetah`: timestamp_measurement (ISO 8601), date (YYYY-DD-MM, the same day), time
  (HH:MM), HR, AVNN, SDNN, rMSSD (float64);
- `export --rr DAY`: one float64 a line after # comments, equal to the file imported, and the header's rMSSD
  equal to numpy's over those values.
"""
import io
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

cli = sys.argv[1]
bad = 0


def check(ok, what):
    global bad
    if not ok:
        bad += 1
        print("MISMATCH", what)


rng = np.random.default_rng(35)
days = pd.date_range("2026-01-01", "2026-03-31", freq="D")
n = len(days)
hist = pd.DataFrame({
    "date": days.strftime("%Y-%m-%d"),
    "rmssd": np.exp(rng.normal(4.0, 0.2, n)).round(1),
    "lying_hr": rng.normal(52, 3, n).round(1),
    "standing_hr": rng.normal(72, 3, n).round(1),
    "peak_hr": rng.normal(85, 3, n).round(1),
})
for item in ["fatigue", "mood", "soreness", "stress", "sleep"]:
    hist[item] = rng.integers(1, 8, n)
hist = hist[rng.uniform(0, 1, n) > 0.2]  # mornings not stored
level = {7: 1, 6: 1, 5: 2, 4: 2, 3: 3, 2: 3, 1: 4}

with tempfile.TemporaryDirectory() as tmp:
    env = dict(os.environ, RECOVERYDECK_DB=os.path.join(tmp, "r.db"), SWIFT_BACKTRACE="enable=no", TZ="UTC")
    now = ["--now", "2026-04-01T08:00"]

    def run(args, use_now=True):
        done = subprocess.run([cli] + (now if use_now else []) + args, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"recoverydeck {' '.join(args)} failed: {done.stderr}")
        return done

    rr_day = "2026-01-02"  # a day left out of the CSV: import rr adds it, a morning without a check-in
    hist = hist[hist.date != rr_day]
    path = os.path.join(tmp, "h.csv")
    hist.to_csv(path, index=False)
    run(["import", "csv", path, "--map", ",".join(f"{c}={c}" for c in hist.columns)])
    rr_dir = os.path.join(tmp, "rr")
    os.mkdir(rr_dir)
    rr = np.round(1000 + 40 * (-1) ** np.arange(150) + rng.normal(0, 8, 150))
    with open(os.path.join(rr_dir, rr_day + ".txt"), "w") as f:
        f.write("\n".join(str(int(v)) for v in rr) + "\n")
    run(["import", "rr", rr_dir])

    # intervals.icu
    out = run(["export", "--format", "intervals"])
    check("curl -u API_KEY:YOUR_API_KEY -F file=@wellness.csv" in out.stderr, "intervals: no curl line on stderr")
    w = pd.read_csv(io.StringIO(out.stdout), parse_dates=["date"], date_format="%Y-%m-%d", dtype={
        "restingHR": "Int64", "hrv": "float64", "hrvSDNN": "float64", "fatigue": "Int64", "soreness": "Int64",
        "stress": "Int64", "mood": "Int64", "sleepQuality": "Int64", "comments": "string"})
    check(str(w.date.dtype).startswith("datetime64"), f"intervals date dtype {w.date.dtype}")
    want = hist.set_index(pd.to_datetime(hist.date)).drop(columns="date").add_suffix("_box")
    got = w.set_index("date")
    check(len(got) == len(want) + 1, f"intervals rows {len(got)} != {len(want) + 1}")
    both = got.join(want, how="inner")
    check(len(both) == len(want), "intervals: a stored day is missing")
    check((both.hrv - both.rmssd_box).abs().max() < 1e-9, "intervals hrv != rmssd")
    check((both.restingHR.astype(float) - (both.lying_hr_box + 1e-9).round()).abs().max() == 0, "restingHR")
    for theirs, ours in [("fatigue", "fatigue"), ("soreness", "soreness"), ("stress", "stress"), ("mood", "mood"),
                         ("sleepQuality", "sleep")]:
        check((both[theirs] == both[ours + "_box"].map(level)).all(), f"intervals {theirs} mapping")
        check(both[theirs].between(1, 4).all(), f"intervals {theirs} outside 1-4")
    check(f"mood {int(hist.iloc[0].mood)}," in str(got.loc[pd.Timestamp(hist.iloc[0].date)].comments), "raw mood")
    rr_row = got.loc[pd.Timestamp(rr_day)]
    check(pd.isna(rr_row.fatigue) and not pd.isna(rr_row.hrvSDNN), f"intervals: the RR day's row {rr_row.to_dict()}")

    # GoldenCheetah
    out = run(["export", "--format", "goldencheetah"])
    g = pd.read_csv(io.StringIO(out.stdout), dtype={
        "timestamp_measurement": "string", "date": "string", "time": "string", "HR": "float64", "AVNN": "float64",
        "SDNN": "float64", "rMSSD": "float64"})
    ts = pd.to_datetime(g.timestamp_measurement, format="%Y-%m-%dT%H:%M:%S")
    ydm = pd.to_datetime(g.date, format="%Y-%d-%m")
    check((ts.dt.normalize() == ydm).all(), "goldencheetah: date is not the timestamp's day")
    check(g.time.str.fullmatch(r"\d\d:\d\d").all(), "goldencheetah time")
    gi = g.set_index(ydm)
    gb = gi.join(want, how="inner")
    check(len(gb) == len(want), "goldencheetah: a morning is missing")
    check((gb.rMSSD - gb.rmssd_box).abs().max() < 1e-9 and (gb.HR - gb.lying_hr_box).abs().max() < 1e-9, "gc values")
    check((g.rMSSD > 0).all(), "goldencheetah: rMSSD not positive")

    # Raw RR
    out = run(["export", "--rr", rr_day], use_now=False)
    r = pd.read_csv(io.StringIO(out.stdout), comment="#", header=None, names=["rr"], dtype={"rr": "float64"})
    # The box keeps RR in the strap's 1/1024 s units (spec §4.1): each value within one unit of the file's.
    check(np.allclose(r.rr.to_numpy(), rr, atol=1000 / 1024), "rr values")
    header = [line for line in out.stdout.splitlines() if line.startswith("#")]
    check(any("artifact rule: pattern" in line for line in header), "rr header: no rule")
    stated = float(next(line for line in header if "rMSSD " in line).split("rMSSD ")[1].split(" ms")[0])
    rejected = next(line for line in header if line.startswith("# rejected"))
    if rejected.endswith(": none"):
        # Kubios' time-domain rMSSD with no beats removed, over the values of the box's window (the import
        # used the morning window: 15 s settle, then 60 s of RR).
        clock = np.cumsum(r.rr.to_numpy())
        window = r.rr.to_numpy()[(clock > 15000) & (clock - 15000 <= 60000 + 2000)]
        ours = np.sqrt(np.mean(np.diff(window) ** 2))
        check(abs(ours - stated) / stated < 0.05, f"rr rMSSD {stated} vs numpy {ours:.1f}")
    check(len(r) == len(rr), f"rr count {len(r)} != {len(rr)}")

print(f"55-export-readers: {'FAILED' if bad else 'ok'}, {bad} mismatches; intervals {len(w)} rows, "
      f"goldencheetah {len(g)} rows, rr {len(r)} values")
sys.exit(1 if bad else 0)
