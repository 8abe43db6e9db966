"""HRV oracle: compares RecoveryCore's metrics (through the hrv-dump tool) with pyhrv 0.5.0 or hrv-analysis 1.0.6.

    python oracle.py --library pyhrv|hrv-analysis --dump PATH/hrv-dump --samples DIR

For each case the tool prints the input, each input beat's verdict, the RR list our artifact filter accepted and our
metrics on it. The library then computes SDNN and mean RR on that same accepted list; they must agree to 1e-6
relative. rMSSD is taken over pairs of accepted beats adjacent as received (RecoveryDeck spec §5.1), while the
libraries take differences between consecutive entries of whatever list they are given. The two are the same
number when nothing was rejected, so there the library's rMSSD on the accepted list must agree to 1e-6; when
beats were rejected, ours is compared with a numpy implementation of the adjacent-pair rule on the tool's
verdicts, and the library's number on the accepted list (the old rule, biased upwards) is printed beside it.
Mean HR is the spec's 60000 / mean RR (RecoveryDeck spec §5.1), computed here with numpy, because both
libraries report the mean of instantaneous HR (60000 / RR_i) instead, which is a different number.

Where our filter differs from hrv-analysis' Malik rule (remove_outliers + remove_ectopic_beats), the library's own
pipeline is run on the raw input and printed beside ours, not asserted equal, because the two rules differ on
purpose:
  1. After flagging a beat, hrv-analysis keeps the next beat without checking it; after an ectopic beat that next
     beat is the compensatory pause, which is not a normal interval. We judge every beat, so the pause is dropped.
  2. hrv-analysis compares each beat with the previous *received* beat, even a flagged one. We compare with the
     previous *accepted* beat and move the reference only after three rejections in a row (lock-on escape).
  3. hrv-analysis replaces dropped beats by interpolation; the spec never interpolates (missing stays missing) and
     computes rMSSD over successive accepted intervals.
The spec's rule order (range first, then 20 % of the previous RR) and its inclusive 300/2000 ms bounds are the
same in both.
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

RELATIVE = 1e-6


def cases(samples):
    short = np.load(os.path.join(samples, "SampleNNISeriesShort.npy")).astype(float)
    long = np.load(os.path.join(samples, "SampleNNISeriesLong.npy")).astype(float)
    yield "SampleNNISeriesShort whole", short, ["--window", "whole"]
    yield "SampleNNISeriesLong whole", long, ["--window", "whole"]
    yield "SampleNNISeriesLong morning", long, ["--window", "morning"]
    for seed, day, ectopic, artifact in [(1, 0, 0, 0), (2, 5, 0.02, 0.02), (3, 10, 0.05, 0.03), (7, 40, 0, 0)]:
        args = ["--synthetic", str(seed), "--day", str(day), "--ectopic", str(ectopic), "--artifact", str(artifact)]
        yield f"synthetic seed {seed} day {day} ectopic {ectopic} artifact {artifact} whole", None, args
        yield f"synthetic seed {seed} day {day} ectopic {ectopic} artifact {artifact} morning", None, args + [
            "--window", "morning"]


def dump(tool, series, args):
    text = "" if series is None else "\n".join(repr(float(x)) for x in series) + "\n"
    done = subprocess.run([tool] + args, input=text, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def library_metrics(library, nn):
    nn = np.asarray(nn, dtype=float)
    if library == "pyhrv":
        import pyhrv.time_domain as td

        return {
            "rmssd_ms": float(td.rmssd(nni=nn)["rmssd"]),
            "sdnn_ms": float(td.sdnn(nni=nn)["sdnn"]),
            "mean_rr_ms": float(td.nni_parameters(nni=nn)["nni_mean"]),
            "mean_hr_bpm": float(60000.0 / np.mean(nn)),
            "library_mean_hr_bpm": float(td.hr_parameters(nni=nn)["hr_mean"]),
        }
    from hrvanalysis import get_time_domain_features

    f = get_time_domain_features(list(nn))
    return {
        "rmssd_ms": float(f["rmssd"]),
        "sdnn_ms": float(f["sdnn"]),
        "mean_rr_ms": float(f["mean_nni"]),
        "mean_hr_bpm": float(60000.0 / np.mean(nn)),
        "library_mean_hr_bpm": float(f["mean_hr"]),
    }


def malik_pipeline(raw):
    """hrv-analysis' own cleaning of the raw list, as its README shows it."""
    from hrvanalysis import interpolate_nan_values, remove_ectopic_beats, remove_outliers

    no_outliers = remove_outliers(list(raw), low_rri=300, high_rri=2000, verbose=False)
    filled = interpolate_nan_values(no_outliers)
    nn = remove_ectopic_beats(filled, method="malik", verbose=False)
    dropped = int(np.sum(np.isnan(np.asarray(no_outliers, dtype=float)))) + int(np.sum(np.isnan(np.asarray(nn, dtype=float))))
    nn = np.asarray(interpolate_nan_values(nn), dtype=float)
    diffs = np.diff(nn)
    return float(np.sqrt(np.mean(diffs ** 2))), dropped


