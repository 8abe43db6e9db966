"""Checks LnRMSSDWeek (Sources/Insights/Readout) against pandas' rolling windows on seeded series with gaps:
ln rMSSD, the 7-day mean of the valid days, the 7-day CV (sample SD / mean × 100), the SWC (0.5 × the 60-day
sample SD) and the count of valid days in the last 7. The engine answers through `insights-bench oracle`
("lnweek" lines), one line per prefix of each series.

Then, through `recoverydeck-fixture` (second argument: the command line at a stated time) on a seeded history
with missing mornings imported with `import csv`: `history --json`'s per-day `lnRMSSDWeek` against pandas over
calendar days, and `lights --try`'s rMSSD counts under 1.0/1.5 and under the tried edges against a pandas
restatement of the Couzens rule (7-day mean of at least 4 values against the 60 days before, sample SD floored
at 1 ms, at least 14 values and 14 complete days). Exits non-zero on any mismatch."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

bench = sys.argv[1]
rng = np.random.default_rng(20261203)
lines, expected = [], []
for series in range(40):
    n = int(rng.integers(1, 120))
    r = np.exp(rng.normal(4.0, 0.25, n))
    r[rng.uniform(0, 1, n) < rng.uniform(0, 0.6)] = np.nan  # missing mornings
    ln = pd.Series(np.log(r))
    mean7 = ln.rolling(7, min_periods=1).mean()
    cv7 = ln.rolling(7, min_periods=2).std(ddof=1) / mean7 * 100
    swc = 0.5 * ln.rolling(60, min_periods=2).std(ddof=1)
    k = ln.rolling(7, min_periods=0).count()
    for t in range(n):
        lines.append("lnweek " + " ".join("nan" if np.isnan(v) else repr(float(v)) for v in r[: t + 1]))
        expected.append((f"series {series} day {t}", [ln[t], mean7[t], cv7[t], swc[t], k[t]]))

out = subprocess.run([bench, "oracle"], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
answers = out.stdout.splitlines()
if len(answers) != len(expected):
    sys.exit(f"50-readout-oracles: {len(answers)} answers to {len(expected)} cases")
bad = 0
for (label, want), line in zip(expected, answers):
    got = [np.nan if v == "nil" else float(v) for v in line.split()]
    for name, w, g in zip(["ln", "mean7", "cv7", "swc", "k"], want, got):
        if np.isnan(w) != np.isnan(g) or (not np.isnan(w) and abs(w - g) > 1e-9 * max(1, abs(w))):
            bad += 1
            if bad <= 10:
                print(f"MISMATCH {label} {name}: swift {g} pandas {w}")
print(f"50-readout-oracles: {len(expected)} cases, {bad} mismatches")


def close(w, g):
    if w is None or g is None or (isinstance(w, float) and np.isnan(w)):
        return (w is None or (isinstance(w, float) and np.isnan(w))) and g is None
    return abs(w - g) <= 1e-9 * max(1, abs(w))


def through_the_binary(cli):
    """history --json and lights --try against pandas on one seeded imported history."""
    global bad
    rng = np.random.default_rng(20261204)
    days = pd.date_range("2026-01-01", "2026-06-30", freq="D")
    rmssd = pd.Series(np.exp(rng.normal(4.0, 0.2, len(days))), index=days).round(1)
    rmssd[rng.uniform(0, 1, len(days)) < 0.25] = np.nan  # mornings not stored
    rmssd.iloc[-1] = 60.0  # today is measured (the gate wants today's check-in)
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        rows = ["date,rmssd,lying_hr,standing_hr,peak_hr,fatigue,mood,soreness,stress,sleep"]
        rows += [f"{d.date()},{v},52,70,80,5,5,5,5,5" for d, v in rmssd.items() if not np.isnan(v)]
        path = os.path.join(tmp, "h.csv")
        with open(path, "w") as f:
            f.write("\n".join(rows) + "\n")
        env = dict(os.environ, RECOVERYDECK_DB=os.path.join(tmp, "r.db"), SWIFT_BACKTRACE="enable=no")
        now = ["--now", "2026-06-30T08:00"]
        run = lambda args: subprocess.run([cli] + now + args, env=env, capture_output=True, text=True, check=True).stdout
        run(["import", "csv", path, "--map", "date=date,rmssd=rmssd,lying_hr=lying_hr,standing_hr=standing_hr,"
             "peak_hr=peak_hr,fatigue=fatigue,mood=mood,soreness=soreness,stress=stress,sleep=sleep"])

        ln = np.log(rmssd)
        mean7 = ln.rolling(7, min_periods=1).mean()
        cv7 = ln.rolling(7, min_periods=2).std(ddof=1) / mean7 * 100
        swc = 0.5 * ln.rolling(60, min_periods=2).std(ddof=1)
        k = ln.rolling(7, min_periods=0).count()
        history = json.loads(run(["history", "--json", "--days", "120"]))["days"]
        for day in history:
            t = pd.Timestamp(day["date"])
            w = day["lnRMSSDWeek"]
            want = [ln[t], mean7[t], cv7[t], swc[t]]
            got = [w["lnRMSSD"], w["rollingMean7"], w["cv7Percent"], w["smallestWorthwhileChange"]]
            for name, a, b in zip(["ln", "mean7", "cv7", "swc"], want, got):
                cases += 1
                if not close(None if np.isnan(a) else float(a), b):
                    bad += 1
                    print(f"MISMATCH history {day['date']} {name}: swift {b} pandas {a}")
            cases += 1
            if w["validMornings"] != int(k[t]) or w["rollingMeanUnreliable"] != (k[t] < 3):
                bad += 1
                print(f"MISMATCH history {day['date']} k: swift {w['validMornings']} pandas {k[t]}")

        acute = rmssd.rolling(7, min_periods=4).mean()
        shifted = rmssd.shift(1)
        norm_n = shifted.rolling(60, min_periods=0).count()
        norm_mean = shifted.rolling(60, min_periods=14).mean()
        norm_sd = shifted.rolling(60, min_periods=14).std(ddof=1).clip(lower=1.0)
        z = (acute - norm_mean) / norm_sd
        lit = (norm_n >= 14) & z.notna() & rmssd.notna()  # every stored day here is complete
        last120 = days[-120:]
        for yellow, red in [(1.0, 1.5), (0.8, 1.3)]:
            out = json.loads(run(["lights", "--try", f"{yellow},{red}", "--days", "120", "--json"]))
            series = next(s for s in out["series"] if s["series"] == "rmssd")
            za = z[last120].abs()
            on = lit[last120]
            want = {"green": int((on & (za <= yellow)).sum()), "yellow": int((on & (za > yellow) & (za <= red)).sum()),
                    "red": int((on & (za > red)).sum()), "unlit": int((~on).sum())}
            cases += 1
            if series["trial"] != want:
                bad += 1
                print(f"MISMATCH lights --try {yellow},{red}: swift {series['trial']} pandas {want}")
            else:
                print(f"lights --try {yellow},{red} over 120 days, rMSSD: {want}")
    print(f"50-readout-oracles: {cases} cases through recoverydeck, {bad} mismatches in all")


if len(sys.argv) > 2:
    through_the_binary(sys.argv[2])
sys.exit(1 if bad else 0)
