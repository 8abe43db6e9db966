"""Checks the insights engine's building blocks against independent implementations:
- Benjamini–Hochberg q-values against statsmodels' multipletests(method='fdr_bh'): its published test vectors
  (statsmodels/stats/tests/test_multi.py) and 300 seeded random families, with ties;
- the Sokal-windowed integrated autocorrelation time against emcee.autocorr.integrated_time (c = 5) on seeded
  AR(1) series;
- Pearson r against numpy.corrcoef.
The engine side answers through `insights-bench oracle` (a line protocol). Exits non-zero on any mismatch."""
import logging
import subprocess
import sys
import warnings

import emcee
import numpy as np
from statsmodels.stats.multitest import multipletests

bench = sys.argv[1]
rng = np.random.default_rng(20260802)
cases = []  # (kind, payload, expected, tolerance, label)

# statsmodels' published vectors: pval0 / res_multtest1, res_multtest2's raw p, and Benjamini & Hochberg's example.
published = [
    [0.838541367553, 0.642193923795, 0.680845947633, 0.967833824309, 0.71626938238, 0.177096952723,
     5.23656777208e-005, 0.0202732688798, 0.00028140506198, 0.0149877310796],
    [0.002, 0.004, 0.006, 0.008, 0.01, 0.012],
    [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528,
     0.7590, 1.000],
]
families = [np.array(p) for p in published]
for k in range(300):
    m = int(rng.integers(1, 2001))
    p = rng.uniform(0, 1, m) ** rng.uniform(0.5, 4)  # some families rich in small p
    if k % 3 == 0:
        p = np.round(p, 2)  # ties
    families.append(p)
for i, p in enumerate(families):
    q = multipletests(p, method="fdr_bh")[1]
    cases.append(("bh", " ".join(repr(float(v)) for v in p), q, 1e-12, f"bh family {i} (m={len(p)})"))

# emcee warns that these chains are short for MCMC; the estimate itself is what is compared.
warnings.simplefilter("ignore")
logging.getLogger("emcee").setLevel(logging.ERROR)
logging.disable(logging.WARNING)
for rho in (0.0, 0.3, 0.5, 0.7, 0.85, 0.95):
    for n in (60, 90, 120, 365, 1000):
        for rep in range(3):
            e = rng.standard_normal(n)
            x = np.empty(n)
            x[0] = e[0] / np.sqrt(1 - rho * rho)
            for t in range(1, n):
                x[t] = rho * x[t - 1] + e[t]
            tau = emcee.autocorr.integrated_time(x, c=5, quiet=True)[0]
            cases.append(("tau", " ".join(repr(float(v)) for v in x), tau, 1e-9, f"tau rho={rho} n={n} #{rep}"))

for k in range(100):
    n = int(rng.integers(3, 500))
    x = rng.standard_normal(n) * rng.uniform(0.1, 100) + rng.uniform(-50, 50)
    y = 0.5 * x + rng.standard_normal(n) * rng.uniform(0.1, 100)
    if k % 4 == 0:
        x = (rng.uniform(0, 1, n) < 0.2).astype(float)  # a habit tag
    r = np.corrcoef(x, y)[0, 1]
    payload = f"{n} " + " ".join(repr(float(v)) for v in np.concatenate([x, y]))
    cases.append(("pearson", payload, r, 1e-12, f"pearson n={n} #{k}"))

stdin = "\n".join(f"{kind} {payload}" for kind, payload, _, _, _ in cases) + "\n"
out = subprocess.run([bench, "oracle"], input=stdin, capture_output=True, text=True, check=True).stdout.splitlines()
if len(out) != len(cases):
    print(f"oracle: {len(out)} answers for {len(cases)} cases", file=sys.stderr)
    sys.exit(1)
failures = 0
counts = {}
for (kind, _, expected, tol, label), line in zip(cases, out):
    counts[kind] = counts.get(kind, 0) + 1
    got = np.array([float(v) for v in line.split()[: (len(expected) if kind == "bh" else 1)]])
    want = np.atleast_1d(np.asarray(expected, dtype=float))
    err = np.max(np.abs(got - want) / np.maximum(1.0, np.abs(want)))
    if not np.isfinite(err) or err > tol:
        failures += 1
        print(f"MISMATCH {label}: max relative error {err:.3g} > {tol}", file=sys.stderr)
        if failures < 5:
            print(f"  engine {got[:6]}\n  oracle {want[:6]}", file=sys.stderr)
summary = ", ".join(f"{v} {k}" for k, v in counts.items())
print(f"insights oracles: {summary}; {failures} mismatches")
sys.exit(1 if failures else 0)
