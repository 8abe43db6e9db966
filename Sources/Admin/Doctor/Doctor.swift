/// `recoverydeck doctor`: is the box ready for a morning? Each check is a pure function of the gathered
/// facts and gives one line; each failure says how to fix it.
public enum Doctor {
    public enum Verdict: String, Sendable {
        case ok
        /// Works, but something a person should know.
        case warn
        case fail
    }

    public struct Check: Sendable, Equatable {
        public var name: String
        public var verdict: Verdict
        public var detail: String
        /// What to do, for a warning or a failure.
        public var fix: String?

        public init(_ name: String, _ verdict: Verdict, _ detail: String, fix: String? = nil) {
            self.name = name
            self.verdict = verdict
            self.detail = detail
            self.fix = fix
        }

        /// "ok    adapter      hci0 is present and up", failures with "— fix: …".
        public var line: String {
            let tag = verdict == .ok ? "ok  " : verdict == .warn ? "WARN" : "FAIL"
            let padded = name + String(repeating: " ", count: max(1, 10 - name.count))
            return "\(tag)  \(padded)\(detail)" + (fix.map { " — fix: \($0)" } ?? "")
        }
    }

    /// Every check, in the order a person would fix things.
    public static func checks(_ f: DoctorFacts) -> [Check] {
        [
            adapter(f), rfkill(f), management(f), kernel(f), strap(f), gpio(f), database(f), timeZone(f), clock(f),
            disk(f),
        ]
    }

    /// Records in the daemon's spool that the database has not taken yet (`waiting`: "2026-03-10 morning",
    /// oldest first): a warning that names them; nil when nothing waits.
    public static func spool(waiting: [String], unreadable: [String], directory: String) -> Check? {
        guard !waiting.isEmpty || !unreadable.isEmpty else { return nil }
        var detail = "\(waiting.count) saved record(s) wait for the database in \(directory)"
        if !waiting.isEmpty { detail += ": " + waiting.joined(separator: ", ") }
        if !unreadable.isEmpty { detail += "; unreadable: " + unreadable.joined(separator: ", ") }
        return Check(
            "spool", .warn, detail,
            fix: "the daemon files them once the database takes writes again (journalctl -u recoverydeckd says why "
                + "not); they are kept until then")
    }

    /// The configuration file as the daemon reads it: a failure naming the line when the daemon would refuse it
    /// (and not start); nil when it reads.
    public static func configuration(_ f: DoctorFacts) -> Check? {
        guard let problem = f.configurationProblem else { return nil }
        return Check(
            "config", .fail, problem,
            fix: "correct that line (`recoverydeckd --check-config` checks the file, `--print-config` lists every key), "
                + "then `sudo systemctl restart recoverydeckd`")
    }

    /// Rows the store left out because they could not be decoded (a damaged or hand-edited row): a warning
    /// naming each; nil when every row read.
    public static func rows(_ f: DoctorFacts) -> Check? {
        guard !f.skippedRows.isEmpty else { return nil }
        return Check(
            "rows", .warn, "\(f.skippedRows.count) row(s) of the database were left out: " + f.skippedRows.joined(separator: "; "),
            fix: "restore the database from a backup ('recoverydeck restore'), or delete the named rows with sqlite3 "
                + "while the daemon is stopped")
    }

    /// Ready when nothing failed; warnings do not stop a morning.
    public static func isReady(_ checks: [Check]) -> Bool { !checks.contains { $0.verdict == .fail } }

    static func adapter(_ f: DoctorFacts) -> Check {
        guard f.bluetoothInKernel else {
            return Check(
                "adapter", .fail, "this kernel has no Bluetooth sockets",
                fix: "load the module: sudo modprobe bluetooth (and check that the Pi's firmware enables Bluetooth)")
        }
        guard !f.adapters.isEmpty else {
            return Check(
                "adapter", .fail, "no Bluetooth adapter",
                fix:
                    "on a Pi, remove dtoverlay=disable-bt from /boot/firmware/config.txt and reboot; check `dmesg | grep -i blue`"
            )
        }
        // Without a configured adapter the daemon takes the first powered one; a configured one is named
        // hciN or given by its address (recoverydeck.conf(5)).
        let chosen =
            f.wantedAdapter.map { w in
                f.adapters.first { $0.name == w || $0.address?.uppercased() == w.uppercased() }
            }
            ?? f.adapters.first { $0.isUp == true } ?? f.adapters.first
        guard let a = chosen else {
            return Check(
                "adapter", .fail,
                "\(f.wantedAdapter ?? "") is missing (only \(f.adapters.map(\.name).joined(separator: ", ")))",
                fix: "set adapter in /etc/recoverydeck/recoverydeck.conf to one of them, or leave it empty")
        }
        switch a.isUp {
        case true?: return Check("adapter", .ok, "\(a.name) is present and powered")
        case false?:
            return Check(
                "adapter", .fail, "\(a.name) is present but powered off",
                fix: "sudo btmgmt -i \(a.name) power on (and check rfkill)")
        case nil:
            return Check(
                "adapter", .warn, "\(a.name) is present; its power state could not be read", fix: "run doctor with sudo"
            )
        }
    }

