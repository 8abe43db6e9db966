"""Checks the insights engine's building blocks against independent implementations:
- Benjamini–Hochberg q-values against statsmodels' multipletests(method='fdr_bh'): its published test vectors
  (statsmodels/stats/tests/test_multi.py) and 300 seeded random families, with ties;
- the Sokal-windowed integrated autocorrelation time against emcee.autocorr.integrated_time (c = 5) on seeded
  AR(1) series;
- Pearson r against numpy.corrcoef;
- Shao & Zhang's change-point statistic and its split against a numpy implementation of the definition;
- the engine's effective number of days on series with missing days (Bartlett's sum over calendar lags from
  present pairs) against a numpy FFT implementation of the same definition.
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



def calendar_acf(v, days):
    """rho(k) over calendar lags from present pairs only, shrunk by (1 - k/T); and the pair counts N_k."""
    span = days[-1] - days[0] + 1
    c = v - v.mean()
    z = np.zeros(span)
    a = np.zeros(span)
    z[days - days[0]] = c
    a[days - days[0]] = 1
    num = np.fft.irfft(np.abs(np.fft.rfft(z, 2 * span)) ** 2)[:span]
    pairs = np.rint(np.fft.irfft(np.abs(np.fft.rfft(a, 2 * span)) ** 2)[:span])
    k = np.arange(span)
    per_pair = np.where(pairs > 0, num / np.maximum(pairs, 1), 0.0) / (num[0] / len(v))
    return (1 - k / span) * per_pair, pairs, span


def sokal(rho, c=5.0):
    taus = 2.0 * np.cumsum(rho) - 1.0
    m = np.arange(len(taus)) < c * taus
    return int(np.argmin(m)) if np.any(m) else len(taus) - 1


def calendar_effective_n(x, y, days):
    """Bartlett's n / (1 + 2 sum_k (N_k/n) rho_x(k) rho_y(k)) with per-pair rho's, over the wider Sokal window."""
    n = len(x)
    rx, pairs, span = calendar_acf(x, days)
    ry, _, _ = calendar_acf(y, days)
    w = max(sokal(rx), sokal(ry))
    k = np.arange(1, w + 1)
    ux, uy = rx[1 : w + 1] / (1 - k / span), ry[1 : w + 1] / (1 - k / span)
    s = 1 + 2 * np.sum(pairs[1 : w + 1] / n * (1 - k / span) * ux * uy)
    return n / max(1.0, s)


# The engine's effective n with missing days: calendar lags, present pairs only (numpy FFT implementation of the
# same definition, Sources/Insights/Statistics/AssociationTest.swift). Without gaps it is the plain biased form.
for k in range(60):
    rho = float(rng.choice([0.0, 0.5, 0.7, 0.85]))
    span = int(rng.integers(40, 400))
    e = rng.standard_normal((2, span))
    xy = np.empty((2, span))
    xy[:, 0] = e[:, 0] / np.sqrt(1 - rho * rho)
    for t in range(1, span):
        xy[:, t] = rho * xy[:, t - 1] + e[:, t]
    keep = rng.uniform(size=span) >= (0.0 if k % 5 == 0 else rng.uniform(0.05, 0.5))
    if k % 7 == 1:
        hole = int(rng.integers(0, span - 20))
        keep[hole : hole + 20] = False  # a holiday
    keep[0] = keep[-1] = True
    days = np.nonzero(keep)[0]
    x, y = xy[0, keep], xy[1, keep]
    want = calendar_effective_n(x, y, days)
    payload = f"{len(x)} " + " ".join(repr(float(v)) for v in np.concatenate([x, y])) + " " + " ".join(
        str(int(d)) for d in days)
    cases.append(("bartlett", payload, want, 1e-9, f"effective n rho={rho} span={span} present={len(x)} #{k}"))



def shao_zhang(x):
    """Shao & Zhang (2010) G = max_k T(k)^2 / V(k) from the definition (numpy, O(n^2)), splits leaving at least
    max(7, ceil(n/10)) values each side; returns G and the split k (values before it)."""
    n = len(x)
    m = max(7, -(-n // 10))
    best, best_k = -1.0, m
    for k in range(m, n - m + 1):
        t2 = (np.sum(x[:k]) - k / n * np.sum(x)) ** 2 / n
        left = np.cumsum(x[:k] - x[:k].mean())
        right = np.cumsum((x[k:] - x[k:].mean())[::-1])
        v = (np.sum(left**2) + np.sum(right**2)) / n**2
        if t2 / v > best:
            best, best_k = t2 / v, k
    return best, best_k


# The change-point statistic against its definition.
for k in range(40):
    n = int(rng.integers(14, 400))
    rho = float(rng.choice([0.0, 0.5, 0.8]))
    e = rng.standard_normal(n)
    x = np.empty(n)
    x[0] = e[0] / np.sqrt(1 - rho * rho)
    for t in range(1, n):
        x[t] = rho * x[t - 1] + e[t]
    x[int(rng.integers(n // 4, 3 * n // 4)) :] += rng.choice([0.0, 1.0, -2.0])
    x = x * rng.uniform(0.5, 30) + rng.uniform(-20, 60)
    g, split = shao_zhang(x)
    cases.append(("shift", " ".join(repr(float(v)) for v in x), [g, split], 1e-9, f"shift statistic n={n} #{k}"))

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
    got = np.array([float(v) for v in line.split()[: (len(expected) if kind in ("bh", "shift") else 1)]])
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