def adjacent_pair_rmssd(series, verdicts):
    """rMSSD over pairs (i, i+1) of the input whose both beats were accepted: spec §5.1, written with numpy."""
    x = np.asarray(series, dtype=float)
    accepted = np.frombuffer(verdicts.encode(), dtype=np.uint8) == ord("a")
    both = accepted[:-1] & accepted[1:]
    d = np.diff(x)[both]
    return (float(np.sqrt(np.mean(d ** 2))) if d.size else None), int(d.size)


def close(ours, theirs):
    return ours is not None and abs(ours - theirs) <= RELATIVE * abs(theirs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", choices=["pyhrv", "hrv-analysis"], required=True)
    parser.add_argument("--dump", required=True)
    parser.add_argument("--samples", required=True)
    options = parser.parse_args()

    failures = 0
    checks = 0
    for name, series, args in cases(options.samples):
        result = dump(options.dump, series, args)
        accepted = result["accepted"]
        ours = result["metrics"]
        if len(accepted) < 2:
            print(f"FAIL {name}: fewer than two accepted intervals")
            failures += 1
            continue
        theirs = library_metrics(options.library, accepted)
        line = [f"{name}: n={len(result['input'])} accepted={ours['accepted']} rejected={ours['rejected']}"]
        pairs_rmssd, pairs = adjacent_pair_rmssd(result["input"], result["verdicts"])
        checks += 1
        if pairs != ours["pairs"]:
            failures += 1
            line.append(f"pairs ours {ours['pairs']} numpy {pairs} MISMATCH")
        for key in ["rmssd_ms", "sdnn_ms", "mean_rr_ms", "mean_hr_bpm"]:
            checks += 1
            if key == "rmssd_ms" and ours["rejected"] > 0:
                ok = close(ours[key], pairs_rmssd)
                line.append(f"rmssd_ms ours {ours[key]:.10g} numpy adjacent pairs {pairs_rmssd:.10g} over {pairs}"
                            f"{'' if ok else '  MISMATCH'}; {options.library} on the accepted list (old rule) "
                            f"{theirs[key]:.10g}")
            else:
                ok = close(ours[key], theirs[key])
                line.append(f"{key} ours {ours[key]:.10g} {options.library} {theirs[key]:.10g}{'' if ok else '  MISMATCH'}")
            failures += 0 if ok else 1
        line.append(f"(library's own mean of 60000/RR_i: {theirs['library_mean_hr_bpm']:.6g} bpm, not the spec's)")
        # Unfiltered: the same formulas on the raw list.
        raw = library_metrics(options.library, result["input"])
        for key in ["rmssd_ms", "sdnn_ms", "mean_rr_ms"]:
            checks += 1
            ok = close(result["unfiltered"][key], raw[key])
            failures += 0 if ok else 1
            if not ok:
                line.append(f"unfiltered {key} ours {result['unfiltered'][key]} {options.library} {raw[key]} MISMATCH")
        if options.library == "hrv-analysis" and result["window"] == "whole":
            malik, dropped = malik_pipeline(result["input"])
            line.append(f"hrv-analysis Malik pipeline (documented difference): rMSSD {malik:.6g} with {dropped} "
                        f"dropped+interpolated vs ours {ours['rmssd_ms']:.6g} with {ours['rejected']} dropped")
            if dropped == 0 and ours["rejected"] == 0:
                # Nothing to clean: the two pipelines must then agree exactly.
                checks += 1
                if not close(ours["rmssd_ms"], malik):
                    line.append("MISMATCH on a clean series")
                    failures += 1
        print("\n    ".join(line))
        if name == "SampleNNISeriesLong whole":
            # DESIGN §6: both libraries give rMSSD 60.5235 ms on the raw SampleNNISeriesLong.
            checks += 1
            if abs(result["unfiltered"]["rmssd_ms"] - 60.5235) > 5e-5 or abs(raw["rmssd_ms"] - 60.5235) > 5e-5:
                print(f"FAIL raw SampleNNISeriesLong rMSSD: ours {result['unfiltered']['rmssd_ms']}, "
                      f"{options.library} {raw['rmssd_ms']}, expected 60.5235")
                failures += 1
    print(f"{options.library}: {checks - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
