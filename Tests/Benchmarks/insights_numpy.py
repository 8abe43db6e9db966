"""The insights engine's family step in vectorised numpy, for the speed comparison with insights-bench.

Same algorithm as Sources/Insights/Statistics/AssociationTest.swift: biased ACF, Sokal window (c = 5),
L = round(tau * n^(1/3)) in [2, n/4], circular block null with independent x/y starts rescaled to Bartlett's
variance, paired block bootstrap percentile CI widened by the same factor, p = (1 + #)/(B + 1), then BH.
Each test is vectorised over its B resamples (the natural numpy form; one test's resamples are one array op).

usage: python3 insights_numpy.py TESTS [N] [B] [REPEATS]
"""
import sys
import time

import numpy as np


def acf(x):
    x = x - x.mean()
    n = len(x)
    f = np.fft.rfft(x, 2 * n)
    a = np.fft.irfft(f * np.conj(f))[:n]
    return a / a[0]


def integrated_time(x, c=5.0):
    rho = acf(x)
    taus = 2.0 * np.cumsum(rho) - 1.0
    m = np.arange(len(taus)) < c * taus
    w = int(np.argmin(m)) if np.any(m) else len(taus) - 1
    return taus[w], w, rho


def block_length(tau, n):
    upper = max(2, n // 4)
    return int(min(upper, max(2, np.floor(tau * n ** (1 / 3) + 0.5))))


def block_indices(rng, n, L, B):
    nb = -(-n // L)
    starts = rng.integers(0, n, (B, nb))
    return ((starts[:, :, None] + np.arange(L)[None, None, :]).reshape(B, -1)[:, :n]) % n


def rows_pearson(a, b):
    a = a - a.mean(axis=1, keepdims=True)
    b = b - b.mean(axis=1, keepdims=True)
    return np.einsum("ij,ij->i", a, b) / np.sqrt(np.einsum("ij,ij->i", a, a) * np.einsum("ij,ij->i", b, b))


def engine_test(x, y, B, rng):
    n = len(x)
    r = np.corrcoef(x, y)[0, 1]
    tx, wx, rx = integrated_time(x)
    ty, wy, ry = integrated_time(y)
    lx, ly = block_length(tx, n), block_length(ty, n)
    w = max(wx, wy)
    s = max(1.0, 1.0 + 2.0 * np.sum(rx[1 : w + 1] * ry[1 : w + 1]))
    neff = n / s
    target = 1.0 / (neff - 1.0) if neff > 1 else 1.0
    null = rows_pearson(x[block_indices(rng, n, lx, B)], y[block_indices(rng, n, ly, B)])
    widening = np.sqrt(target / np.mean(null * null))
    p = (1 + np.sum(np.abs(null) * widening >= abs(r))) / (B + 1)
    idx = block_indices(rng, n, max(lx, ly), B)
    paired = rows_pearson(x[idx], y[idx])
    lo, hi = np.quantile(paired, [0.025, 0.975])
    return r, p, r + widening * (lo - r), r + widening * (hi - r)


def bh(p):
    p = np.asarray(p)
    m = len(p)
    order = np.argsort(p)
    q = p[order] * m / np.arange(1, m + 1)
    q = np.minimum.accumulate(q[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(q, 1)
    return out


def ar1(rng, rho, n):
    e = rng.standard_normal(n)
    x = np.empty(n)
    x[0] = e[0] / np.sqrt(1 - rho * rho)
    for t in range(1, n):
        x[t] = rho * x[t - 1] + e[t]
    return x


def main():
    tests = int(sys.argv[1]) if len(sys.argv) > 1 else 120
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 365
    B = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    rng = np.random.default_rng(42)
    pairs = [(ar1(rng, 0.7, n), ar1(rng, 0.7, n)) for _ in range(tests)]
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = [engine_test(x, y, B, rng) for x, y in pairs]
        q = bh([r[1] for r in res])
        times.append(time.perf_counter() - t0)
    print(f"numpy {np.__version__} scan {tests} tests, n={n}, B={B}: median of {repeats} {np.median(times):.4f} s "
          f"[{' '.join(f'{t:.4f}' for t in times)}] (sum q {q.sum():.3f})")


if __name__ == "__main__":
    main()
