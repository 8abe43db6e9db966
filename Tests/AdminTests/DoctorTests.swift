import Foundation
import Panel
import Simulation
import Testing

@testable import Admin

/// `recoverydeck doctor`: each check judged from made-up facts, so every failure path is covered
/// without Bluetooth, GPIO or a mis-set clock on the test machine.
struct DoctorTests {
    /// Facts of a box that is ready.
    static var ready: DoctorFacts {
        var f = DoctorFacts()
        f.adapters = [.init(name: "hci0", isUp: true)]
        f.radioSwitches = [.init(name: "hci0", softBlocked: false, hardBlocked: false)]
        f.daemon = .running(pid: 812, hasNetAdmin: true)
        f.kernelRelease = "6.6.51+rpt-rpi-2712"
        f.kernelVersion = KernelVersion(6, 6, 51)
        f.strapAddress = "A0:9E:1A:00:11:22"
        f.strapLastSeen = "2026-03-01"
        f.strapDaysSinceSeen = 1
        f.gpioChips = [.init(path: "/dev/gpiochip4", label: "pinctrl-rp1", lineCount: 54)]
        f.gpioLines = [
            .init(role: "pin_go", offset: 17, consumer: "go-button", panelConsumer: "go-button"),
            .init(role: "pin_red", offset: 22, consumer: nil, panelConsumer: "red"),
        ]
        f.database = .init(
            path: "/var/lib/recoverydeck/recoverydeck.db", exists: true, mode: 0o100600, ownerUID: 994,
            expectedOwnerUID: 994, expectedOwnerName: "recoverydeck", integrity: "ok")
        f.timeZone = "Europe/Stockholm"
        f.clockSynchronized = true
        f.freeBytes = 5 << 30
        return f
    }

    func verdict(_ name: String, _ change: (inout DoctorFacts) -> Void) -> Doctor.Check {
        var f = Self.ready
        change(&f)
        return Doctor.checks(f).first { $0.name == name }!
    }

    @Test("the installed box's database, 0660 in the group's 2770 folder (docs/design.md §8), passes; wrong modes fail with the right chmod")
    func sharedDatabaseMode() {
        func check(_ mode: UInt32, shared: Bool, group: UInt32 = 993) -> Doctor.Check {
            verdict("database") {
                $0.database!.mode = 0o100000 | mode
                $0.database!.groupID = group
                $0.database!.sharedGroup = shared ? .init(gid: 993, name: "recoverydeck") : nil
            }
        }
        let installed = check(0o660, shared: true)
        #expect(installed.verdict == .ok, "\(installed.line)")
        #expect(installed.detail.contains("mode 660, owner recoverydeck, group recoverydeck"))
        for mode: UInt32 in [0o600, 0o664, 0o666, 0o640] {
            let wrong = check(mode, shared: true)
            #expect(wrong.verdict == .fail && wrong.fix == "sudo chmod 660 /var/lib/recoverydeck/recoverydeck.db", "\(wrong.line)")
        }
        let foreignGroup = check(0o660, shared: true, group: 100)
        #expect(foreignGroup.verdict == .fail && foreignGroup.fix == "sudo chgrp recoverydeck /var/lib/recoverydeck/recoverydeck.db*")
        let privateOne = check(0o660, shared: false)
        #expect(privateOne.verdict == .fail && privateOne.fix == "sudo chmod 600 /var/lib/recoverydeck/recoverydeck.db")
        #expect(check(0o600, shared: false).verdict == .ok)
    }

    @Test("chips a member of the box's group may not open are a warning naming sudo; refused to root, a failure")
    func gpioRefusedToTheCaller() {
        let refused: (inout DoctorFacts) -> Void = {
            $0.gpioChips = []
            $0.gpioChipsUnopened = [(path: "/dev/gpiochip0", reason: "Permission denied")]
        }
        let member = verdict("gpio") {
            refused(&$0)
            $0.gpioChipsDeniedToCaller = true
        }
        #expect(member.verdict == .warn, "\(member.line)")
        #expect(member.fix?.contains("sudo") == true)
        let root = verdict("gpio", refused)
        #expect(root.verdict == .fail, "\(root.line)")
    }