    static func rfkill(_ f: DoctorFacts) -> Check {
        if let hard = f.radioSwitches.first(where: \.hardBlocked) {
            return Check(
                "rfkill", .fail, "\(hard.name) is blocked by a hardware switch",
                fix: "flip the switch or check the board's power")
        }
        if let soft = f.radioSwitches.first(where: \.softBlocked) {
            return Check("rfkill", .fail, "\(soft.name) is blocked in software", fix: "sudo rfkill unblock bluetooth")
        }
        if f.radioSwitches.isEmpty { return Check("rfkill", .ok, "no Bluetooth radio switch to block it") }
        return Check("rfkill", .ok, "Bluetooth is not blocked")
    }

    static func management(_ f: DoctorFacts) -> Check {
        switch f.daemon {
        case .running(let pid, true):
            return Check("access", .ok, "recoverydeckd (pid \(pid)) holds CAP_NET_ADMIN for Bluetooth management")
        case .running(let pid, false):
            return Check(
                "access", .fail, "recoverydeckd (pid \(pid)) lacks CAP_NET_ADMIN: discovery and pairing are refused",
                fix:
                    "restore AmbientCapabilities=CAP_NET_ADMIN in the unit (systemctl cat recoverydeckd; remove the drop-in)"
            )
        case .runningUnreadable(let pid):
            return Check(
                "access", .warn, "recoverydeckd (pid \(pid)) runs; its capabilities are hidden from this user",
                fix: "run doctor with sudo")
        case .notRunning:
            if f.callerHasNetAdmin {
                return Check(
                    "access", .warn, "recoverydeckd is not running; this shell has CAP_NET_ADMIN",
                    fix: "sudo systemctl enable --now recoverydeckd")
            }
            return Check(
                "access", .fail,
                "recoverydeckd is not running and this shell lacks CAP_NET_ADMIN (Bluetooth management)",
                fix: "sudo systemctl enable --now recoverydeckd; run scan and pair with sudo")
        }
    }

    static func kernel(_ f: DoctorFacts) -> Check {
        guard let v = f.kernelVersion else {
            return Check("kernel", .warn, "cannot tell the version of kernel \(f.kernelRelease)")
        }
        // Every kernel refuses a link-layer request above the max the link was opened with, and the
        // 2024 kernels refuse the L2CAP one too; parameters loaded for the strap raise that max
        // (DESIGN §5), so with them in place the kernel's version no longer matters.
        switch f.strapParameters {
        case .inPlace(let detail):
            return Check("kernel", .ok, "Linux \(v); the strap's connection parameters are in place (\(detail))")
        case .notInPlace(let reason):
            if StrapLinkKernelRule.rejectsStrapUpdate(v) { break }
            return Check(
                "kernel", .warn,
                "Linux \(v) refuses the strap's request for a slower interval unless parameters are loaded: \(reason)",
                fix: "keep CAP_NET_ADMIN for recoverydeckd (it loads them before connecting); run doctor with sudo")
        case .unknown:
            break
        }
        if StrapLinkKernelRule.rejectsStrapUpdate(v) {
            return Check(
                "kernel", .fail,
                "Linux \(v) rejects the strap's connection-parameter update; the strap drops the link mid-morning",
                fix: "upgrade the kernel (sudo apt full-upgrade && sudo reboot): fixed in 6.1.95, 6.6.35, 6.9.6, 6.10")
        }
        return Check("kernel", .ok, "Linux \(v) accepts the strap's connection parameters")
    }

