"""Checks the T4 experiment's calibration from `insights-bench experiment --json 1` lines.

1. No planted effect, rho in {0, .5, .7, .85} x {28, 56} mornings, blocks of 4, 10 % of mornings missed: the
   randomisation test's rejection rate at alpha 0.05 lies in 0.05 +/- z*SE, SE = sqrt(0.05*0.95/T), z = 3.23 (a
   per-cell two-sided error of 0.01/8, Bonferroni over the 8 cells, as in stage 51). The test is exact under the
   sharp null, so this is Monte Carlo error alone.
2. Planted: every habit morning lowered by the change the person's own plan (60-morning history) promised to
   detect with 80 % power. Printed against the promise; the stage fails when a cell's power falls below
   0.80 - 0.10 - 3 SE. The 0.10 is what a plan made from 60 mornings costs (its SD and day-to-day changes are
   estimates; averaged over people, power at an estimated MDE is below the power at the true one): measured
   0.73-0.77 here, see docs/insights.md.
3. The 95 % CI (test inversion) covers the true change in 0.95 +/- z*SE of the trials in every cell.
"""
import json
import math
import statistics
import sys

cells = [json.loads(l) for l in sys.stdin if l.strip().startswith("{")]
null = [c for c in cells if not c["planted"]]
planted = [c for c in cells if c["planted"]]
failures = []
z = statistics.NormalDist().inv_cdf(1 - 0.01 / max(1, len(null)) / 2)
print(f"T4 randomisation test, alpha 0.05, z = {z:.2f}")
print(f"{'rho':>5} {'days':>4} {'trials':>6} {'fpr':>6} {'band':>15} {'power':>6} {'promise':>7} {'ms':>5} {'ci cover':>8}")
for c in sorted(null, key=lambda c: (c["rho"], c["days"])):
    se = math.sqrt(0.05 * 0.95 / c["trials"])
    lo, hi = 0.05 - z * se, 0.05 + z * se
    p = next((q for q in planted if q["rho"] == c["rho"] and q["days"] == c["days"]), None)
    ok = lo <= c["rate"] <= hi
    if not ok:
        failures.append(f"fpr {c['rate']:.3f} outside [{lo:.3f}, {hi:.3f}] at rho {c['rho']} days {c['days']}")
    power = p["rate"] if p else float("nan")
    if p:
        floor = 0.70 - 3 * math.sqrt(power * (1 - power) / p["trials"])
        if power < floor:
            failures.append(f"power {power:.3f} below {floor:.3f} at rho {c['rho']} days {c['days']}")
    cse = math.sqrt(0.95 * 0.05 / c["trials"])
    for q in [c] + ([p] if p else []):
        if not (0.95 - z * cse <= q["ci_coverage"] <= 0.95 + z * cse):
            failures.append(f"CI coverage {q['ci_coverage']:.3f} at rho {q['rho']} days {q['days']}")
    print(f"{c['rho']:>5} {c['days']:>4} {c['trials']:>6} {c['rate']:6.3f} [{lo:.3f}, {hi:.3f}] {power:6.3f} "
          f"{0.80:7.2f} {p['promised_change'] if p else 0:5.1f} {c['ci_coverage']:8.3f} {'ok' if ok else 'FAIL'}")
if len(null) != 8 or len(planted) != 8:
    failures.append(f"expected 8 cells each, got {len(null)} and {len(planted)}")
if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ok")
