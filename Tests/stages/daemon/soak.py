"""365 mornings in a row through one recoverydeckd process on a simulated clock: each day the simulated
panel is keyed (questionnaire, #, GO), the morning runs to its readout, the clock moves to the next
day's 06:00. Afterwards every day must be stored and complete, and the daemon's resident memory flat.

    python3 soak.py [--mornings N] [--speed S] [--work DIR]

Prints the RSS after the first morning, its range over the mornings after a warm-up of 30, and the
figures docs/figures.md reports."""

import argparse
import datetime
import os
import shutil
import signal
import sqlite3
import tempfile
import time

import deck

WARM_UP = 30


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mornings", type=int, default=365)
    parser.add_argument("--speed", type=int, default=1000)
    parser.add_argument("--flat-kb", type=int, default=1024)
    parser.add_argument("--work")
    parser.add_argument("--trace", action="store_true", help="print the RSS every 30 mornings")
    args = parser.parse_args()
    daemon = deck.binary("recoverydeckd-sim")
    work = args.work or tempfile.mkdtemp(prefix="recoverydeck-soak-")
    os.makedirs(work, exist_ok=True)
    config, values = deck.write_config(work, clock_start="2026-01-01 06:00", speed=args.speed)
    process = deck.start(daemon, config, os.path.join(work, "daemon.log"))
    started = time.monotonic()
    try:
        control, watcher = deck.connect_and_watch(values["control_socket"])
        rss = []
        for n in range(args.mornings):
            # One request for the whole sequence, so every press counts from the same instant.
            presses = deck.questionnaire_presses(n)
            presses.append({"button": "go", "after_ms": presses[-1]["after_ms"] + 1600})
            assert control.send({"request": "press", "presses": presses}).get("ok")
            clock = None
            while True:
                packet = watcher.next()
                if packet.get("event") != "snapshot":
                    continue
                clock = packet["clock"]
                if packet["phase"] == "readout":
                    break
                if packet["phase"] == "showingFault":
                    raise SystemExit(f"morning {n + 1}: {packet.get('fault_sentence')}")
            rss.append(deck.rss_kb(process.pid))
            if args.trace and (n + 1) % 30 == 0:
                print(f"soak: morning {n + 1}: RSS {rss[-1]} kB", flush=True)
            # To the next day's 06:00.
            now = datetime.datetime.strptime(clock, "%Y-%m-%d %H:%M:%S")
            target = datetime.datetime.combine(now.date() + datetime.timedelta(days=1), datetime.time(6, 0))
            reply = control.send({"request": "advance", "seconds": int((target - now).total_seconds())})
            assert reply.get("ok"), reply
        elapsed = time.monotonic() - started
        process.send_signal(signal.SIGTERM)
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
    problems, measured = deck.check_database(values["database"])
    db = sqlite3.connect(values["database"])
    complete = db.execute(
        """SELECT count(*) FROM measurement m JOIN questionnaire q ON q.day = m.day
           WHERE m.quality = 'ok' AND m.rmssd_ms IS NOT NULL AND m.orthostatic_status IN ('completed', 'skipped')"""
    ).fetchone()[0]
    db.close()
    steady = rss[WARM_UP:] if len(rss) > WARM_UP else rss
    spread = max(steady) - min(steady)
    print(
        f"soak: {args.mornings} mornings in {elapsed:.0f} s ({args.speed}x); {measured} stored, {complete} complete; "
        f"RSS after morning 1 {rss[0]} kB, mornings {min(len(rss), WARM_UP + 1)}-{len(rss)}: "
        f"{min(steady)}-{max(steady)} kB (spread {spread} kB), last {rss[-1]} kB", flush=True)
    failed = False
    if problems:
        print(f"soak: problems: {problems[:5]}")
        failed = True
    if measured != args.mornings or complete != args.mornings:
        print(f"soak: expected {args.mornings} complete mornings")
        failed = True
    if spread > args.flat_kb:
        print(f"soak: RSS not flat within {args.flat_kb} kB")
        failed = True
    if not args.work:
        shutil.rmtree(work)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
