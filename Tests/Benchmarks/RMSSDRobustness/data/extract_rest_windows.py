"""Makes physionet-rest-windows.txt from the RHRV book repository's copies of two PhysioNet RR databases.
    git clone https://github.com/RHRV-team/RHRVBook && python3 extract_rest_windows.py RHRVBook/data/Chapter8 > out.txt
(the header comment of physionet-rest-windows.txt is written by hand). One window of 220 beats a recording: of its
non-overlapping 220-beat windows whose every beat is within 300-2000 ms and within 20 % of the median of the 11 beats
centred on it, the one with the longest mean RR."""
import glob
import os
import sys

import numpy as np

BEATS = 220


def clean(x, start):
    w = x[start:start + BEATS]
    if w.min() < 300 or w.max() > 2000:
        return False
    for j in range(start, start + BEATS):
        med = np.median(x[max(0, j - 5):j + 6])
        if abs(x[j] - med) > 0.2 * med:
            return False
    return True


def main():
    root = sys.argv[1]
    for path in sorted(glob.glob(os.path.join(root, "healthy_ms", "*.txt")) + glob.glob(os.path.join(root, "normal", "*.txt"))):
        values = []
        for line in open(path):
            try:
                values.append(float(line))
            except ValueError:
                pass  # one record ends with a stray "@"
        x = np.asarray(values) * (1000.0 if "normal" in path else 1.0)  # nsr2db in s, the other in ms
        starts = [s for s in range(0, len(x) - BEATS - 10, BEATS) if clean(x, s)]
        if not starts:
            continue
        s = max(starts, key=lambda k: x[k:k + BEATS].mean())
        name = os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path).replace("_rr_secs.txt", "").replace(".txt", "")
        print(name + " " + " ".join(f"{v:.1f}" for v in x[s:s + BEATS]))


if __name__ == "__main__":
    main()
