"""Checks the insights engine's calibration (Health Engine README, "Calibration holds across the space").

Reads the JSON lines of `insights-bench grid --json 1` (one line per cell: rejection rates at alpha 0.05 of the
naive Pearson test, the plain block bootstrap and the engine) and `insights-bench shifts --json 1` (the change-point
test), and asserts:

1. Association test, every cell of rho in {0, .3, .5, .7, .85} x n in {90, 120, 365}: the engine's false-positive
   rate lies in 0.05 +/- z*SE.
   Derivation of the tolerance: at T trials a rejection count of a test whose true rate is 0.05 is
   Binomial(T, 0.05), so the observed rate has SE = sqrt(0.05*0.95/T) (0.0069 at T = 1000). We want a correctly
   calibrated engine to pass all cells of a family with probability >= 99 %, so each cell gets a two-sided error
   of 0.01/cells (Bonferroni): z = 3.40 for the 15 cells, band [0.027, 0.073] at T = 1000 -- the band the issue
   asks for ([0.03, 0.07]) up to Monte Carlo error. The runs are seeded, so a given build gives the same answer
   every time; the probability statement is over seeds.
2. The same check must reject broken calibration: it is applied to the naive Pearson test at rho >= 0.5 and
   to the plain block bootstrap at rho = 0.85, n = 90, and the stage fails unless those fail it.
3. Missing days (30 % of calendar days without a value, the test given the dates): 4 cells of 2000 trials (SE
   0.0049), z = 3.02, band [0.035, 0.065].
4. Power at rho = 0.7, n = 365 (the effect lines): the engine's test rejects r = 0.3 in >= 75 % and r = 0.4 in
   >= 97 % of trials, each minus 3 binomial SEs at the observed rate. With the |r| >= 0.25 floor a finding also
   needs, no test can do better than the floor alone (|r^| >= 0.25 in 0.731 of trials at r = 0.3 and 0.971 at
   r = 0.4, from 400 000 simulated pairs; see docs/insights.md): the check asserts that the engine loses at most
   1 percentage point to the floor-only ceiling measured on the same trials.
   The same lines check that the engine's 95 % CI covers the true r in 0.95 +/- 3.40 SE of the trials.
5. Shift test (change point), rho in {0, .3, .5, .7, .85} x n in {45, 60, 90, 120, 365}: false-positive rate in
   0.05 +/- z*SE with z = 3.54 (25 cells).
"""
import json
import math
import statistics
import sys

lines = [json.loads(l) for l in sys.stdin if l.strip().startswith("{")]
shift = [c for c in lines if c.get("kind") == "shift"]
grid = [c for c in lines if c.get("kind") != "shift"]
null = [c for c in grid if c["effect"] == 0 and c.get("missing", 0) == 0]
gaps = [c for c in grid if c["effect"] == 0 and c.get("missing", 0) > 0]
power = [c for c in grid if c["effect"] != 0]
failures = []


def z_for(cells):
    """Two-sided normal quantile for a per-cell error of 0.01 / cells."""
    return statistics.NormalDist().inv_cdf(1 - 0.01 / cells / 2)


def band(trials, z):
    se = math.sqrt(0.05 * 0.95 / trials)
    return 0.05 - z * se, 0.05 + z * se


cells = {(c["rho"], c["n"]) for c in null}
expected = {(r, n) for r in (0.0, 0.3, 0.5, 0.7, 0.85) for n in (90, 120, 365)}
if cells != expected:
    failures.append(f"grid cells {sorted(cells)} are not the 15 expected")

def check_engine(cells, z, what):
    """Prints each cell's rates and fails the cells whose engine rate is outside the band; returns the bands."""
    print(f"{what}, z = {z:.2f}")
    print(f"{'rho':>5} {'n':>4} {'trials':>6} {'naive':>6} {'block':>6} {'engine':>6}  band")
    bands = {}
    for c in sorted(cells, key=lambda c: (c["rho"], c["n"])):
        lo, hi = band(c["trials"], z)
        bands[(c["rho"], c["n"])] = (lo, hi)
        ok = lo <= c["engine"] <= hi
        print(f"{c['rho']:>5} {c['n']:>4} {c['trials']:>6} {c['naive']:6.3f} {c['block_bootstrap']:6.3f} "
              f"{c['engine']:6.3f}  [{lo:.3f}, {hi:.3f}] {'ok' if ok else 'FAIL'}")
        if not ok:
            failures.append(f"{what}: engine fpr {c['engine']:.3f} outside [{lo:.3f}, {hi:.3f}] "
                            f"at rho={c['rho']} n={c['n']}")
    return bands


