"""systole's RR correction as a peer of the robustness benchmark, in its own venv (requirements-systole.txt):
robustness.py starts this once and sends one RR series (ms) a line as JSON; each answer is a line with the rMSSD
(ms) over adjacent intervals of the series systole 0.3.1 corrected (correct_rr with its defaults: missed, extra,
ectopic, short and long intervals, Lipponen & Tarvainen 2019, the method Kubios uses)."""
import contextlib
import io
import json
import sys

import numpy as np
from systole.correction import correct_rr


def main():
    for line in sys.stdin:
        rr = np.asarray(json.loads(line), dtype=float)
        with contextlib.redirect_stdout(io.StringIO()):  # correct_rr prints what it corrected
            corrected, _ = correct_rr(rr)
        corrected = np.asarray(corrected, dtype=float)
        corrected = corrected[np.isfinite(corrected)]
        print(json.dumps(float(np.sqrt(np.mean(np.diff(corrected) ** 2)))), flush=True)


if __name__ == "__main__":
    main()
