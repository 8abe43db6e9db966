#!/usr/bin/env python3
"""Checks a morning stored by recoverydeckd against the RR file h10sim replayed (RecoveryDeck spec §4.1,
§5.1–5.3), computing everything again here, independently of the Swift core:

  check_morning.py exact FILE EXPORT.json DAY   the stored RR are the file's, in order, none lost
  check_morning.py gap   FILE EXPORT.json DAY   the file's, with one run lost to a drop-out

then: the rMSSD window (RR counted from the capture start until ≥ 45 accepted summing ≥ 60 000 ms), rMSSD,
mean RR, mean HR, SDNN from those intervals (the file has no artifacts: all must be accepted); lying and
standing mean HR (60000/mean RR when the RR cover 80 % of the phase, else mean BPM) and the peak BPM while
standing; all equal to what was stored, to 1e-9 relative. Prints the figures; exits 1 on any difference."""
import json
import math
import sys

HALF_STEP_MS = 1000 / 2048


def file_ms(path):
    return [float(l) for l in (x.strip() for x in open(path)) if l and not l.startswith("#")]


def close(a, b, what):
    if a is None or b is None or abs(a - b) > 1e-9 * max(1.0, abs(a), abs(b)):
        raise SystemExit(f"{what}: stored {b}, recomputed {a}")


def main():
    mode, rrfile, export, day = sys.argv[1:5]
    doc = json.load(open(export))
    days = [d for d in doc["days"] if d["date"] == day]
    if not days or not days[0]["measurement"]:
        raise SystemExit(f"no measurement stored for {day}")
    m = days[0]["measurement"]
    raw = m["rr"]["raw"]
    at = m["rr"]["receivedAtMs"]
    expected = file_ms(rrfile)

    # 1. The stored RR are the file's (after the strap's 1/1024 s quantisation), in order.
    def same(i, j):
        return abs(raw[i] * 1000 / 1024 - expected[j]) <= HALF_STEP_MS + 1e-9
    start = next((j for j in range(len(expected)) if all(same(k, j + k) for k in range(min(20, len(raw))))), None)
    if start is None:
        raise SystemExit("the stored RR are not the file's")
    i, j, gaps = 0, start, 0
    while i < len(raw):
        if j < len(expected) and same(i, j):
            i, j = i + 1, j + 1
            continue
        # A drop-out loses a run of the file: find where the stored RR pick up again.
        resume = next((k for k in range(j + 1, len(expected)) if all(
            i + q >= len(raw) or (k + q < len(expected) and same(i + q, k + q)) for q in range(5))), None)
        if resume is None:
            raise SystemExit(f"stored RR {i} ({raw[i]}) matches nothing in the file after position {j}")
        gaps += 1
        print(f"drop-out: {resume - j} intervals of the file lost after stored RR {i}")
        j = resume
    if (mode == "exact") != (gaps == 0) or gaps > 1:
        raise SystemExit(f"{mode}: {gaps} gaps in the stored RR")
    print(f"{len(raw)} stored RR = the file's from line {start + 1}, {gaps} gap(s)")

    # 2. The rMSSD window and metrics (spec §5.1), from the file's values.
    p = m["phases"]
    window = []
    for k in range(len(raw)):
        if at[k] < p["captureStartMs"]:
            continue
        window.append(expected[start + k] if gaps == 0 else raw[k] * 1000 / 1024)
        if len(window) >= 45 and sum(raw_ms for raw_ms in window) >= 60000:
            break
    # The stored values are the quantised ones: compute on exactly what the strap carried.
    window_q = []
    for k in range(len(raw)):
        if at[k] < p["captureStartMs"]:
            continue
        window_q.append(raw[k] * 1000 / 1024)
        if len(window_q) >= 45 and sum(window_q) >= 60000:
            break
    n = len(window_q)
    diffs = [window_q[q + 1] - window_q[q] for q in range(n - 1)]
    rmssd = math.sqrt(sum(d * d for d in diffs) / (n - 1))
    mean_rr = sum(window_q) / n
    sdnn = math.sqrt(sum((x - mean_rr) ** 2 for x in window_q) / (n - 1))
    hrv = m["hrv"]
    if hrv["accepted"] != n or hrv["rejected"] != 0:
        raise SystemExit(f"window: stored {hrv['accepted']} accepted / {hrv['rejected']} rejected, recomputed {n} / 0")
    close(rmssd, hrv["rmssdMs"], "rMSSD")
    close(mean_rr, hrv["meanRRMs"], "mean RR")
    close(60000 / mean_rr, hrv["meanHRBpm"], "mean HR")
    close(sdnn, hrv["sdnnMs"], "SDNN")
    # Against the file's unquantised values the difference is the quantisation alone (< 0.5 ms per RR).
    file_rmssd = math.sqrt(sum((window[q + 1] - window[q]) ** 2 for q in range(len(window) - 1)) / (len(window) - 1))
    print(f"rMSSD {hrv['rmssdMs']:.6f} ms over {n} RR (file values: {file_rmssd:.6f} ms); mean HR {hrv['meanHRBpm']:.3f}")

    # 3. The orthostatic numbers (spec §5.2, §5.3).
    if m["orthostaticStatus"] != "completed":
        raise SystemExit(f"orthostatic {m['orthostaticStatus']}")
    bpm = m["heartRate"]["bpm"]
    bpm_at = m["heartRate"]["receivedAtMs"]

    def phase_hr(lo, hi):
        rr = [raw[k] * 1000 / 1024 for k in range(len(raw)) if lo <= at[k] < hi and 300 <= raw[k] * 1000 / 1024 <= 2000]
        if rr and sum(rr) >= 0.8 * (hi - lo):
            return 60000 / (sum(rr) / len(rr))
        b = [bpm[k] for k in range(len(bpm)) if lo <= bpm_at[k] < hi and bpm[k] > 0]
        return sum(b) / len(b)

    lying_end = p["lyingEndMs"]
    o = m["orthostatic"]
    close(phase_hr(lying_end - 30000, lying_end), o["avgLyingHR"], "lying HR")
    close(phase_hr(p["standStartMs"], p["standEndMs"]), o["avgStandingHR"], "standing HR")
    peak = max(bpm[k] for k in range(len(bpm)) if p["standStartMs"] <= bpm_at[k] < p["standEndMs"])
    close(float(peak), o["peakStandingHR"], "peak standing HR")
    # Phases end on their schedule (a late timer does not stretch them): exactly the spec's lengths.
    if p["standEndMs"] - p["standStartMs"] != 60000 or p["standStartMs"] - lying_end != 3000:
        raise SystemExit(f"phases {p}")
    print(f"lying {o['avgLyingHR']:.3f}, standing {o['avgStandingHR']:.3f}, peak {o['peakStandingHR']:.0f} bpm; "
          f"gapAvg {o['gapAvg']:.3f}, gapPeak {o['gapPeak']:.3f}")


if __name__ == "__main__":
    main()
