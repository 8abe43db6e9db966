#!/usr/bin/env python3
"""Holds the lamp and buzzer edges ftrace recorded on kernel GPIO lines (gpio_value events, CLOCK_MONOTONIC)
to the light table, deploy/LIGHTS.md.

    check_edges.py TRACE LIGHTS.md NAME=BASE:FLOW ...

FLOW is `skip` (check-in, GO, a key while measuring, orthostatic skipped, readout, remeasure question) or
`whole` (check-in, GO, a key while measuring, the stand cue). Tolerance: every on or off stretch within
TOL_MS of the table's; the kernel's timestamps are exact, the slack is the daemon's wake-up latency under
software emulation on a shared machine.
"""
import re
import sys

TOL_MS = 20.0
# DESIGN §2 default pin map: line offsets on the chip.
PINS = {"red": 22, "yellow": 23, "green": 24, "blue": 25, "buzzer": 18}
# A buzzer pause longer than this ends a sound (the longest pause inside one is 150 ms; keys are 0.5 s+ apart).
GROUP_GAP_MS = 400.0


def sounds_from_table(path):
    table = {}
    for line in open(path, encoding="utf-8"):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 4 or not re.match(r"^(on|off) \d+ ms", cells[2]):
            continue
        steps = [float(ms) for _, ms in re.findall(r"(on|off) (\d+) ms", cells[2])]
        table[cells[1]] = steps
    if "rising triple beep" not in table or "short beep" not in table:
        sys.exit(f"no sound table found in {path}")
    return table


def edges_by_gpio(path):
    pattern = re.compile(r"\s(\d+\.\d+): gpio_value: (\d+) set (\d+)")
    edges = {}
    for line in open(path, encoding="utf-8"):
        m = pattern.search(line)
        if not m:
            continue
        t, gpio, value = float(m[1]) * 1000.0, int(m[2]), int(m[3]) != 0
        seq = edges.setdefault(gpio, [])
        if not seq or seq[-1][1] != value:
            seq.append((t, value))
    return edges


def stretches(edges):
    """(start, length, on) for each stretch between two edges."""
    return [(a[0], b[0] - a[0], a[1]) for a, b in zip(edges, edges[1:])]


def sound_groups(edges):
    groups, current = [], []
    for start, length, on in stretches(edges):
        if not on and length > GROUP_GAP_MS:
            if current:
                groups.append(current)
            current = []
            continue
        if on or current:
            current.append((start, length))
    if current:
        groups.append(current)
    return groups


def name_of(group, table):
    lengths = [length for _, length in group]
    for name, steps in table.items():
        if len(steps) == len(lengths) and all(abs(a - b) <= TOL_MS for a, b in zip(lengths, steps)):
            return name, max(abs(a - b) for a, b in zip(lengths, steps))
    return None, None


def runs(edges, on_ms, off_ms, minimum):
    """Runs of at least `minimum` consecutive stretches alternating on_ms/off_ms (within TOL_MS)."""
    found, run = [], []
    for start, length, on in stretches(edges):
        want = on_ms if on else off_ms
        if abs(length - want) <= TOL_MS:
            run.append((start, length))
        else:
            if len(run) >= minimum:
                found.append(run)
            run = []
    if len(run) >= minimum:
        found.append(run)
    return found


def subsequence(names, wanted):
    i = 0
    for n in names:
        if i < len(wanted) and n == wanted[i]:
            i += 1
    return i == len(wanted)


def check(label, base, flow, edges, table):
    problems = []
    line = lambda part: edges.get(base + PINS[part], [])
    buzzer = sound_groups(line("buzzer"))
    names, worst = [], 0.0
    for group in buzzer:
        name, err = name_of(group, table)
        if name is None:
            problems.append(f"{label}: a sound at {group[0][0]:.0f} ms is "
                            + ", ".join(f"{l:.1f}" for _, l in group) + " ms: no row of the light table")
            names.append("?")
        else:
            names.append(name)
            worst = max(worst, err)
    print(f"{label}: {len(buzzer)} sounds: " + ", ".join(names))
    print(f"{label}: worst sound stretch error {worst:.1f} ms (tolerance {TOL_MS:.0f})")
    digits = ["short beep"] * 5 + ["short-long"]
    if flow == "skip":
        wanted = digits + ["low beep", "short beep", "short beep", "rising triple beep", "short beep"]
    else:
        wanted = digits + ["low beep", "short beep", "short beep", "short beep", "long tone", "rising triple beep"]
    if not subsequence(names, wanted):
        problems.append(f"{label}: the sounds do not follow the morning: wanted in order {wanted}")
    if flow == "whole":
        onsets = [g[0][0] for g, n in zip(buzzer, names) if n in ("short beep", "long tone")]
        tone = [g[0][0] for g, n in zip(buzzer, names) if n == "long tone"]
        if tone:
            cue = [t for t in onsets if tone[0] - 3500 < t <= tone[0]]
            gaps = [b - a for a, b in zip(cue, cue[1:])]
            print(f"{label}: stand cue onsets 1 s apart: " + ", ".join(f"{g:.1f}" for g in gaps) + " ms")
            if len(gaps) != 3 or any(abs(g - 1000) > TOL_MS for g in gaps):
                problems.append(f"{label}: the stand cue is not 3-2-1 then the tone, 1 s apart")
    # Lamps: N blinks before item N (300/300), and for the skip flow the readout's slow blink (building:
    # the first morning) for 30 s and the remeasure question's fast blink (125/125) for 5 s.
    counts = runs(line("blue"), 300, 300, 3)
    print(f"{label}: blue count blinks: {len(counts)} runs")
    if len(counts) < 4:
        problems.append(f"{label}: fewer than 4 questionnaire item counts on blue (300/300 ms)")
    if flow == "skip":
        slow = runs(line("blue"), 1000, 1000, 20)
        fast = runs(line("blue"), 125, 125, 20)
        if slow:
            span = slow[-1][-1][0] + slow[-1][-1][1] - slow[-1][0][0]
            print(f"{label}: readout slow blink {len(slow[-1])} stretches over {span:.0f} ms")
        else:
            problems.append(f"{label}: no readout slow blink (1000/1000 ms) on blue")
        if fast:
            print(f"{label}: remeasure question fast blink {len(fast[-1])} stretches")
        else:
            problems.append(f"{label}: no fast blink (125/125 ms) on blue for the remeasure question")
    return problems


def main():
    trace, lights = sys.argv[1], sys.argv[2]
    table = sounds_from_table(lights)
    edges = edges_by_gpio(trace)
    problems = []
    for spec in sys.argv[3:]:
        label, rest = spec.split("=")
        base, flow = rest.split(":")
        problems += check(label, int(base), flow, edges, table)
    for p in problems:
        print("FAIL " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
