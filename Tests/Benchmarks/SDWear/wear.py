"""Bytes the box writes to its disk, read from the block device's own counter (/sys/block/DEV/stat, sectors
written), on a fresh ext4 file system: per morning (check-in, capture, save), per idle day (the reminder, the
loop's timers; time-scaled on the simulated clock), and a year of both projected; beside the same rows written
by a naive configuration (rollback journal, synchronous=FULL, no WAL) and by the box's own pragmas, replayed.
Prints figures; asserts nothing about time. Run by run.sh, which makes and mounts the file system."""

import argparse
import datetime
import os
import shutil
import sqlite3
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "stages", "daemon"))
import deck  # noqa: E402


def written(dev):
    """Bytes written to the device so far, after everything pending reached it."""
    os.sync()
    with open(f"/sys/block/{dev}/stat") as f:
        return int(f.read().split()[6]) * 512


def saved_questionnaires(log_path):
    with open(log_path, errors="replace") as f:
        return f.read().count("a questionnaire was saved")


def morning(control, watcher, n, log_path, between=None):
    """One morning: the questionnaire keyed in, then GO; `between` runs once the questionnaire is saved."""
    presses = deck.questionnaire_presses(n)
    saved = saved_questionnaires(log_path)
    assert control.send({"request": "press", "presses": presses}).get("ok")
    deadline = time.monotonic() + 30
    while saved_questionnaires(log_path) == saved:
        if time.monotonic() > deadline:
            raise SystemExit(f"morning {n + 1}: the questionnaire was not saved")
        time.sleep(0.02)
    if between:
        between()
    assert control.send({"request": "press", "presses": [{"button": "go", "after_ms": 500}]}).get("ok")
    while True:
        packet = watcher.next()
        if packet.get("event") != "snapshot":
            continue
        if packet["phase"] == "readout":
            return packet["clock"]
        if packet["phase"] == "showingFault":
            raise SystemExit(f"morning {n + 1}: {packet.get('fault_sentence')}")


def advance_to(control, clock, hour, minute=0, days=1):
    now = datetime.datetime.strptime(clock, "%Y-%m-%d %H:%M:%S")
    target = datetime.datetime.combine(now.date() + datetime.timedelta(days=days), datetime.time(hour, minute))
    reply = control.send({"request": "advance", "seconds": int((target - now).total_seconds())})
    assert reply.get("ok"), reply
    return reply["clock"]


def snapshot(path, into):
    src = sqlite3.connect(path)
    dst = sqlite3.connect(into)
    src.backup(dst)
    dst.close()
    src.close()


