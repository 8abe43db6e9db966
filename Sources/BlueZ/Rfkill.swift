import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// One radio kill switch as the kernel shows it under /sys/class/rfkill (Linux
/// Documentation/ABI/stable/sysfs-class-rfkill): `type`, `name`, `soft` and `hard` files.
public struct RfkillSwitch: Hashable, Sendable {
    /// The N of rfkillN.
    public var index: Int
    /// The device it belongs to: "hci0" for a Bluetooth controller.
    public var name: String
    /// "bluetooth", "wlan", …
    public var type: String
    /// Blocked by software (`rfkill block`); `rfkill unblock` lifts it.
    public var softBlocked: Bool
    /// Blocked by a physical switch or the firmware; software cannot lift it.
    public var hardBlocked: Bool

    public init(index: Int, name: String, type: String, softBlocked: Bool, hardBlocked: Bool) {
        self.index = index
        self.name = name
        self.type = type
        self.softBlocked = softBlocked
        self.hardBlocked = hardBlocked
    }

    public var isBlocked: Bool { softBlocked || hardBlocked }
}

/// Reading the rfkill switches, from /sys/class/rfkill or from another folder laid out alike.
public enum Rfkill {
    public static let defaultRoot = "/sys/class/rfkill"

    /// Every switch under `root`, by index. Entries whose files cannot be read are left out:
    /// rfkill is a diagnosis, never a reason to fail.
    public static func switches(root: String = defaultRoot) -> [RfkillSwitch] {
        var found: [RfkillSwitch] = []
        for entry in SysfsFiles.entries(of: root) where entry.hasPrefix("rfkill") {
            guard let index = Int(entry.dropFirst("rfkill".count)),
                let type = SysfsFiles.line(root + "/" + entry + "/type"),
                let soft = SysfsFiles.line(root + "/" + entry + "/soft"),
                let hard = SysfsFiles.line(root + "/" + entry + "/hard")
            else { continue }
            let name = SysfsFiles.line(root + "/" + entry + "/name") ?? ""
            found.append(
                RfkillSwitch(index: index, name: name, type: type, softBlocked: soft != "0", hardBlocked: hard != "0"))
        }
        return found.sorted { $0.index < $1.index }
    }

    /// The block that keeps Bluetooth adapter `adapter` ("hci0") off, if any: its own switch, or a
    /// Bluetooth switch of no particular device (some laptops and boards have one for all radios
    /// of a kind). A hard block is reported before a soft one, since only the switch can lift it.
    public static func block(of adapter: String, in switches: [RfkillSwitch]) -> BlueZError? {
        let relevant = switches.filter { $0.type == "bluetooth" && ($0.name == adapter || !$0.name.hasPrefix("hci")) }
        if relevant.contains(where: \.hardBlocked) { return .rfkillBlocked(name: adapter, hard: true) }
        if relevant.contains(where: \.softBlocked) { return .rfkillBlocked(name: adapter, hard: false) }
        return nil
    }
}

/// Small reads of sysfs-like files (a value and a newline) without Foundation.
enum SysfsFiles {
    /// The file's first line without its newline, or nil when it cannot be read.
    /// A sysfs attribute is at most one page (Documentation/filesystems/sysfs.rst).
    static func line(_ path: String) -> String? {
        guard let bytes = try? FileDescriptor.readContents(atPath: path, limit: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    /// Names in a directory, without "." and "..", or none when it cannot be opened.
    static func entries(of path: String) -> [String] {
        ((try? DirectoryEntries.names(in: path)) ?? []).sorted()
    }
}
