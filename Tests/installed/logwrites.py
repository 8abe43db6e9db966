#!/usr/bin/env python3
"""Replays a dm-log-writes log (Documentation/admin-guide/device-mapper/log-writes.rst) onto a blank device
and stops at chosen entries to let a check look at the disk as a power cut there would have left it.

    logwrites.py summary LOG
    logwrites.py cuts LOG TARGET IMAGE CHECK --regions A,B,... [--at-least N] [--seed S]

The log: a super block (magic, version, nr_entries, sectorsize) in the first sector, then per entry one
sector holding (sector, nr_sectors, flags, data_len) — for a mark, its name after it — followed by the
entry's nr_sectors of data. The kernel logs a write once it is flushed or written with FUA, in the order it
reached the disk, so the device after any prefix of entries is a state a power cut could leave; right after
a flush or FUA entry is where the file system and SQLite have said "durable".

`cuts` picks, inside each region (from the mark REGION-begin to REGION-end), every flush and FUA entry and
both marks, then adds seeded random entries between them until there are at least N in all; at each it copies
TARGET to IMAGE and runs `CHECK INDEX REGION KIND`. Prints one line per cut, then a summary line.
"""
import os
import random
import struct
import subprocess
import sys

MAGIC = 0x6A736677736872
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8


def entries(path):
    with open(path, "rb") as log:
        magic, version, count, sectorsize = struct.unpack("<QQQI", log.read(28))
        if magic != MAGIC or version != 1:
            sys.exit(f"logwrites: {path} is not a dm-log-writes log (magic {magic:#x}, version {version})")
        position = sectorsize
        for index in range(count):
            log.seek(position)
            header = log.read(sectorsize)
            sector, nr, flags, data_len = struct.unpack("<QQQQ", header[:32])
            position += sectorsize
            mark = header[32:32 + data_len].decode(errors="replace") if flags & MARK else None
            data_at = None
            if not flags & (DISCARD | MARK) and nr:
                data_at = position
                position += nr * sectorsize
            yield index, sector, nr, flags, mark, data_at, sectorsize


def kind(flags):
    if flags & MARK:
        return "mark"
    names = [n for bit, n in ((FLUSH, "flush"), (FUA, "fua")) if flags & bit]
    return "+".join(names) if names else ("discard" if flags & DISCARD else "write")


def plan(log, regions, at_least, seed):
    marks, region_of, durable, plain = {}, {}, [], []
    current = None
    for index, _, nr, flags, mark, _, _ in entries(log):
        if mark:
            marks[mark] = index
            for r in regions:
                if mark == f"{r}-begin":
                    current = r
                if mark == f"{r}-end":
                    current = None
            continue
        if current:
            region_of[index] = current
            (durable if flags & (FLUSH | FUA) else plain).append(index)
    chosen = {}
    for r in regions:
        for edge in ("begin", "end"):
            name = f"{r}-{edge}"
            if name not in marks:
                sys.exit(f"logwrites: no mark {name} in the log")
            chosen[marks[name]] = (r, edge)
    for index in durable:
        chosen[index] = (region_of[index], "durable")
    rng = random.Random(seed)
    rng.shuffle(plain)
    while len(chosen) < at_least and plain:
        index = plain.pop()
        chosen[index] = (region_of[index], "between")
    return chosen


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "summary":
        counts = {}
        for _, _, nr, flags, mark, _, _ in entries(sys.argv[2]):
            counts[kind(flags)] = counts.get(kind(flags), 0) + 1
            if mark:
                print("mark", mark)
        print(" ".join(f"{k}={v}" for k, v in sorted(counts.items())))
        return
    if len(sys.argv) < 6 or sys.argv[1] != "cuts":
        sys.exit(__doc__)
    log, target, image, check = sys.argv[2:6]
    opts = dict(zip(sys.argv[6::2], sys.argv[7::2]))
    regions = opts["--regions"].split(",")
    chosen = plan(log, regions, int(opts.get("--at-least", 50)), int(opts.get("--seed", 1)))
    failures = 0
    with open(log, "rb") as source, open(target, "r+b") as disk:
        for index, sector, nr, flags, mark, data_at, sectorsize in entries(log):
            if data_at is not None:
                source.seek(data_at)
                disk.seek(sector * sectorsize)
                disk.write(source.read(nr * sectorsize))
            if index not in chosen:
                continue
            disk.flush()
            os.fsync(disk.fileno())
            with open(image, "wb") as copy:
                disk.seek(0)
                while block := disk.read(1 << 20):
                    copy.write(block)
            region, where = chosen[index]
            result = subprocess.run(["bash", check, str(index), region, where, kind(flags)])
            failures += result.returncode != 0
    print(f"{len(chosen)} instants, {failures} failed", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