bands = check_engine(null, z_for(15), "association test")
for c in null:
    lo, hi = bands[(c["rho"], c["n"])]
    # The check must catch a test that ignores autocorrelation.
    if c["rho"] >= 0.5 and lo <= c["naive"] <= hi:
        failures.append(f"the check would pass the naive test at rho={c['rho']} n={c['n']}: it cannot tell")
    if (c["rho"], c["n"]) == (0.85, 90) and lo <= c["block_bootstrap"] <= hi:
        failures.append("the check would pass the plain block bootstrap at rho=0.85 n=90: it cannot tell")

if len(gaps) != 4:
    failures.append(f"expected 4 missing-days cells, got {len(gaps)}")
check_engine(gaps, z_for(4), f"with {gaps[0]['missing'] if gaps else 0:.0%} of days missing")

for c in power:
    need = {0.3: 0.75, 0.4: 0.97}.get(round(c["effect"], 2))
    if need is None:
        continue
    se = math.sqrt(max(c["engine"] * (1 - c["engine"]), 1e-9) / c["trials"])
    ok = c["engine"] >= need - 3 * se
    lost = c["floor_only"] - c["engine_with_floor"]
    print(f"power r={c['effect']} rho={c['rho']} n={c['n']}: engine {c['engine']:.3f} (need >= {need}), "
          f"with |r| >= 0.25 floor {c['engine_with_floor']:.3f} (ceiling |r| >= 0.25 alone {c['floor_only']:.3f}) "
          f"{'ok' if ok and lost <= 0.01 else 'FAIL'}")
    if not ok:
        failures.append(f"power {c['engine']:.3f} < {need} at r={c['effect']}")
    if lost > 0.01:
        failures.append(f"the engine loses {lost:.3f} to the floor-only ceiling at r={c['effect']}")
    # The 95 % CI must cover the true r: Binomial(T, 0.95), band 0.95 +/- 3.40 SE (0.0069 at T = 1000).
    cover_se = math.sqrt(0.95 * 0.05 / c["trials"])
    cover_ok = abs(c["ci_coverage"] - 0.95) <= 3.40 * cover_se
    print(f"  95 % CI covers r={c['effect']} in {c['ci_coverage']:.3f} of trials "
          f"[{0.95 - 3.40 * cover_se:.3f}, {0.95 + 3.40 * cover_se:.3f}] {'ok' if cover_ok else 'FAIL'}")
    if not cover_ok:
        failures.append(f"CI coverage {c['ci_coverage']:.3f} at r={c['effect']}")
if len(power) != 2:
    failures.append("expected the two power lines (r = 0.3 and 0.4)")

z = z_for(25)
shift_cells = {(c["rho"], c["n"]) for c in shift}
if shift_cells != {(r, n) for r in (0.0, 0.3, 0.5, 0.7, 0.85) for n in (45, 60, 90, 120, 365)}:
    failures.append("the shift grid is not the 25 expected cells")
print(f"shift test, z = {z:.2f}")
print(f"{'rho':>5} {'n':>4} {'trials':>6} {'rate':>6}  band")
for c in sorted(shift, key=lambda c: (c["rho"], c["n"])):
    lo, hi = band(c["trials"], z)
    ok = lo <= c["rate"] <= hi
    print(f"{c['rho']:>5} {c['n']:>4} {c['trials']:>6} {c['rate']:6.3f}  [{lo:.3f}, {hi:.3f}] {'ok' if ok else 'FAIL'}")
    if not ok:
        failures.append(f"shift fpr {c['rate']:.3f} outside [{lo:.3f}, {hi:.3f}] at rho={c['rho']} n={c['n']}")

for f in failures:
    print("FAIL: " + f, file=sys.stderr)
print(f"insights calibration: {len(null)} + {len(gaps)} association cells, {len(power)} power checks, "
      f"{len(shift)} shift cells, {len(failures)} failures")
sys.exit(1 if failures else 0)
