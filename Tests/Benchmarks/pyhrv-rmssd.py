"""Times pyhrv 0.5.0's time_domain.rmssd on SampleNNISeriesLong (1 h, 4684 RR) for core-bench.

Prints "<ns per RR> <rMSSD ms> <count>" and then the series, one RR in ms per line, so the benchmark measures
RecoveryCore on exactly the same values in the same run.
"""
import importlib.util
import os
import timeit

import numpy as np
import pyhrv.time_domain as td

files = os.path.join(os.path.dirname(importlib.util.find_spec("pyhrv").origin), "files")
nni = np.load(os.path.join(files, "SampleNNISeriesLong.npy")).astype(float)
rmssd = td.rmssd(nni=nni)["rmssd"]
number = 20
best = min(timeit.repeat(lambda: td.rmssd(nni=nni), number=number, repeat=5)) / number
print(f"{best * 1e9 / len(nni)} {rmssd} {len(nni)}")
for x in nni:
    print(repr(float(x)))
