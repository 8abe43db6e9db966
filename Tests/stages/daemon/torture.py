"""kill -9 recoverydeckd at random instants of simulated mornings (seeded), and after each kill check that
the database is intact and that no day is partial: a day is as it was, or its morning is whole.

    python3 torture.py [--kills N] [--speed S] [--seed N] [--work DIR]

Each round is a new local day on a simulated clock. The daemon starts on the same database (recovering
the WAL the previous kill left), the simulated panel is keyed (questionnaire, then GO), and the process is
killed with SIGKILL at a random instant of the session; a quarter of the rounds aim at the moment the
morning is written, found by a first round that runs to the end. Some rounds use an HR-only strap, some a
drop-out, some so many artifacts that the capture fails."""

import argparse
import datetime
import os
import random
import shutil
import signal
import sys
import tempfile
import time

import deck


def presses(control):
    """The person at the panel: wake key, five scores, #, then GO (session time offsets)."""
    keys = ["1", "5", "4", "5", "6", "5", "#"]
    # One request for the whole sequence, so every press counts from the same instant.
    presses = [{"button": key, "after_ms": 500 + 600 * i} for i, key in enumerate(keys)]
    presses.append({"button": "go", "after_ms": 500 + 600 * len(keys) + 1000})
    reply = control.send({"request": "press", "presses": presses})
    assert reply.get("ok"), reply


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--speed", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--work")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    daemon = deck.binary("recoverydeckd-sim")
    work = args.work or tempfile.mkdtemp(prefix="recoverydeck-torture-")
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "daemon.log")
    first_day = datetime.date(2026, 1, 1)
    started = time.monotonic()

    def run_round(n, kill_after, options):
        day = first_day + datetime.timedelta(days=n)
        config, values = deck.write_config(
            work, clock_start=f"{day.isoformat()} 06:00", speed=args.speed, simulated_seed=n % 50, **options)
        if os.path.exists(values["control_socket"]):
            os.unlink(values["control_socket"])
        process = deck.start(daemon, config, log)
        if not deck.wait_for(values["control_socket"]):
            process.kill()
            raise SystemExit(f"round {n}: recoverydeckd did not start; see {log}")
        t0 = time.monotonic()
        control = deck.Control(values["control_socket"])
        presses(control)
        if kill_after is None:
            # Calibration: run to the end and time the save.
            saved_at = None
            while time.monotonic() - t0 < 120:
                reply = deck.Control(values["control_socket"]).send({"request": "status"})
                phase = reply["snapshot"]["phase"]
                if phase == "readout":
                    saved_at = time.monotonic() - t0
                    break
                time.sleep(0.002)
            process.send_signal(signal.SIGTERM)
            process.wait(10)
            control.close()
            if saved_at is None:
                raise SystemExit("calibration round did not reach the readout")
            return saved_at
        delay = kill_after - (time.monotonic() - t0)
        if delay > 0:
            time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        control.close()
        return None

    # Round 0 runs a whole morning: when, in real time, is it written?
    save_time = run_round(0, None, {})
    problems, measured = deck.check_database(os.path.join(work, "recoverydeck.db"))
    if problems or measured != 1:
        raise SystemExit(f"calibration: {measured} mornings, problems {problems}")
    print(f"torture: a morning is written {save_time:.3f} s after the presses at speed {args.speed}", flush=True)

    outcomes = {"saved": 0, "not_saved": 0}
    aimed = 0
    for n in range(1, args.kills + 1):
        options = {}
        roll = rng.random()
        if roll < 0.15:
            options["simulated_hr_only"] = "on"
        elif roll < 0.30:
            options["simulated_dropout"] = f"{rng.randint(20, 150)}:{rng.randint(3, 25)}"
        elif roll < 0.40:
            options["simulated_artifacts"] = "0.3"
        if rng.random() < 0.25 and not options:
            kill_after = save_time + rng.uniform(-0.04, 0.01)
            aimed += 1
        else:
            kill_after = rng.uniform(0, save_time * 1.1)
        before = deck.check_database(os.path.join(work, "recoverydeck.db"))[1]
        run_round(n, kill_after, options)
        problems, measured = deck.check_database(os.path.join(work, "recoverydeck.db"))
        if problems:
            print(f"torture: round {n} (killed at {kill_after:.3f} s, {options}): {problems}", file=sys.stderr)
            raise SystemExit(1)
        outcomes["saved" if measured > before else "not_saved"] += 1
    elapsed = time.monotonic() - started
    print(
        f"torture: {args.kills} kill -9 rounds ({aimed} aimed at the write), integrity ok and no partial day after "
        f"each; {outcomes['saved']} mornings had been written whole, {outcomes['not_saved']} rounds left the day "
        f"as it was; {elapsed:.0f} s", flush=True)
    if not args.work:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
