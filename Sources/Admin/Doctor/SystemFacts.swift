import BoxConfiguration
import CBlueZ
import CGPIOD
import Panel
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Gathers `DoctorFacts` from the running system. Everything read from files is read under `root`
/// ("/" on the box; a fake tree in tests): sysfs, /proc, /etc. Kernel calls (sockets, ioctls, statvfs,
/// adjtimex, SQLite) run only when `root` is "/".
public struct SystemFacts {
    public var root: String
    public var environment: (String) -> String?

    public init(root: String = "/", environment: @escaping (String) -> String?) {
        self.root = root.hasSuffix("/") ? root : root + "/"
        self.environment = environment
    }

    var isLive: Bool { root == "/" }

    func path(_ p: String) -> String { root + (p.hasPrefix("/") ? String(p.dropFirst()) : p) }

    /// Gathers everything; `strap` and `database` come from the caller, which owns the store.
    public func gather(databasePath: String, systemDatabasePath: String) -> DoctorFacts {
        var f = DoctorFacts()
        let config = BoxSettings(text: readText(path(DaemonConfiguration.defaultPath)) ?? "")
        f.configurationProblem = config.problem
        f.wantedAdapter = config.adapter
        f.gpioChipLabels = config.chipLabels
        f.bluetoothInKernel = isLive ? Self.bluetoothSocketsExist() : true
        f.adapters = adapters()
        f.radioSwitches = radioSwitches()
        f.daemon = daemon()
        f.callerHasNetAdmin = Self.hasNetAdmin(statusText: readText(path("/proc/self/status")) ?? "")
        (f.kernelRelease, f.kernelVersion) = kernel()
        f.timeZone = timeZone()
        f.clockSynchronized = isLive ? SystemClock.kernelSynchronized() : nil
        f.freeBytesPath = PathName.directory(of: databasePath)
        f.freeBytes = isLive ? Self.freeBytes(f.freeBytesPath) : nil
        f.gpioLines = config.gpioLines
        if isLive {
            let devices = GPIOChipDevice.all(in: path("/dev"))
            (f.gpioChips, f.gpioLines, f.gpioLineError) = Self.gpio(
                devices, labels: f.gpioChipLabels, lines: f.gpioLines)
            let (unopened, denied) = Self.unopenedChipsAndDenials(devices)
            f.gpioChipsUnopened = unopened
            f.gpioChipsDeniedToCaller = getuid() != 0 && !unopened.isEmpty && denied == unopened.count
        }
        f.database = database(databasePath, systemPath: systemDatabasePath)
        return f
    }

    // MARK: Bluetooth

    /// The `adapter` of the box's configuration file, if set (hciN or an address).
    public func configuredAdapter() -> String? {
        BoxSettings(text: readText(path(DaemonConfiguration.defaultPath)) ?? "").adapter
    }

    func adapters() -> [DoctorFacts.Adapter] {
        entries(path("/sys/class/bluetooth")).filter { name in
            name.hasPrefix("hci") && name.count > 3 && name.dropFirst(3).allSatisfy(\.isNumber)
        }.sorted().map { name in
            let info = isLive ? Self.adapterInfo(Int(name.dropFirst(3))!) : nil
            return DoctorFacts.Adapter(name: name, isUp: info?.isUp, address: info?.address)
        }
    }

    /// Whether bluetoothd keeps a record of the device `address`: it stores one directory per paired or
    /// connected device, /var/lib/bluetooth/ADAPTER/DEVICE/info (BlueZ doc/settings-storage.txt).
    public func bluetoothdKnows(_ address: String) -> Bool {
        let storage = path("/var/lib/bluetooth")
        return entries(storage).contains { adapter in
            access(storage + "/" + adapter + "/" + address.uppercased() + "/info", F_OK) == 0
        }
    }

    func radioSwitches() -> [DoctorFacts.RadioSwitch] {
        entries(path("/sys/class/rfkill")).sorted().compactMap { entry in
            let dir = path("/sys/class/rfkill/" + entry)
            guard readText(dir + "/type")?.trimmedLine == "bluetooth" else { return nil }
            return DoctorFacts.RadioSwitch(
                name: readText(dir + "/name")?.trimmedLine ?? entry,
                softBlocked: readText(dir + "/soft")?.trimmedLine == "1",
                hardBlocked: readText(dir + "/hard")?.trimmedLine == "1")
        }
    }