def rows(db):
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return {t: set(db.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables}


def replay(before, after, mnt, dev, pragmas, checkpoint):
    """The rows one morning added or changed, written into a copy of the database as it was before, in one
    transaction, under `pragmas`; the bytes the device took for it."""
    target = os.path.join(mnt, "replay.db")
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(target + suffix):
            os.remove(target + suffix)
    shutil.copy(before, target)
    db = sqlite3.connect(target, isolation_level=None)
    for p in pragmas:
        db.execute(p)
    old = rows(sqlite3.connect(before))
    new = rows(sqlite3.connect(after))
    start = written(dev)
    db.execute("BEGIN")
    for table, values in new.items():
        for row in values - old.get(table, set()):
            db.execute(f'INSERT OR REPLACE INTO "{table}" VALUES ({",".join("?" * len(row))})', row)
    db.execute("COMMIT")
    if checkpoint:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return written(dev) - start


def kib(n):
    return f"{n / 1024:.1f} KiB"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mnt", required=True, help="the mounted test file system")
    parser.add_argument("--dev", required=True, help="its block device's name in /sys/block (loop0)")
    parser.add_argument("--mornings", type=int, default=7)
    parser.add_argument("--label", default="ext4")
    args = parser.parse_args()
    daemon = deck.binary("recoverydeckd-sim")
    work = tempfile.mkdtemp(prefix="recoverydeck-wear-")
    box = os.path.join(args.mnt, "box")
    os.makedirs(box, exist_ok=True)
    # The database on the device; the socket, the configuration and the daemon's log elsewhere (the journal
    # is counted apart, by the lines the daemon logs at the default level).
    config, values = deck.write_config(
        work, database=os.path.join(box, "recoverydeck.db"), control_socket=os.path.join(work, "control.sock"),
        clock_start="2026-01-01 06:00", speed=1000, log_level="info", reminder="on")
    log_path = os.path.join(work, "daemon.log")
    process = deck.start(daemon, config, log_path)
    try:
        control, watcher = deck.connect_and_watch(values["control_socket"])
        # Two mornings first: the database's first pages, the schema, the first baseline rows.
        clock = None
        for n in range(2):
            clock = morning(control, watcher, n, log_path)
            clock = advance_to(control, clock, 6)
        mornings, checkins, idles, logged = [], [], [], []
        before_db = os.path.join(work, "before.db")
        after_db = os.path.join(work, "after.db")
        for n in range(2, 2 + args.mornings):
            if n == 2:
                snapshot(values["database"], before_db)
            log_before = os.path.getsize(log_path)
            start = written(args.dev)
            marks = []

            def questionnaire_saved():
                time.sleep(0.3)
                marks.append(written(args.dev))

            clock = morning(control, watcher, n, log_path, questionnaire_saved)
            # Let the daemon finish its save (spool, commit, spool removal, checkpoint) before counting.
            time.sleep(0.5)
            mornings.append(written(args.dev) - start)
            checkins.append(marks[0] - start)
            logged.append(os.path.getsize(log_path) - log_before)
            if n == 2:
                snapshot(values["database"], after_db)
            clock = advance_to(control, clock, 6)
        # Idle days: no morning at all; the reminder opens and closes, the timers run.
        for _ in range(args.mornings):
            log_before = os.path.getsize(log_path)
            start = written(args.dev)
            clock = advance_to(control, clock, 6)
            time.sleep(0.5)
            idles.append((written(args.dev) - start, os.path.getsize(log_path) - log_before))
        process.terminate()
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
    size = os.path.getsize(values["database"])
    box_like = replay(
        before_db, after_db, args.mnt, args.dev,
        ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA secure_delete = ON"], True)
    naive = replay(before_db, after_db, args.mnt, args.dev,
                   ["PRAGMA journal_mode = DELETE", "PRAGMA synchronous = FULL"], False)
    per_morning = sorted(mornings)[len(mornings) // 2]
    per_idle = sorted(i[0] for i in idles)[len(idles) // 2]
    idle_log = sorted(i[1] for i in idles)[len(idles) // 2]
    year = 365 * (per_morning + per_idle)
    print(f"sd-wear: {args.label} on {args.dev}, {args.mornings} mornings and {args.mornings} idle days measured "
          f"(medians; the device's sectors-written counter after sync)")
    print(f"  one morning (questionnaire, capture, save):  {kib(per_morning)}  (all: {', '.join(kib(m) for m in mornings)})")
    print(f"    of which the questionnaire's save:          {kib(sorted(checkins)[len(checkins) // 2])}")
    print(f"  one idle day (reminder, timers):             {kib(per_idle)}  (all: {', '.join(kib(i[0]) for i in idles)})")
    print(f"  a year, projected (365 mornings + idle days): {year / 1048576:.1f} MiB; the database after "
          f"{2 + args.mornings} mornings is {kib(size)}")
    print(f"  the daemon's log at the default level (to the journal, not counted above): "
          f"{sorted(logged)[len(logged) // 2]} B per morning, {idle_log} B per idle day")
    print(f"  one morning's rows replayed in one transaction: box's pragmas (WAL, synchronous=FULL, secure_delete, "
          f"TRUNCATE checkpoint) {kib(box_like)}; naive (rollback journal, synchronous=FULL) {kib(naive)}")
    aims = [("a morning under 512 KiB", per_morning < 512 * 1024), ("an idle day under 64 KiB", per_idle < 64 * 1024)]
    for what, met in aims:
        print(f"  aim {what}: {'met' if met else 'NOT met'}")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
