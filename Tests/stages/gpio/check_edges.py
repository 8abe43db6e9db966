#!/usr/bin/env python3
"""Holds the lamp and buzzer edges ftrace recorded on kernel GPIO lines (gpio_value events, CLOCK_MONOTONIC)
to the light table, deploy/LIGHTS.md.

    check_edges.py TRACE LIGHTS.md NAME=BASE:FLOW ...

FLOW is `skip` (check-in, GO, a key while measuring, orthostatic skipped, readout, remeasure question) or
`whole` (check-in, GO, a key while measuring, the stand cue).

Tolerance. The panel schedules every edge of a pattern from its first edge, so each later edge is held to its
place on that grid: never more than EARLY_MS before it (a pattern whose front was cut has edges early
against its first one: the 9 + 240 ms triple beep; the panel counts a pattern from a clock reading taken just
after its first write, so the kernel's stamp of that edge is never after the grid's origin, and the slack is
rounding to the millisecond and ftrace's own stamping), and at most LATE_MS after it (the daemon's wake-up latency: software emulation, two
daemons, on a build machine shared by others). An edge later than the off step after it merges two beeps
into one stretch; such a merge is matched as the table's rhythm with that pause gone, and reported.
Sounds the routine schedules one by one (the stand cue's 3-2-1 and tone) are held to a 1 s grid whose origin
is their earliest onset. The readout's 30 s are held from its blink's first step, to the blink's half period
when it ends in an off half (readout_lasts).
"""
import re
import sys

EARLY_MS = 10.0
LATE_MS = 150.0
# deploy/LIGHTS.md, "readout lit after the last press".
READOUT_MS = 30000.0
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


def lateness(lengths, steps):
    """How late each edge after the first is against the grid `steps` draws from the first edge."""
    got = want = 0.0
    late = []
    for length, step in zip(lengths, steps):
        got += length
        want += step
        late.append(got - want)
    return late


def on_grid(lengths, steps):
    return len(lengths) == len(steps) and all(-EARLY_MS <= x <= LATE_MS for x in lateness(lengths, steps))


def on_some_grid(lengths, steps):
    """As on_grid, for a run of a lamp's blink found in the middle of its pattern: the run's first edge is no
    pattern's first write, so it may be as late as any other (a loaded machine wakes the daemon late for it), and
    held to it the punctual edges after it look early. Some origin must put every edge of the run, its first
    included, within EARLY_MS early and LATE_MS late: the edges' lateness against the first spans at most
    EARLY_MS + LATE_MS."""
    if len(lengths) != len(steps):
        return False
    late = [0.0] + lateness(lengths, steps)
    return max(late) - min(late) <= EARLY_MS + LATE_MS


def merged(steps):
    """The rhythm itself, and each one with pauses shorter than LATE_MS swallowed by a late edge."""
    pauses = [i for i in range(1, len(steps), 2) if steps[i] < LATE_MS]
    variants = [(steps, False)]
    for mask in range(1, 1 << len(pauses)):
        out, i = [], 0
        gone = {pauses[j] for j in range(len(pauses)) if mask >> j & 1}
        while i < len(steps):
            if i + 1 in gone:
                out.append(steps[i] + steps[i + 1] + steps[i + 2])
                i += 3
                while i - 1 in gone:  # a chain of merges
                    out[-1] += steps[i] + steps[i + 1]
                    i += 2
            else:
                out.append(steps[i])
                i += 1
        variants.append((out, True))
    return variants


def name_of(group, table):
    lengths = [length for _, length in group]
    # Closest rhythm first: a short beep late by 100 ms must not pass for a low beep.
    fits = []
    for name, steps in table.items():
        for variant, was_merged in merged(steps):
            if on_grid(lengths, variant):
                fits.append((was_merged, max(abs(x) for x in lateness(lengths, variant)), name, variant))
    if not fits:
        return None, None
    was_merged, _, name, variant = min(fits)
    return (name + " (merged)" if was_merged else name), max(lateness(lengths, variant))


def runs(edges, on_ms, off_ms, minimum, mid_pattern=False):
    """Runs of at least `minimum` consecutive stretches on the on_ms/off_ms grid drawn from the run's first edge,
    or with `mid_pattern` (a run that starts inside its pattern, as the readout's blink does after the measuring
    light) on one grid whose origin the run's edges place (on_some_grid)."""
    fits = on_some_grid if mid_pattern else on_grid
    found, run, steps = [], [], []
    for start, length, on in stretches(edges):
        want = on_ms if on else off_ms
        if fits([l for _, l in run] + [length], steps + [want]) and (run or on):
            run.append((start, length))
            steps.append(want)
        else:
            if len(run) >= minimum:
                found.append(run)
            run, steps = ([(start, length)], [want]) if on and abs(length - want) <= LATE_MS else ([], [])
    if len(run) >= minimum:
        found.append(run)
    return found