    static func bluetoothSocketsExist() -> Bool {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        if fd >= 0 {
            close(fd)
            return true
        }
        return errno != EAFNOSUPPORT
    }

    /// HCI_UP and the controller's address from HCIGETDEVINFO (the shim makes the call with the headers'
    /// ioctl number and struct hci_dev_info).
    static func adapterInfo(_ index: Int) -> (isUp: Bool, address: String)? {
        guard let dev = UInt16(exactly: index) else { return nil }
        var facts = cbluez_adapter_facts()
        guard cbluez_adapter_facts_read(dev, &facts) == 0 else { return nil }
        let bytes = withUnsafeBytes(of: facts.address) { Array($0) }
        return (facts.is_up != 0, address(bdaddr: bytes))
    }

    /// "AA:BB:CC:DD:EE:FF" from a bdaddr_t, whose bytes run least significant first.
    static func address(bdaddr: some Collection<UInt8>) -> String {
        bdaddr.reversed().map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    // MARK: Processes and capabilities

    /// CAP_NET_ADMIN is capability 12 (linux/capability.h).
    static func hasNetAdmin(statusText: String) -> Bool {
        for line in statusText.split(separator: "\n") where line.hasPrefix("CapEff:") {
            guard let caps = UInt64(line.dropFirst(7).trimmedLine, radix: 16) else { return false }
            return caps & (1 << 12) != 0
        }
        return false
    }

    func daemon() -> DoctorFacts.Daemon {
        for entry in entries(path("/proc")) where entry.allSatisfy(\.isNumber) {
            guard readText(path("/proc/\(entry)/comm"))?.trimmedLine == "recoverydeckd", let pid = Int32(entry) else {
                continue
            }
            guard let status = readText(path("/proc/\(entry)/status")) else { return .runningUnreadable(pid: pid) }
            return .running(pid: pid, hasNetAdmin: Self.hasNetAdmin(statusText: status))
        }
        return .notRunning
    }

    // MARK: Kernel, time

    func kernel() -> (String, KernelVersion?) {
        let release: String
        let version: String
        if isLive {
            var names = utsname()
            uname(&names)
            release = withUnsafeBytes(of: names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            version = withUnsafeBytes(of: names.version) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        } else {
            release = readText(path("/proc/sys/kernel/osrelease"))?.trimmedLine ?? ""
            version = readText(path("/proc/sys/kernel/version"))?.trimmedLine ?? ""
        }
        return (release, KernelVersion(release: release, version: version))
    }

    /// TZ first (as libc reads it), then the /etc/localtime link, then /etc/timezone.
    func timeZone() -> String? {
        if var tz = environment("TZ"), !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if let zone = tz.split(separator: "zoneinfo/").last, tz.hasPrefix("/") { return String(zone) }
            return tz
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path("/etc/localtime"), &buffer, buffer.count - 1)
        if n > 0 {
            let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let range = target.splitAfter("zoneinfo/") { return range }
        }
        if let name = readText(path("/etc/timezone"))?.trimmedLine, !name.isEmpty { return name }
        return access(path("/etc/localtime"), F_OK) == 0 ? "(an unnamed zone in /etc/localtime)" : nil
    }

    static func freeBytes(_ directory: String) -> UInt64? {
        var s = statvfs()
        guard statvfs(directory, &s) == 0 else { return nil }
        return UInt64(s.f_bavail) * UInt64(s.f_frsize)
    }

    // MARK: GPIO (linux/gpio.h character device, v1 ABI as libgpiod 1.6 uses it, through the shim)

    /// The chips under /dev that could not be opened, with the reason, and how many of them for lack of
    /// permission (EACCES or EPERM).
    static func unopenedChipsAndDenials(_ devices: [GPIOChipDevice]) -> (
        unopened: [(path: String, reason: String)], denied: Int
    ) {
        var unopened: [(path: String, reason: String)] = []
        var denied = 0
        for device in devices {
            guard case .unopened(let error) = device.reading else { continue }
            if error == .accessDenied || error == .permissionDenied { denied += 1 }
            unopened.append(("/dev/" + device.name, error.message))
        }
        return (unopened, denied)
    }

    /// The chips that answered, and the use of each of `lines` on the first chip with one of `labels`.
    static func gpio(_ devices: [GPIOChipDevice], labels: [String], lines: [DoctorFacts.GPIOLine]) -> (
        [DoctorFacts.GPIOChip], [DoctorFacts.GPIOLine], String?
    ) {
        let chips = devices.compactMap { device -> DoctorFacts.GPIOChip? in
            guard case .chip(let label, let count) = device.reading else { return nil }
            return DoctorFacts.GPIOChip(path: device.path, label: label, lineCount: count)
        }
        guard let chip = labels.lazy.compactMap({ l in chips.first { $0.label == l } }).first else {
            return (chips, lines, nil)
        }
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(chip.path, .readOnly) } catch { return (chips, lines, error.message) }
        defer { fd.close() }
        var result = lines
        for i in result.indices where result[i].offset < chip.lineCount {
            var info = cgpiod_line_facts()
            guard cgpiod_line_facts_read(fd.rawValue, UInt32(result[i].offset), &info) == 0 else {
                return (chips, lines, Errno.current.message)
            }
            let used = info.used != 0
            let consumer = Self.string(cString: info.consumer)
            result[i].consumer = used ? (consumer.isEmpty ? "the kernel" : consumer) : nil
        }
        return (chips, result, nil)
    }

