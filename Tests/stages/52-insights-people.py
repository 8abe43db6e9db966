"""No-effect people through the real CLI path (`import csv`, then `findings --json`), and planted-effect people
beside them.

Usage: 52-insights-people.py generate DIR PEOPLE SEED [--weekly] [--planted]   writes DIR/person-K.csv
       52-insights-people.py check < lines                                  reads `tag K json` lines, asserts

A person: 200 days ending on 2026-11-30, 10 % of days missing (the last day never, so the gate opens), rMSSD
log-normal AR(1) (rho 0.7, ln 55 ms +- 0.25), the five scores ordinal 1-7 AR(1) (rho 0.5), every series
independent of every other. --weekly adds an independent weekly rhythm of random phase to every series.
--planted makes the sleep score drive the same morning's rMSSD (r about 0.45 on the latent scale).
"""
import json
import math
import random
import statistics
import sys
from datetime import date, timedelta

END = date(2026, 11, 30)
DAYS = 200
ITEMS = ["fatigue", "mood", "soreness", "stress", "sleep"]


def ar1(rng, rho, n):
    x = [rng.gauss(0, 1)]
    for _ in range(n - 1):
        x.append(rho * x[-1] + math.sqrt(1 - rho * rho) * rng.gauss(0, 1))
    return x


def weekly(rng, n, amplitude):
    phase = rng.uniform(0, 2 * math.pi)
    return [amplitude * math.cos(2 * math.pi * t / 7 + phase) for t in range(n)]


def person(seed, weekly_rhythm, planted):
    rng = random.Random(seed)
    latent = {item: ar1(rng, 0.5, DAYS) for item in ITEMS}
    hrv = ar1(rng, 0.7, DAYS)
    if weekly_rhythm:
        for item in ITEMS:
            latent[item] = [a + b for a, b in zip(latent[item], weekly(rng, DAYS, 0.8))]
        hrv = [a + b for a, b in zip(hrv, weekly(rng, DAYS, 0.8))]
    if planted:
        hrv = [0.45 * s + math.sqrt(1 - 0.45 ** 2) * h for s, h in zip(latent["sleep"], hrv)]
    rows = ["date,rmssd," + ",".join(ITEMS)]
    start = END - timedelta(days=DAYS - 1)
    for t in range(DAYS):
        if t < DAYS - 1 and rng.random() < 0.10:
            continue
        scores = [min(7, max(1, round(4 + 1.3 * latent[item][t]))) for item in ITEMS]
        rmssd = 55 * math.exp(0.25 * hrv[t])
        rows.append(f"{start + timedelta(days=t)},{rmssd:.1f}," + ",".join(map(str, scores)))
    return "\n".join(rows) + "\n"


def generate(args):
    folder, people, seed = args[0], int(args[1]), int(args[2])
    for k in range(people):
        with open(f"{folder}/person-{k}.csv", "w") as f:
            f.write(person(seed * 1000 + k, "--weekly" in args, "--planted" in args))


def non_definitional(doc):
    """Findings a person would act on: the questions' family (the headline's), definitional pairs excluded."""
    out = [f["sentence"] for f in doc["findings"] if not f.get("near_tautological")]
    out += [s["sentence"] for s in doc["shifts"] if s["survived"]]
    return out


def upper_bound(k, n, z):
    """Wilson score upper bound of a binomial proportion."""
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre + half) / (1 + z * z / n)


def check():
    rows = {}
    for line in sys.stdin:
        tag, k, text = line.split(" ", 2)
        rows.setdefault(tag, []).append(json.loads(text))
    failures = []
    print(f"{'people':>16} {'n':>3} {'with a false finding':>21} {'explained by weekday':>21}")
    for tag, docs in rows.items():
        if tag == "planted":
            continue
        false_people = [d for d in docs if non_definitional(d)]
        unexplained = [d for d in docs if any(
            f.get("explained_by_weekday") is not True for f in d["findings"] if not f.get("near_tautological")
        ) or any(s["survived"] for s in d["shifts"])]
        n = len(docs)
        print(f"{tag:>16} {n:>3} {len(false_people):>14} ({len(false_people) / n:.2f}) "
              f"{len(false_people) - len(unexplained):>14}")
        for d in false_people:
            for s in non_definitional(d):
                print(f"    {s}")
        if tag == "null":
            # BH at q = 0.10 over a family of true nulls keeps P(any rejection) <= 0.10 (under the complete null
            # FDR = FWER). The stage fails when the observed share is incompatible with 0.10: the one-sided 95 %
            # Wilson lower bound of the share above 0.10, i.e. 0.10 lies below the whole interval.
            k = len(false_people)
            p = k / n
            z = statistics.NormalDist().inv_cdf(0.95)
            lower = (p + z * z / (2 * n) - z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n)
            verdict = "ok" if lower <= 0.10 else "FAIL"
            print(f"    share {p:.3f}, one-sided 95 % lower bound {lower:.3f} against 0.10: {verdict}")
            if lower > 0.10:
                failures.append(f"{k} of {n} no-effect people got a non-definitional finding")
        if tag == "weekly":
            # With a weekly rhythm in every series a real (calendar) association exists; what must hold is that
            # no such finding reaches T3 and none goes unlabelled at T2.
            for d in docs:
                for f in d["findings"]:
                    if f["tier"] == "T3" and f.get("explained_by_weekday") is not False:
                        failures.append(f"a weekly-rhythm finding reached T3: {f['sentence']}")
    planted = rows.get("planted", [])
    if planted:
        hits = [d for d in planted if any(
            f["feature"] == "score:sleep" and f["outcome"] == "rmssd" and f["lag"] == 0 for f in d["findings"])]
        share = len(hits) / len(planted)
        print(f"planted sleep -> rMSSD (r ~ 0.45 latent): found in {len(hits)} of {len(planted)} ({share:.2f})")
        # At r ~ 0.4 on ordinal scores and n ~ 180 with Bartlett n_eff ~ 120, the engine's power is ~0.95;
        # require 80 % of people, less one binomial SE at n people.
        need = 0.80 - math.sqrt(0.8 * 0.2 / len(planted))
        if share < need:
            failures.append(f"planted effect found in only {share:.2f} of people (need {need:.2f})")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    if sys.argv[1] == "generate":
        generate(sys.argv[2:])
    else:
        check()
