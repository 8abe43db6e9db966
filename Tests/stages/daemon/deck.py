"""Helpers for the daemon's stages (torture, soak): run the built recoverydeckd-sim (the box's daemon on a simulated box), talk
to its control socket, and check a database the way a person would care about it. Standard library only."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def binary(name):
    """The built product (swift build --show-bin-path)."""
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, capture_output=True, text=True, check=True)
    path = os.path.join(out.stdout.strip(), name)
    if not os.access(path, os.X_OK):
        raise SystemExit(f"{path} is missing: run swift build --product {name}")
    return path


# The keys of the simulation file (recoverydeckd-sim --print-simulation), never of recoverydeck.conf.
SIMULATION_KEYS = {
    "speed", "clock", "clock_start", "simulated_seed", "simulated_first_date", "simulated_hr_only",
    "simulated_dropout", "simulated_artifacts", "simulated_connect_seconds", "panel_script", "unsynchronised_boot",
}


def simulation_path(config):
    """The simulation file write_config puts beside the configuration."""
    return os.path.join(os.path.dirname(config), "simulation.conf")


def command(daemon, config):
    """recoverydeckd-sim on the box write_config wrote: its configuration and its simulation."""
    return [daemon, "--config", config, "--simulation", simulation_path(config)]


def write_config(directory, **keys):
    """A simulated box: simulated panel, virtual strap, simulated clock; `keys` add or override. The simulation
    keys go to simulation.conf beside recoverydeck.conf (`command` hands both to the daemon)."""
    values = {
        "database": os.path.join(directory, "recoverydeck.db"),
        "control_socket": os.path.join(directory, "control.sock"),
        "panel": "simulated",
        "strap": "simulated",
        "clock": "simulated",
        "log_level": "notice",
    }
    values.update({k: str(v) for k, v in keys.items()})
    path = os.path.join(directory, "recoverydeck.conf")
    with open(path, "w") as f:
        for k, v in values.items():
            if k not in SIMULATION_KEYS:
                f.write(f"{k} = {v}\n")
    with open(simulation_path(path), "w") as f:
        for k, v in values.items():
            if k in SIMULATION_KEYS:
                f.write(f"{k} = {v}\n")
    return path, values


def start(daemon, config, log_path):
    log = open(log_path, "ab")
    process = subprocess.Popen(command(daemon, config), stdout=log, stderr=log, env=dict(os.environ, TZ="UTC"))
    log.close()
    return process


def wait_for(path, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return True
        time.sleep(0.005)
    return False


class Control:
    """One connection to the control socket: a JSON object per SOCK_SEQPACKET packet each way."""

    def __init__(self, path, timeout=10):
        # The socket file appears at bind(), a moment before listen(): a refusal then means "not yet".
        deadline = time.monotonic() + timeout
        while True:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            self.sock.settimeout(timeout)
            try:
                self.sock.connect(path)
                return
            except ConnectionRefusedError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def send(self, request):
        self.sock.send(json.dumps(request).encode())
        return self.next()

    def next(self):
        packet = self.sock.recv(65536)
        if not packet:
            raise EOFError("recoverydeckd closed the connection")
        return json.loads(packet)

    def close(self):
        self.sock.close()


def connect_and_watch(socket_path, timeout=60):
    """Once the daemon listens: a connection for requests, and one that watches the session's snapshots."""
    if not wait_for(socket_path):
        raise SystemExit("recoverydeckd did not start")
    control = Control(socket_path, timeout=timeout)
    watcher = Control(socket_path, timeout=timeout)
    assert watcher.send({"request": "watch"}).get("ok")
    return control, watcher


def questionnaire_presses(n):
    """Morning n's questionnaire on the keypad: a key to wake it, five scores that vary by day, then #, one
    press every 600 ms (each `after_ms` from one request's instant)."""
    keys = ["1", str(1 + n % 7), "5", str(1 + (n * 3) % 7), "6", "4", "#"]
    return [{"button": key, "after_ms": 500 + 600 * i} for i, key in enumerate(keys)]


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def context_switches(pid):
    counts = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if "ctxt_switches" in line:
                key, value = line.split(":")
                counts[key.strip()] = int(value)
    return counts


def check_database(path):
    """Problems with the database as a person would see them: corruption, or a day that is not whole.
    Returns (problems, measured_days)."""
    problems = []
    db = sqlite3.connect(path, timeout=10)
    try:
        result = db.execute("PRAGMA integrity_check").fetchall()
        if result != [("ok",)]:
            problems.append(f"integrity_check: {result}")
        rows = db.execute(
            """SELECT day, quality, hrv_accepted, rmssd_ms, mean_hr_bpm, orthostatic_status, avg_lying_hr,
                      avg_standing_hr, peak_standing_hr, capture_start_ms, capture_end_ms, lying_end_ms,
                      stand_start_ms, stand_end_ms, length(rr_raw), length(hr_readings), duration_ms
               FROM measurement ORDER BY day""").fetchall()
        questionnaires = {r[0] for r in db.execute("SELECT day FROM questionnaire")}
        durations = {}
        for day, in db.execute("SELECT day FROM analytics_event WHERE kind = 'session_duration_ms'"):
            durations[day] = durations.get(day, 0) + 1
        for (day, quality, accepted, rmssd, mean_hr, status, lying, standing, peak, cap_start, cap_end, lying_end,
             stand_start, stand_end, rr_len, hr_len, duration) in rows:
            where = f"day {day}"
            if day not in questionnaires:
                problems.append(f"{where}: a measurement without the day's questionnaire (the gate)")
            if quality == "ok":
                if rmssd is None or accepted is None or accepted < 45 or not rr_len:
                    problems.append(f"{where}: quality ok but rMSSD {rmssd}, accepted {accepted}, rr bytes {rr_len}")
            elif quality == "rr_unavailable":
                if rmssd is not None or mean_hr is None:
                    problems.append(f"{where}: degraded morning with rMSSD {rmssd}, mean HR {mean_hr}")
            else:
                problems.append(f"{where}: a failed capture ({quality}) was saved")
            if not (cap_end > cap_start):
                problems.append(f"{where}: capture {cap_start}..{cap_end}")
            if status == "completed":
                if None in (lying, standing, peak, lying_end, stand_start, stand_end):
                    problems.append(f"{where}: orthostatic completed with missing numbers")
                elif stand_end - stand_start != 60000 or stand_start - lying_end != 3000:
                    problems.append(f"{where}: standing {stand_start}..{stand_end}, cue from {lying_end}")
            elif status == "skipped":
                if lying is not None or stand_start is not None:
                    problems.append(f"{where}: skipped orthostatic part with numbers")
            else:
                problems.append(f"{where}: orthostatic {status}")
            if not hr_len or duration <= 0:
                problems.append(f"{where}: no heart rates or no duration")
            if durations.get(day, 0) != 1:
                problems.append(f"{where}: {durations.get(day, 0)} session_duration_ms events (one transaction writes one)")
        measured = {r[0] for r in rows}
        for day, n in durations.items():
            if day not in measured:
                problems.append(f"day {day}: a session_duration_ms event without its measurement")
        return problems, len(rows)
    finally:
        db.close()