    /// The text of a NUL-terminated fixed-size C array (imported as a tuple).
    static func string<T>(cString tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    // MARK: Database

    func database(_ file: String, systemPath: String) -> DoctorFacts.DatabaseFile {
        var s = stat()
        let exists = stat(file, &s) == 0
        var expectedUID: UInt32? = getuid()
        var expectedName = "you (uid \(getuid()))"
        if file == systemPath {
            if let pw = getpwnam("recoverydeck") {
                expectedUID = pw.pointee.pw_uid
                expectedName = "recoverydeck"
            } else {
                expectedUID = nil
                expectedName = "recoverydeck (no such user: install the package)"
            }
        }
        var integrity: String? = nil
        if exists, isLive, access(file, R_OK) == 0 { integrity = Store.integrityCheck(ofFile: file) }
        // Shared as the package shares /var/lib/recoverydeck (2770): set-group-ID and group rwx (SharedState).
        var folder = stat()
        let directory = PathName.directory(of: file)
        var shared: DoctorFacts.SharedGroup?
        if lstat(directory, &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR, folder.st_mode & S_ISGID != 0,
            folder.st_mode & 0o070 == 0o070
        {
            shared = DoctorFacts.SharedGroup(
                gid: folder.st_gid, name: ServiceGroup.name(of: folder.st_gid) ?? "gid \(folder.st_gid)")
        }
        return DoctorFacts.DatabaseFile(
            path: file, exists: exists, mode: exists ? UInt32(s.st_mode) : 0, ownerUID: exists ? s.st_uid : 0,
            expectedOwnerUID: expectedUID, expectedOwnerName: expectedName, integrity: integrity,
            sharedGroup: shared, groupID: exists ? s.st_gid : 0)
    }

    // MARK: Files

    func entries(_ directory: String) -> [String] {
        (try? DirectoryEntries.names(in: directory)) ?? []
    }

    /// A small system file (sysfs, /proc, /etc) as text, or nil when it cannot be read or exceeds 1 MiB:
    /// doctor reports what it can read and never fails over one file.
    func readText(_ file: String) -> String? {
        guard let bytes = try? FileDescriptor.readContents(atPath: file, limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    var trimmedLine: String { trimmed }

    /// The text after the first `marker`, or nil.
    func splitAfter(_ marker: String) -> String? {
        let chars = Array(self)
        let m = Array(marker)
        guard chars.count >= m.count else { return nil }
        for i in 0...(chars.count - m.count) where Array(chars[i..<(i + m.count)]) == m {
            return String(chars[(i + m.count)...])
        }
        return nil
    }
}