def readout_lasts(label, blue, run, onset):
    """The readout is lit READOUT_MS (LIGHTS.md: "readout lit after the last press | 30 s") from the slow blink's
    first step. A building readout blinks blue 1 s on / 1 s off from that instant, and a readout that ends in an
    off half writes no edge, so its end is known to the half period: the blink must still be on its grid at
    29 s (EARLY_MS early at most: a readout cut by a second or more fails) and dark by 30 s (LATE_MS late at
    most: no on-edge due at 30 s or after kept lit). When the end falls in an on half, the cut on-step gives
    it exactly, and it is held to 30 s within EARLY_MS/LATE_MS."""
    if onset is None:
        return [f"{label}: no rising triple beep before the readout"]
    # The blink's first step is on: when blue was already on (measuring) it writes nothing, so the step is found
    # from the grid itself: edges are late, never early, so the earliest edge against the grid places it; then
    # the whole period (2 s) nearest the sound.
    first = run[0][0]
    edges = [start for start, _ in run] + [run[-1][0] + run[-1][1]]
    origin = min(t - 1000.0 * round((t - first) / 1000.0) for t in edges)
    lit = origin - 2000.0 * round((origin - onset) / 2000.0)
    last = edges[-1]  # the last edge on the grid
    following = [(s, l, on) for s, l, on in stretches(blue) if abs(s - last) < 0.001]
    cut_on = following[0][2] and following[0][1] < 1000.0 - EARLY_MS if following else False
    steps = round((last - lit) / 1000.0)
    print(f"{label}: readout lit {lit - onset:.1f} ms after its sound; blink on its grid until {last - lit:.0f} ms"
          + (f", dark at {last + following[0][1] - lit:.0f} ms" if cut_on else ""))
    problems = []
    if abs(lit - onset) > LATE_MS:
        problems.append(f"{label}: the readout lit {lit - onset:.0f} ms after its sound, not with it")
    if cut_on:
        lasted = last + following[0][1] - lit
        if not READOUT_MS - EARLY_MS <= lasted <= READOUT_MS + LATE_MS:
            problems.append(f"{label}: the readout lasted {lasted:.0f} ms, not {READOUT_MS:.0f} ms")
    elif not (steps == READOUT_MS / 1000 - 1 and READOUT_MS - 1000 - EARLY_MS <= last - lit <= READOUT_MS - 1000 + LATE_MS):
        problems.append(f"{label}: the readout's blink left its grid {last - lit:.0f} ms after it lit, not at"
                        f" {READOUT_MS - 1000:.0f} ms (its last edge before {READOUT_MS:.0f} ms)")
    return problems


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
            names.append(name.replace(" (merged)", ""))
            if name.endswith("(merged)"):
                print(f"{label}: a sound at {group[0][0]:.0f} ms matched {name}: a pause swallowed by a late edge")
            worst = max(worst, err)
    print(f"{label}: {len(buzzer)} sounds: " + ", ".join(names))
    print(f"{label}: latest sound edge {worst:.1f} ms after its place (tolerance {EARLY_MS:.0f} ms early,"
          f" {LATE_MS:.0f} ms late)")
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
            origin = min((t - 1000.0 * k for k, t in enumerate(cue)), default=0.0)
            late = [t - 1000.0 * k - origin for k, t in enumerate(cue)]
            if len(cue) != 4 or max(late) > LATE_MS:
                problems.append(f"{label}: the stand cue is not 3-2-1 then the tone, 1 s apart")
    # Lamps: N blinks before item N (300/300), and for the skip flow the readout's slow blink (building:
    # the first morning) and the remeasure question's fast blink (125/125) for 5 s.
    # The skip flow's hands wait for each count before keying (as the cue asks): items 2-5 must each show their
    # whole count, in order, on the grid. The whole flow's hands key a digit a second, ahead of the longer
    # counts (each key cuts the count it lands in, as a person keying ahead would): no count is asserted there.
    counts = runs(line("blue"), 300, 300, 3)
    blinks = [(len(r) + 1) // 2 for r in counts]
    print(f"{label}: blue count blinks: runs of " + ", ".join(str(b) for b in blinks) + " blinks")
    if flow == "skip" and not subsequence(blinks, [2, 3, 4, 5]):
        problems.append(f"{label}: the questionnaire's item counts on blue (300/300 ms) are not 2, 3, 4, 5 blinks"
                        " in order")
    if flow == "skip":
        slow = runs(line("blue"), 1000, 1000, 20, mid_pattern=True)
        fast = runs(line("blue"), 125, 125, 20)
        if slow:
            span = slow[-1][-1][0] + slow[-1][-1][1] - slow[-1][0][0]
            print(f"{label}: readout slow blink {len(slow[-1])} stretches over {span:.0f} ms")
            onsets = [g[0][0] for g, n in zip(buzzer, names) if n == "rising triple beep"]
            problems += readout_lasts(label, line("blue"), slow[-1], onsets[-1] if onsets else None)
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
