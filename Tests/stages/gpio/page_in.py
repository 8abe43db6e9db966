#!/usr/bin/env python3
"""Faults every page of each file into the page cache through mmap: page_in.py FILE...

The VM guest's root is the host's, shared over 9p without a read cache: pages a process maps stay cached,
pages read() with cat do not (measured in the guest: `recoverydeckd --print-light-table` took 1 247 major
faults after a cat of the binary and its libraries, 158 after this, 157 for a second run).
"""
import mmap
import sys

for path in sys.argv[1:]:
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ) as m:
        sum(m[i] for i in range(0, len(m), mmap.PAGESIZE))
