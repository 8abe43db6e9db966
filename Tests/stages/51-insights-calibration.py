"""Checks the insights engine's calibration grid (Health Engine README, "Calibration holds across the space").

Reads the JSON lines of `insights-bench grid --json 1` (one line per cell: rejection rates at alpha 0.05 of the
naive Pearson test, the plain block bootstrap and the engine) and asserts:

1. Every cell of rho in {0, .3, .5, .7, .85} x n in {90, 120, 365}: the engine's false-positive rate lies in
   0.05 +/- z*SE.
   Derivation of the tolerance: at T trials a rejection count of a test whose true rate is 0.05 is
   Binomial(T, 0.05), so the observed rate has SE = sqrt(0.05*0.95/T) (0.0069 at T = 1000). We want a correctly
   calibrated engine to pass all 15 cells with probability >= 99 %, so each cell gets a two-sided error of
   0.01/15 = 0.00067 (Bonferroni), z = 3.40, and the band is 0.05 +/- 3.40*SE = [0.027, 0.073] at T = 1000 --
   the same band the issue asks for ([0.03, 0.07]) up to Monte Carlo error. The runs are seeded, so a given
   build gives the same answer every time; the probability statement is over seeds.
2. The same check must reject broken calibration: it is applied to the naive Pearson test at rho >= 0.5 and
   to the plain block bootstrap at rho = 0.85, n = 90, and the stage fails unless those fail it.
3. Power at rho = 0.7, n = 365 (the effect lines): the engine's test rejects r = 0.3 in >= 75 % and r = 0.4 in
   >= 97 % of trials, each minus 3 binomial SEs at the observed rate.
"""
import json
import math
import sys

lines = [json.loads(l) for l in sys.stdin if l.strip().startswith("{")]
null = [c for c in lines if c["effect"] == 0]
power = [c for c in lines if c["effect"] != 0]
failures = []


def band(trials):
    se = math.sqrt(0.05 * 0.95 / trials)
    z = 3.40  # two-sided 0.01/15 per cell
    return 0.05 - z * se, 0.05 + z * se


cells = {(c["rho"], c["n"]) for c in null}
expected = {(r, n) for r in (0.0, 0.3, 0.5, 0.7, 0.85) for n in (90, 120, 365)}
if cells != expected:
    failures.append(f"grid cells {sorted(cells)} are not the 15 expected")

print(f"{'rho':>5} {'n':>4} {'trials':>6} {'naive':>6} {'block':>6} {'engine':>6}  band")
for c in sorted(null, key=lambda c: (c["rho"], c["n"])):
    lo, hi = band(c["trials"])
    ok = lo <= c["engine"] <= hi
    print(f"{c['rho']:>5} {c['n']:>4} {c['trials']:>6} {c['naive']:6.3f} {c['block_bootstrap']:6.3f} "
          f"{c['engine']:6.3f}  [{lo:.3f}, {hi:.3f}] {'ok' if ok else 'FAIL'}")
    if not ok:
        failures.append(f"engine fpr {c['engine']:.3f} outside [{lo:.3f}, {hi:.3f}] at rho={c['rho']} n={c['n']}")
    # The check must catch a test that ignores autocorrelation.
    if c["rho"] >= 0.5 and lo <= c["naive"] <= hi:
        failures.append(f"the check would pass the naive test at rho={c['rho']} n={c['n']}: it cannot tell")
    if (c["rho"], c["n"]) == (0.85, 90) and lo <= c["block_bootstrap"] <= hi:
        failures.append("the check would pass the plain block bootstrap at rho=0.85 n=90: it cannot tell")

for c in power:
    need = {0.3: 0.75, 0.4: 0.97}.get(round(c["effect"], 2))
    if need is None:
        continue
    se = math.sqrt(max(c["engine"] * (1 - c["engine"]), 1e-9) / c["trials"])
    ok = c["engine"] >= need - 3 * se
    print(f"power r={c['effect']} rho={c['rho']} n={c['n']}: engine {c['engine']:.3f} (need >= {need}), "
          f"with |r| >= 0.25 floor {c['engine_with_floor']:.3f} (ceiling |r| >= 0.25 alone {c['floor_only']:.3f}) "
          f"{'ok' if ok else 'FAIL'}")
    if not ok:
        failures.append(f"power {c['engine']:.3f} < {need} at r={c['effect']}")
if len(power) != 2:
    failures.append("expected the two power lines (r = 0.3 and 0.4)")

for f in failures:
    print("FAIL: " + f, file=sys.stderr)
print(f"insights calibration: {len(null)} cells, {len(power)} power checks, {len(failures)} failures")
sys.exit(1 if failures else 0)
