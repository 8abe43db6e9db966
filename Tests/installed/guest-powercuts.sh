#!/bin/bash
# The power cuts (first boot, after the logged work): the state disk's block log replayed onto a blank disk
# and stopped at every flush and FUA inside the restore, the migration and alice's morning (its spool write
# and fsyncs, the SQLite commit, the spool's removal, the checkpoint at restart), plus seeded instants
# between them; at each, the disk as the cut left it is mounted (ext4 replays its journal, as at boot) at
# /var/lib/recoverydeck and the installed daemon started on it. Afterwards each class is judged by
# judge_cuts.py against the states at its own marks. Output: powercuts.tsv, powercuts.txt.
. /usr/local/lib/rdcheck/guest-lib.bash
python3 $bench/logwrites.py summary /dev/vdc > logsummary.txt
say "block log: $(tail -1 logsummary.txt)"
cat > /run/cut-check.sh <<'CHECK'
#!/bin/bash
# INDEX REGION WHERE KIND: one cut state, /run/cut.img; appends a row to powercuts.tsv.
index=$1 region=$2 where=$3 kind=$4
out=$(cat /run/rdcheck-out-dir)
state=/var/lib/recoverydeck db=/var/lib/recoverydeck/recoverydeck.db today=$(date +%F)
loop=$(losetup -f --show /run/cut.img)
# One tab-separated row: the cut, then each KEY=VALUE (a value such as integrity_check's may hold spaces).
row() { local IFS=$'\t'; printf '%s\t%s\t%s\t%s\t%s\n' "$index" "$region" "$where" "$kind" "$*" >> "$out/powercuts.tsv"; }
if ! mount "$loop" $state 2> /run/mount.err; then
    row "mount=fail" "$(head -1 /run/mount.err)"; losetup -d "$loop"; exit 1
fi
spooled=$(find $db.spool -type f 2>/dev/null | grep -vc '\.tmp' || true)
had_db=$([ -s $db ] && echo 1 || echo 0)
rc=0
if systemctl start recoverydeckd 2> /run/start.err; then
    started=1
else
    started=0; rc=1
fi
q() { runuser -u recoverydeck -- sqlite3 -batch $db "$1" 2>&1; }
integrity=$(q "PRAGMA integrity_check" | head -1)
steps=$(q "SELECT count(*) FROM schema_migrations")
mornings=$(q "SELECT count(*) FROM measurement")
todays=$(q "SELECT count(*) FROM measurement WHERE day = '$today'")
all=$(q "SELECT * FROM measurement ORDER BY day; SELECT * FROM questionnaire ORDER BY day;" | sha256sum | cut -c1-12)
mine=$(q "SELECT * FROM measurement WHERE day = '$today'" | sha256sum | cut -c1-12)
left=$(find $db.spool -type f 2>/dev/null | wc -l)
[ "$integrity" = ok ] || rc=1
row "started=$started" "db=$had_db" "spooled=$spooled" "integrity=$integrity" "steps=$steps" "mornings=$mornings" \
    "today=$todays" "all=$all" "mine=$mine" "spool_left=$left"
systemctl stop recoverydeckd
# A daemon that did not start leaves its failure for the next start: cleared, as a reboot would.
systemctl reset-failed recoverydeckd 2>/dev/null || true
umount $state
losetup -d "$loop"
exit $rc
CHECK
chmod +x /run/cut-check.sh
echo "$OUT" > /run/rdcheck-out-dir
: > powercuts.tsv
started=$(date +%s)
python3 $bench/logwrites.py cuts /dev/vdc /dev/vdd /run/cut.img /run/cut-check.sh \
    --regions restore,migrate,save --at-least 60 --seed 20 > cuts.log 2>&1 || true
seconds=$(( $(date +%s) - started ))
tail -1 cuts.log
python3 - powercuts.tsv "$seconds" > powercuts.txt <<'PY'
import sys
rows = []
for line in open(sys.argv[1]):
    index, region, where, kind, *rest = line.rstrip("\n").split("\t")
    fields = dict(f.split("=", 1) for f in rest if "=" in f)
    rows.append((int(index), region, where, kind, fields))
rows.sort()
bad = []
def fail(row, why):
    bad.append(f"cut {row[0]} ({row[1]}, {row[2]} {row[3]}): {why}")
summary = []
for region in ("restore", "migrate", "save"):
    mine = [r for r in rows if r[1] == region]
    if not mine:
        bad.append(f"no cuts in {region}")
        continue
    begin = next((r for r in mine if r[2] == "begin"), None)
    end = next((r for r in mine if r[2] == "end"), None)
    for r in mine:
        f = r[4]
        if f.get("started") != "1":
            fail(r, "the daemon did not start on it")
        if f.get("integrity") != "ok":
            fail(r, f"integrity_check said {f.get('integrity')}")
        if f.get("spool_left") not in ("0", None):
            fail(r, f"{f.get('spool_left')} spooled record(s) not filed at start")
    if not begin or not end:
        bad.append(f"{region}: a mark's state is missing")
        continue
    before, after = begin[4], end[4]
    counts = {}
    if region == "restore":
        for r in mine:
            state = "after" if r[4].get("all") == after["all"] else "before" if r[4].get("all") == before["all"] else "half"
            counts[state] = counts.get(state, 0) + 1
            if state == "half":
                fail(r, f"neither before nor after the restore ({r[4].get('mornings')} mornings)")
    elif region == "migrate":
        for r in mine:
            ok = r[4].get("all") == after["all"] and r[4].get("steps") == after["steps"]
            counts["migrated at start" if ok else "wrong"] = counts.get("migrated at start" if ok else "wrong", 0) + 1
            if not ok:
                fail(r, f"after start: {r[4].get('steps')} steps, data {'equal' if r[4].get('all') == after['all'] else 'differs'}")
    else:
        seen = False
        for r in mine:
            t = r[4].get("today")
            if t == "1" and r[4].get("mine") == after["mine"]:
                seen = True
                state = "filed from the spool" if r[4].get("spooled") != "0" else "in the database"
            elif t == "0":
                state = "absent"
                if seen:
                    fail(r, "the morning was durable at an earlier cut and is gone at this one")
                if r[4].get("spooled") not in ("0", None):
                    fail(r, "a spooled morning was not filed")
            else:
                state = "half"
                fail(r, f"today={t}, the morning differs from the saved one")
            counts[state] = counts.get(state, 0) + 1
        if after.get("today") != "1":
            bad.append("save: the morning is not in the state at the end mark")
    summary.append(f"{region} {len(mine)} (" + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) + ")")
for line in bad:
    print("FAIL", line)
print(f"{len(rows)} instants in {sys.argv[2]} s: " + "; ".join(summary) + ("" if not bad else f"; {len(bad)} FAILED"))
sys.exit(1 if bad or len(rows) < 50 else 0)
PY
rc=$?
cat powercuts.txt
figure powercut_instants "$(wc -l < powercuts.tsv)" cuts "$(tail -1 powercuts.txt)"
exit $rc
