#!/usr/bin/env python3
"""Compares the RR intervals a client received (JSON lines from `recoverydeck strap --json`) with the
file h10sim replayed (ms per line), after the strap's 1/1024 s quantisation (RecoveryDeck spec §4.1:
rr_ms = rr_raw * 1000 / 1024; a quantised value is within 1000/2048 ms of the file's).

  check_rr.py exact FILE RECEIVED   every interval, in order, none lost, none extra
  check_rr.py gap FILE RECEIVED     the file's intervals in order with exactly one contiguous run
                                    missing in the middle (a drop-out), and at least 5 after it
Prints what it found; exits 1 on a mismatch."""
import json
import math
import sys

HALF_STEP_MS = 1000 / 2048


def expected_ms(path):
    values = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            values.append(float(line))
    return values


def received_raw(path):
    raws = []
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        event = json.loads(line)
        if event.get("event") == "sample":
            raws.extend(event["rr"])
    return raws


def matches(expected, raw):
    return abs(raw * 1000 / 1024 - expected) <= HALF_STEP_MS + 1e-9


def main():
    mode, file_path, received_path = sys.argv[1:4]
    expected = expected_ms(file_path)
    got = received_raw(received_path)
    print(f"file: {len(expected)} intervals; received: {len(got)}")
    if mode == "exact":
        if len(got) != len(expected):
            print(f"FAIL: received {len(got)} intervals, the file has {len(expected)}")
            first = next((i for i, (e, r) in enumerate(zip(expected, got)) if not matches(e, r)), None)
            print(f"first difference at index {first}")
            return 1
        bad = [i for i, (e, r) in enumerate(zip(expected, got)) if not matches(e, r)]
        if bad:
            i = bad[0]
            print(f"FAIL: {len(bad)} intervals differ; first at {i}: file {expected[i]} ms, received raw {got[i]}")
            return 1
        worst = max(abs(r * 1000 / 1024 - e) for e, r in zip(expected, got))
        print(f"ok: all {len(got)} in order; largest difference {worst:.3f} ms (quantisation step {2 * HALF_STEP_MS:.3f} ms)")
        return 0
    if mode == "gap":
        head = 0
        while head < len(got) and head < len(expected) and matches(expected[head], got[head]):
            head += 1
        tail_len = len(got) - head
        if tail_len < 5:
            print(f"FAIL: only {tail_len} intervals after the first {head}: the link did not come back with RR")
            return 1
        start = len(expected) - tail_len
        if start <= head:
            print(f"FAIL: no gap: {head} in order, then {tail_len} that do not continue the file")
            return 1
        bad = [i for i in range(tail_len) if not matches(expected[start + i], got[head + i])]
        if bad:
            print(f"FAIL: after the gap, received[{head + bad[0]}] = raw {got[head + bad[0]]} is not file[{start + bad[0]}] = {expected[start + bad[0]]} ms")
            return 1
        print(f"ok: {head} in order, {start - head} lost in one gap (file {head}..{start - 1}), then {tail_len} in order to the end")
        return 0
    print(f"unknown mode {mode}")
    return 64


if __name__ == "__main__":
    sys.exit(main())