    static func strap(_ f: DoctorFacts) -> Check {
        if let reason = f.strapUnknownReason {
            return Check(
                "strap", .warn, "the pairing could not be read: \(reason)",
                fix: "fix the database line first, or run doctor with sudo")
        }
        guard let address = f.strapAddress else {
            return Check(
                "strap", .fail, "no strap is paired",
                fix: "wear the strap, then recoverydeck scan and recoverydeck pair ADDRESS")
        }
        if f.strapKnownToBluetoothd {
            return Check(
                "strap", .fail, "\(address) is also paired in bluetoothd, which takes the strap's one connection",
                fix: "bluetoothctl remove \(address), then take the strap off for a minute")
        }
        guard let seen = f.strapLastSeen, let days = f.strapDaysSinceSeen else {
            return Check("strap", .ok, "paired with \(address); not measured with yet")
        }
        if days > 14 {
            return Check(
                "strap", .warn, "paired with \(address); last seen \(seen), \(days) days ago",
                fix: "check the coin cell (CR2025) and that no phone app holds the strap")
        }
        return Check("strap", .ok, "paired with \(address); last seen \(seen)")
    }

    static func gpio(_ f: DoctorFacts) -> Check {
        let labels = f.gpioChipLabels
        guard let chip = labels.lazy.compactMap({ l in f.gpioChips.first { $0.label == l } }).first else {
            if let first = f.gpioChipsUnopened.first {
                let all = f.gpioChipsUnopened.map(\.path).joined(separator: ", ")
                // Only this caller is refused (a member of the box's group, not of the chips'): the daemon's user
                // is in the chips' group, so this says nothing against the box. Said, not failed.
                if f.gpioChipsDeniedToCaller {
                    return Check(
                        "gpio", .warn,
                        "cannot open \(all) as this user (\(first.reason)), so the panel's chip was not looked for",
                        fix: "run doctor with sudo, or as a member of the chips' group (gpio)")
                }
                return Check(
                    "gpio", .fail, "cannot open \(all) (\(first.reason)), so the panel's chip cannot be looked for",
                    fix: "run doctor with sudo, or as a member of the chips' group (gpio)")
            }
            let seen =
                f.gpioChips.isEmpty
                ? "no GPIO chip" : "chips " + f.gpioChips.map { "\($0.label)" }.joined(separator: ", ")
            return Check(
                "gpio", .fail, "no GPIO chip labelled \(labels.joined(separator: " or ")) (\(seen))",
                fix:
                    "set chip_label in /etc/recoverydeck/recoverydeck.conf to the header's chip (gpiodetect lists them)"
            )
        }
        if let error = f.gpioLineError {
            return Check(
                "gpio", .warn, "\(chip.label) found at \(chip.path); lines unreadable: \(error)",
                fix: "run doctor with sudo")
        }
        if let outside = f.gpioLines.first(where: { $0.offset >= chip.lineCount }) {
            return Check(
                "gpio", .fail,
                "\(outside.role) is line \(outside.offset) but \(chip.label) has \(chip.lineCount) lines",
                fix: "correct \(outside.role.split(separator: "[").first ?? "") in /etc/recoverydeck/recoverydeck.conf")
        }
        // A line the running daemon's panel holds carries the panel's name for it.
        var daemonRuns = false
        if case .running = f.daemon { daemonRuns = true }
        if case .runningUnreadable = f.daemon { daemonRuns = true }
        let held = f.gpioLines.filter { line in
            guard let consumer = line.consumer, !consumer.contains("recoverydeck") else { return false }
            return !(daemonRuns && consumer == line.panelConsumer)
        }
        if let first = held.first {
            let list = held.map { "\($0.role) (line \($0.offset)) by \($0.consumer!)" }.joined(separator: ", ")
            return Check(
                "gpio", .fail, "\(chip.label): lines held by another program: \(list)",
                fix:
                    "stop the program holding them as \"\(first.consumer!)\" (gpioinfo lists every line), or move the "
                    + "part to a free line in recoverydeck.conf")
        }
        return Check(
            "gpio", .ok, "\(chip.label) at \(chip.path); all \(f.gpioLines.count) lines free or held by recoverydeck")
    }

    static func database(_ f: DoctorFacts) -> Check {
        guard let db = f.database else {
            return Check("database", .fail, "no database path could be chosen", fix: "give --db PATH")
        }
        guard db.exists else {
            return Check(
                "database", .warn, "\(db.path) does not exist yet",
                fix: "it is created at the first start of recoverydeckd")
        }
        if let integrity = db.integrity, integrity != "ok" {
            // One line: SQLite's report runs over several, headed "*** in database main ***".
            let problems = integrity.split(separator: "\n").filter { !$0.hasPrefix("***") }.joined(separator: "; ")
            return Check(
                "database", .fail, "\(db.path) fails its integrity check: \(problems)",
                fix:
                    "stop recoverydeckd, keep a copy, rebuild it with sqlite3 \(db.path) .recover | sqlite3 \(db.path).new "
                    + "(package sqlite3), then move \(db.path).new into place")
        }
        // The package shares the database with its group (0660 in a 2770 folder, docs/design.md §8); a private
        // one is the owner's alone. Anything else is wrong either way, and the fix names the right mode.
        let mode = db.mode & 0o7777
        let wanted: UInt32 = db.sharedGroup == nil ? 0o600 : 0o660
        let modeText = String(wanted, radix: 8)
        if mode != wanted {
            let why =
                db.sharedGroup.map { "it is shared with the \($0.name) group, so it must be 660" }
                ?? "the person's data must be 600"
            return Check(
                "database", .fail, "\(db.path) has mode \(String(mode, radix: 8)); \(why)",
                fix: "sudo chmod \(modeText) \(db.path)")
        }
        if let expected = db.expectedOwnerUID, db.ownerUID != expected {
            return Check(
                "database", .fail, "\(db.path) belongs to uid \(db.ownerUID), not \(db.expectedOwnerName)",
                fix: "sudo chown \(db.expectedOwnerName): \(db.path)*")
        }
        if let group = db.sharedGroup, db.groupID != group.gid {
            return Check(
                "database", .fail, "\(db.path) is in gid \(db.groupID), not the \(group.name) group its folder shares",
                fix: "sudo chgrp \(group.name) \(db.path)*")
        }
        let shared = db.sharedGroup.map { ", group \($0.name)" } ?? ""
        if db.integrity == nil {
            return Check(
                "database", .warn,
                "\(db.path): mode \(modeText), owner \(db.expectedOwnerName)\(shared); integrity not checked",
                fix: "run doctor with sudo")
        }
        return Check(
            "database", .ok, "\(db.path): integrity ok, mode \(modeText), owner \(db.expectedOwnerName)\(shared)")
    }

    static func timeZone(_ f: DoctorFacts) -> Check {
        guard let zone = f.timeZone else {
            return Check(
                "timezone", .warn, "no time zone is set: days are UTC days",
                fix: "sudo timedatectl set-timezone Area/City")
        }
        if ["UTC", "Etc/UTC", "Universal", "Zulu", "Etc/Universal", "GMT", "Etc/GMT"].contains(zone) {
            return Check(
                "timezone", .warn, "the time zone is \(zone): mornings are dated by UTC days",
                fix: "if you do not live in UTC: sudo timedatectl set-timezone Area/City")
        }
        return Check("timezone", .ok, zone)
    }

    static func clock(_ f: DoctorFacts) -> Check {
        switch f.clockSynchronized {
        case true?: return Check("clock", .ok, "synchronised")
        case false?:
            return Check(
                "clock", .fail, "not synchronised: mornings could be filed under the wrong day",
                fix: "enable time sync (sudo timedatectl set-ntp true); a Pi 5 keeps time with its RTC battery")
        case nil: return Check("clock", .warn, "synchronisation state unknown")
        }
    }

    /// A morning with its raw RR is well under a megabyte; these floors leave months of room.
    static let diskFailBytes: UInt64 = 50 << 20
    static let diskWarnBytes: UInt64 = 200 << 20

    static func disk(_ f: DoctorFacts) -> Check {
        guard let free = f.freeBytes else { return Check("disk", .warn, "free space of \(f.freeBytesPath) unknown") }
        let mib = free >> 20
        if free < diskFailBytes {
            return Check(
                "disk", .fail, "\(mib) MiB free under \(f.freeBytesPath)",
                fix: "free space: sudo apt clean; sudo journalctl --vacuum-size=50M")
        }
        if free < diskWarnBytes {
            return Check(
                "disk", .warn, "\(mib) MiB free under \(f.freeBytesPath)", fix: "free space soon: sudo apt clean")
        }
        return Check("disk", .ok, "\(mib) MiB free under \(f.freeBytesPath)")
    }
}
