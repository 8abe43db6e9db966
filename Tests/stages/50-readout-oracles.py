"""Checks LnRMSSDWeek (Sources/Insights/Readout) against pandas' rolling windows on seeded series with gaps:
ln rMSSD, the 7-day mean of the valid days, the 7-day CV (sample SD / mean × 100), the SWC (0.5 × the 60-day
sample SD) and the count of valid days in the last 7. The engine answers through `insights-bench oracle`
("lnweek" lines), one line per prefix of each series. Exits non-zero on any mismatch."""
import subprocess
import sys

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
sys.exit(1 if bad else 0)
