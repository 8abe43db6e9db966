"""Figures for docs/figures.md (a benchmark, not a test; run on a release build linked as the package links it,
with the Swift runtime static: deploy/build-deb):

    swift build -c release --static-swift-stdlib --product recoverydeckd-sim
    python3 Tests/stages/daemon/bench.py [--bin .build/release]

(With the Swift runtime as shared libraries, the pages of libswiftCore & co. the process touches add about
2.5 MB to VmRSS; the private, dirty part is the same.)

- start to READY: spawn → the READY=1 datagram on NOTIFY_SOCKET (fresh database), median of 20;
- RSS during a morning: VmRSS sampled every 50 ms through a whole simulated session, and VmHWM;
- context switches per minute while idle: voluntary_ctxt_switches over 60 s, outside the reminder window
  (nothing to do: no panel pattern, no session), with a systemd-like WATCHDOG_USEC=30 s, and inside the
  window (the blue lamp's slow blink is software-timed)."""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time

import deck


def notify_socket(directory):
    path = os.path.join(directory, "notify.sock")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.settimeout(10)
    return s, path


def start_to_ready(daemon, runs=20):
    times = []
    for _ in range(runs):
        work = tempfile.mkdtemp(prefix="rd-bench-")
        config, values = deck.write_config(work, clock="system", log_level="warning")
        s, path = notify_socket(work)
        t0 = time.monotonic()
        process = subprocess.Popen(deck.command(daemon, config), env=dict(os.environ, NOTIFY_SOCKET=path),
                                   stderr=subprocess.DEVNULL)
        while True:
            message = s.recv(4096).decode()
            if message.startswith("READY=1"):
                times.append((time.monotonic() - t0) * 1000)
                break
        process.terminate()
        process.wait(10)
        s.close()
        shutil.rmtree(work)
    return times


def session_rss(daemon):
    work = tempfile.mkdtemp(prefix="rd-bench-")
    config, values = deck.write_config(work, clock_start="2026-03-10 06:00", speed=10)
    process = deck.start(daemon, config, os.path.join(work, "daemon.log"))
    deck.wait_for(values["control_socket"])
    control = deck.Control(values["control_socket"])
    keys = ["1", "5", "4", "5", "6", "5", "#"]
    presses = [{"button": k, "after_ms": 500 + 600 * i} for i, k in enumerate(keys)]
    presses.append({"button": "go", "after_ms": 500 + 600 * len(keys) + 1000})
    idle_rss = deck.rss_kb(process.pid)
    assert control.send({"request": "press", "presses": presses}).get("ok")
    samples = []
    while True:
        samples.append(deck.rss_kb(process.pid))
        phase = deck.Control(values["control_socket"]).send({"request": "status"})["snapshot"]["phase"]
        if phase == "readout":
            break
        time.sleep(0.05)
    with open(f"/proc/{process.pid}/status") as f:
        status = {l.split(":")[0]: l.split()[1] for l in f if l.startswith(("VmHWM", "RssAnon", "RssFile"))}
    hwm = int(status["VmHWM"])
    print(f"RSS at the readout: {status['RssAnon']} kB anonymous (heap, stacks), {status['RssFile']} kB file pages "
          f"(the executable and shared libraries)")
    process.terminate()
    process.wait(10)
    shutil.rmtree(work)
    return idle_rss, samples, hwm


def idle_switches(daemon, seconds, **keys):
    work = tempfile.mkdtemp(prefix="rd-bench-")
    config, values = deck.write_config(work, log_level="warning", **keys)
    env = dict(os.environ)
    s = None
    if keys.get("clock") != "simulated":
        s, path = notify_socket(work)
        env.update(NOTIFY_SOCKET=path, WATCHDOG_USEC="30000000")
    process = subprocess.Popen(deck.command(daemon, config), env=env, stderr=subprocess.DEVNULL)
    deck.wait_for(values["control_socket"])
    time.sleep(2)
    before = deck.context_switches(process.pid)
    time.sleep(seconds)
    after = deck.context_switches(process.pid)
    process.terminate()
    process.wait(10)
    if s:
        s.close()
    shutil.rmtree(work)
    return {k: (after[k] - before[k]) * 60 / seconds for k in after}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin")
    parser.add_argument("--idle-seconds", type=int, default=60)
    args = parser.parse_args()
    daemon = os.path.join(args.bin, "recoverydeckd-sim") if args.bin else deck.binary("recoverydeckd-sim")
    times = start_to_ready(daemon)
    print(f"start to READY: median {statistics.median(times):.1f} ms, min {min(times):.1f}, max {max(times):.1f} "
          f"({len(times)} starts, fresh database, simulated panel and strap)")
    idle, samples, hwm = session_rss(daemon)
    print(f"RSS: idle {idle} kB; during a morning max {max(samples)} kB, median {statistics.median(samples):.0f} kB "
          f"({len(samples)} samples); VmHWM {hwm} kB")
    quiet = idle_switches(daemon, args.idle_seconds, clock="system")
    print(f"idle, outside the reminder window, WATCHDOG_USEC=30 s: {quiet['voluntary_ctxt_switches']:.1f} voluntary "
          f"context switches per minute ({quiet['nonvoluntary_ctxt_switches']:.1f} involuntary)")
    blinking = idle_switches(daemon, args.idle_seconds, clock="simulated", clock_start="2026-03-10 07:00")
    print(f"idle, reminder blinking (blue 1 s on / 1 s off): {blinking['voluntary_ctxt_switches']:.1f} voluntary "
          f"context switches per minute")


if __name__ == "__main__":
    main()