    @Test("a ready box passes every check and exits 0")
    func readyBox() {
        let checks = Doctor.checks(Self.ready)
        #expect(
            checks.map(\.name) == [
                "adapter", "rfkill", "access", "kernel", "strap", "gpio", "database", "timezone", "clock", "disk",
            ])
        #expect(checks.allSatisfy { $0.verdict == .ok }, "\(checks.filter { $0.verdict != .ok })")
        #expect(Doctor.isReady(checks))
    }

    @Test("each failure is a FAIL line with a fix, and makes the box not ready")
    func failures() {
        let cases: [(String, (inout DoctorFacts) -> Void, String)] = [
            ("adapter", { $0.bluetoothInKernel = false }, "modprobe bluetooth"),
            ("adapter", { $0.adapters = [] }, "dtoverlay=disable-bt"),
            (
                "adapter",
                {
                    $0.adapters = [.init(name: "hci1", isUp: true)]
                    $0.wantedAdapter = "hci0"
                }, "set adapter in"
            ),
            ("adapter", { $0.adapters = [.init(name: "hci0", isUp: false)] }, "btmgmt -i hci0 power on"),
            ("rfkill", { $0.radioSwitches[0].softBlocked = true }, "rfkill unblock bluetooth"),
            ("rfkill", { $0.radioSwitches[0].hardBlocked = true }, "switch"),
            ("access", { $0.daemon = .running(pid: 812, hasNetAdmin: false) }, "AmbientCapabilities=CAP_NET_ADMIN"),
            (
                "access",
                {
                    $0.daemon = .notRunning
                    $0.callerHasNetAdmin = false
                }, "systemctl enable --now recoverydeckd"
            ),
            ("kernel", { $0.kernelVersion = KernelVersion(6, 1, 85) }, "apt full-upgrade"),
            ("strap", { $0.strapAddress = nil }, "recoverydeck pair"),
            ("strap", { $0.strapKnownToBluetoothd = true }, "bluetoothctl remove A0:9E:1A:00:11:22"),
            (
                "adapter",
                {
                    $0.adapters = [.init(name: "hci0", isUp: true, address: "B8:27:EB:00:00:01")]
                    $0.wantedAdapter = "B8:27:EB:00:00:02"
                }, "set adapter in"
            ),
            (
                "gpio",
                {
                    $0.gpioChips = [.init(path: "/dev/gpiochip0", label: "pinctrl-bcm2711", lineCount: 58)]
                    $0.gpioChipLabels = ["pinctrl-rp1"]
                }, "chip_label"
            ),
            ("gpio", { $0.gpioChips = [] }, "gpiodetect"),
            ("gpio", { $0.gpioLines[1].consumer = "pigpiod" }, "holding them as \"pigpiod\""),
            (
                "gpio",
                {
                    $0.daemon = .notRunning
                    $0.callerHasNetAdmin = true
                    $0.gpioLines[1].consumer = "red"
                }, "holding them as \"go-button\""
            ),
            ("gpio", { $0.gpioLines[1].offset = 60 }, "correct pin_red"),
            ("database", { $0.database!.integrity = "*** in database main ***\nPage 5: btree" }, ".recover"),
            ("database", { $0.database!.mode = 0o100644 }, "chmod 600"),
            ("database", { $0.database!.ownerUID = 0 }, "chown recoverydeck:"),
            ("clock", { $0.clockSynchronized = false }, "set-ntp true"),
            ("disk", { $0.freeBytes = 10 << 20 }, "apt clean"),
        ]
        for (name, change, fix) in cases {
            let check = verdict(name, change)
            #expect(check.verdict == .fail, "\(name): \(check.line)")
            #expect(check.fix?.contains(fix) == true, "\(name): \(check.line)")
            #expect(check.line.hasPrefix("FAIL  \(name)"))
            #expect(!check.line.contains("\n"), "one line per check: \(check.line)")
            var f = Self.ready
            change(&f)
            #expect(!Doctor.isReady(Doctor.checks(f)))
        }
    }

    @Test("warnings leave the box ready: UTC time zone, strap unseen for weeks, little disk, unreadable facts")
    func warnings() {
        let cases: [(String, (inout DoctorFacts) -> Void)] = [
            ("timezone", { $0.timeZone = "Etc/UTC" }),
            ("timezone", { $0.timeZone = nil }),
            ("strap", { $0.strapDaysSinceSeen = 30 }),
            ("disk", { $0.freeBytes = 120 << 20 }),
            ("access", { $0.daemon = .runningUnreadable(pid: 5) }),
            ("database", { $0.database!.exists = false }),
            ("adapter", { $0.adapters = [.init(name: "hci0", isUp: nil)] }),
            ("strap", { $0.strapUnknownReason = "database disk image is malformed" }),
        ]
        for (name, change) in cases {
            var f = Self.ready
            change(&f)
            let checks = Doctor.checks(f)
            #expect(checks.first { $0.name == name }?.verdict == .warn, "\(name)")
            #expect(Doctor.isReady(checks))
        }
    }

    @Test("an adapter configured by its address (recoverydeck.conf(5) adapter) is found by it, in any case")
    func adapterByAddress() {
        var f = Self.ready
        f.adapters = [
            .init(name: "hci0", isUp: true, address: "B8:27:EB:00:00:01"),
            .init(name: "hci1", isUp: false, address: "00:1A:7D:DA:71:13"),
        ]
        f.wantedAdapter = "00:1a:7d:da:71:13"
        let check = Doctor.checks(f).first { $0.name == "adapter" }!
        #expect(check.verdict == .fail)
        #expect(check.line.contains("hci1 is present but powered off"), "\(check.line)")
        f.adapters[1].isUp = true
        #expect(Doctor.checks(f).first { $0.name == "adapter" }?.line == "ok    adapter   hci1 is present and powered")
    }

    @Test("HCIGETDEVINFO's bdaddr, least significant byte first, reads as the address bluetoothctl shows")
    func controllerAddress() {
        #expect(SystemFacts.address(bdaddr: [0x01, 0x00, 0x00, 0xEB, 0x27, 0xB8]) == "B8:27:EB:00:00:01")
    }

    @Test("a strap bluetoothd keeps a record of is found in its storage tree, whatever the letter case")
    func bluetoothdStorage() throws {
        let root = try fakeRoot([
            "/var/lib/bluetooth/B8:27:EB:00:00:01/A0:9E:1A:00:11:22/info": "[General]\nName=Polar H10 001122\n",
            "/var/lib/bluetooth/B8:27:EB:00:00:01/cache/C0:11:22:33:44:55": "[General]\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let facts = SystemFacts(root: root, environment: { _ in nil })
        #expect(facts.bluetoothdKnows("a0:9e:1a:00:11:22"))
        #expect(!facts.bluetoothdKnows("C0:11:22:33:44:55"))  // only seen in a scan: cache, no record
        #expect(!SystemFacts(root: root + "/nothing", environment: { _ in nil }).bluetoothdKnows("A0:9E:1A:00:11:22"))
    }

    @Test("DESIGN §5: with the strap's parameters in place any kernel passes; without them doctor says why")
    func strapParameters() {
        var f = Self.ready
        f.kernelVersion = KernelVersion(6, 1, 85)  // refuses the L2CAP request too
        f.strapParameters = .inPlace("interval 30–500 ms, latency 0, timeout 6000 ms for A0:9E:1A:00:11:22 on hci0")
        let loaded = Doctor.kernel(f)
        #expect(loaded.verdict == .ok)
        #expect(loaded.detail.contains("in place (interval 30–500 ms"))
        f.strapParameters = .notInPlace("Load Connection Parameters needs CAP_NET_ADMIN")
        #expect(Doctor.kernel(f).verdict == .fail, "a 2024 kernel without them loses the strap mid-morning")
        f.kernelVersion = KernelVersion(6, 1, 140)
        let missing = Doctor.kernel(f)
        #expect(missing.verdict == .warn)
        #expect(missing.detail.contains("needs CAP_NET_ADMIN"))
        #expect(missing.fix?.contains("CAP_NET_ADMIN") == true)
        f.strapParameters = .unknown
        #expect(Doctor.kernel(f).verdict == .ok)
    }

    @Test("kernels from the 2024 connection-interval regression are flagged, fixed and older ones are not")
    func kernelWindow() {
        let flagged = [
            (6, 1, 81), (6, 1, 85), (6, 1, 94), (6, 6, 21), (6, 6, 31), (6, 7, 9), (6, 8, 0), (6, 8, 12), (6, 9, 5),
            (5, 15, 151), (5, 10, 212), (4, 19, 309),
        ]
        let fine = [
            (6, 1, 80), (6, 1, 95), (6, 6, 20), (6, 6, 35), (6, 6, 51), (6, 7, 8), (6, 9, 6), (6, 10, 0), (6, 12, 1),
            (5, 15, 162), (6, 18, 44),
        ]
        for (a, b, c) in flagged {
            #expect(StrapLinkKernelRule.rejectsStrapUpdate(KernelVersion(a, b, c)), "\(a).\(b).\(c)")
        }
        for (a, b, c) in fine {
            #expect(!StrapLinkKernelRule.rejectsStrapUpdate(KernelVersion(a, b, c)), "\(a).\(b).\(c)")
        }
    }

    @Test("kernel versions come from Debian's version string, where its release string hides the patch level")
    func kernelParsing() {
        #expect(
            KernelVersion(release: "6.1.0-20-arm64", version: "#1 SMP PREEMPT_DYNAMIC Debian 6.1.85-1 (2024-04-11)")
                == KernelVersion(6, 1, 85))
        #expect(
            KernelVersion(release: "6.6.31+rpt-rpi-2712", version: "#1 SMP PREEMPT Debian 1:6.6.31-1+rpt1")
                == KernelVersion(6, 6, 31))
        #expect(KernelVersion(release: "6.18.44-fc-v769", version: "#1 SMP") == KernelVersion(6, 18, 44))
        #expect(KernelVersion(release: "weird", version: "") == nil)
    }

    /// A fake root: sysfs, /proc and /etc as the gatherer reads them.
    func fakeRoot(_ files: [String: String], links: [String: String] = [:]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)").path
        for (path, text) in files {
            let full = root + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        for (path, target) in links {
            let full = root + path
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: target)
        }
        return root
    }

    @Test(
        "the gatherer reads adapters, rfkill, the daemon's capabilities, the kernel, time zone and pins from a fake tree"
    )
    func gathering() throws {
        let root = try fakeRoot(
            [
                "/sys/class/bluetooth/hci0/name": "hci0\n",
                "/sys/class/bluetooth/hci0:64/name": "conn\n",
                "/sys/class/rfkill/rfkill0/type": "bluetooth\n",
                "/sys/class/rfkill/rfkill0/name": "hci0\n",
                "/sys/class/rfkill/rfkill0/soft": "1\n",
                "/sys/class/rfkill/rfkill0/hard": "0\n",
                "/sys/class/rfkill/rfkill1/type": "wlan\n",
                "/proc/812/comm": "recoverydeckd\n",
                "/proc/812/status": "Name:\trecoverydeckd\nCapEff:\t0000000000001000\n",
                "/proc/self/status": "CapEff:\t0000000000000000\n",
                "/proc/sys/kernel/osrelease": "6.1.0-20-arm64\n",
                "/proc/sys/kernel/version": "#1 SMP PREEMPT_DYNAMIC Debian 6.1.85-1 (2024-04-11)\n",
                "/etc/recoverydeck/recoverydeck.conf":
                    "chip_label = pinctrl-bcm2711 # a Pi 4\npin_red = 26\npin_keypad_rows = 5, 6, 13, 27\nadapter = hci1\n",
            ],
            links: ["/etc/localtime": "/usr/share/zoneinfo/Europe/Stockholm"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let f = SystemFacts(root: root, environment: { _ in nil }).gather(
            databasePath: root + "/missing.db", systemDatabasePath: "/var/lib/recoverydeck/recoverydeck.db")
        #expect(f.adapters.map(\.name) == ["hci0"])
        #expect(f.wantedAdapter == "hci1")
        #expect(f.radioSwitches == [.init(name: "hci0", softBlocked: true, hardBlocked: false)])
        #expect(f.daemon == .running(pid: 812, hasNetAdmin: true))
        #expect(!f.callerHasNetAdmin)
        #expect(f.kernelVersion == KernelVersion(6, 1, 85))
        #expect(f.timeZone == "Europe/Stockholm")
        #expect(f.gpioChipLabels == ["pinctrl-bcm2711"])
        #expect(f.gpioLines.first { $0.role == "pin_red" }?.offset == 26)
        #expect(f.gpioLines.filter { $0.role.hasPrefix("pin_keypad_rows") }.map(\.offset) == [5, 6, 13, 27])
        #expect(f.configurationProblem == nil)
        #expect(f.gpioLines.first { $0.role == "pin_go" }?.offset == 17)
        // The daemon's own lines carry the panel's consumer names (Panel/Panel.swift).
        #expect(f.gpioLines.first { $0.role == "pin_go" }?.panelConsumer == "go-button")
        #expect(f.gpioLines.first { $0.role == "pin_keypad_rows[2]" }?.panelConsumer == "keypad-row2")
        #expect(f.gpioLines.first { $0.role == "pin_buzzer" }?.panelConsumer == "buzzer")
        #expect(f.database?.exists == false)
        let checks = Doctor.checks(f)
        #expect(checks.first { $0.name == "adapter" }?.verdict == .fail)  // hci1 wanted, hci0 present
        #expect(checks.first { $0.name == "rfkill" }?.verdict == .fail)
        #expect(checks.first { $0.name == "kernel" }?.verdict == .fail)
    }

    @Test("a configuration file the daemon would refuse fails doctor with the daemon's own sentence and line")
    func refusedConfiguration() throws {
        let root = try fakeRoot(
            ["/etc/recoverydeck/recoverydeck.conf": "adapter = hci0\npin_red = twenty-six\n"], links: [:])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let f = SystemFacts(root: root, environment: { _ in nil }).gather(
            databasePath: root + "/missing.db", systemDatabasePath: "/var/lib/recoverydeck/recoverydeck.db")
        let check = try #require(Doctor.configuration(f))
        #expect(check.verdict == .fail)
        #expect(check.detail.hasPrefix("/etc/recoverydeck/recoverydeck.conf:2: pin_red"), "\(check.detail)")
        // The rest of the checks go on with the panel's defaults, never a half-read file.
        #expect(f.gpioLines.first { $0.role == "pin_red" }?.offset == Int(PinMap.standard.red))
        let fine = try fakeRoot(["/etc/recoverydeck/recoverydeck.conf": "adapter = hci0\n"], links: [:])
        defer { try? FileManager.default.removeItem(atPath: fine) }
        let read = SystemFacts(root: fine, environment: { _ in nil }).gather(
            databasePath: fine + "/missing.db", systemDatabasePath: "/var/lib/recoverydeck/recoverydeck.db")
        #expect(Doctor.configuration(read) == nil)
    }

    /// A chip that remembers the consumer name of each line the panel requests.
    final class RecordingChip: GPIOChip {
        let inner = SimulatedChip()
        var consumers: [UInt32: String] = [:]
        var label: String { inner.label }

        func requestInput(offset: UInt32, bias: LineBias, edge: EdgeDetection, consumer: String) throws(PanelError)
            -> any GPIOInput
        {
            consumers[offset] = consumer
            return try inner.requestInput(offset: offset, bias: bias, edge: edge, consumer: consumer)
        }

        func requestOutput(offset: UInt32, initiallyHigh: Bool, drive: OutputDrive, consumer: String) throws(PanelError)
            -> any GPIOOutput
        {
            consumers[offset] = consumer
            return try inner.requestOutput(offset: offset, initiallyHigh: initiallyHigh, drive: drive, consumer: consumer)
        }
    }

    @Test("doctor's default lines are the panel's own, with the consumer names the panel holds them by")
    func linesMatchThePanel() throws {
        let chip = RecordingChip()
        let panel = try Panel(chip: chip)
        defer { panel.close() }
        let lines = BoxSettings(text: "").gpioLines
        #expect(lines.count == chip.consumers.count)
        for line in lines {
            #expect(chip.consumers[UInt32(line.offset)] == line.panelConsumer, "\(line.role) on GPIO\(line.offset)")
        }
    }

    @Test("TZ wins over /etc/localtime, as in libc")
    func timeZoneFromEnvironment() throws {
        let root = try fakeRoot([:], links: ["/etc/localtime": "/usr/share/zoneinfo/Etc/UTC"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let zone = SystemFacts(root: root, environment: { $0 == "TZ" ? ":America/New_York" : nil }).timeZone()
        #expect(zone == "America/New_York")
        #expect(SystemFacts(root: root, environment: { _ in nil }).timeZone() == "Etc/UTC")
    }

    @Test("on this machine the live gatherer runs every check and reads a real database's integrity")
    func liveRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/r.db"
        #expect(FileManager.default.createFile(atPath: db, contents: nil, attributes: [.posixPermissions: 0o600]))
        let f = SystemFacts(environment: { _ in nil }).gather(
            databasePath: db, systemDatabasePath: "/var/lib/recoverydeck/recoverydeck.db")
        #expect(f.database?.integrity == "ok")
        #expect(f.freeBytes ?? 0 > 0)
        #expect(f.kernelVersion != nil)
        let checks = Doctor.checks(f)
        #expect(checks.count == 10)
        #expect(checks.first { $0.name == "database" }?.verdict == .ok)
    }
}

/// `doctor` names the records waiting in the daemon's spool.
struct DoctorSpoolTests {
    @Test("waiting records are a warning that names each; an empty spool adds no line")
    func spoolLine() throws {
        #expect(Doctor.spool(waiting: [], unreadable: [], directory: "/d") == nil)
        let check = try #require(
            Doctor.spool(waiting: ["2026-03-10 questionnaire", "2026-03-10 morning"], unreadable: [], directory: "/d"))
        #expect(check.verdict == .warn)
        #expect(check.detail == "2 saved record(s) wait for the database in /d: 2026-03-10 questionnaire, 2026-03-10 morning")
    }
}
