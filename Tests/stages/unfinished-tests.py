#!/usr/bin/env python3
"""The tests a Swift Testing run started and never ended, from its console log (the run was stopped: a hang).

    Tests/stages/unfinished-tests.py LOG

One test a line, as the log names it, in the order they started; nothing when every started test ended."""
import re
import sys


def unfinished(lines):
    started = []
    ended = set()
    for line in lines:
        m = re.match(r"◇ Test (.*) started\.$", line)
        if m and m.group(1) != "run":  # "◇ Test run started.": the run's own line
            started.append(m.group(1))
            continue
        m = re.match(r"[✔✘↳⚠➜] Test (.*) (passed after|failed after|skipped)", line)
        if m:
            ended.add(m.group(1))
    return [name for name in started if name not in ended]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for name in unfinished(line.rstrip("\n") for line in log):
            print(name)
