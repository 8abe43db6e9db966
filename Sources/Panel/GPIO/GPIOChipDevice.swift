import CGPIOD
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// One `gpiochip*` character device and what its driver says of it: the one listing of the chips, which the
/// libgpiod backend searches by label and `recoverydeck doctor` reports. The facts come from the kernel's GPIO
/// character device (`GPIO_GET_CHIPINFO_IOCTL`, <linux/gpio.h>) on a read-only descriptor: no line is requested
/// and the listing works for a member of the chips' group and for root alike.
public struct GPIOChipDevice: Hashable, Sendable {
    /// What opening the device and asking its driver gave.
    public enum Reading: Hashable, Sendable {
        /// A GPIO chip: the label its driver gives it ("pinctrl-rp1" on a Raspberry Pi 5) and its line count.
        case chip(label: String, lineCount: Int)
        /// open(2) refused: no permission (EACCES), or the device went away.
        case unopened(Errno)
        /// It opened, but does not answer as a GPIO chip (ENOTTY: a file or another device by that name).
        case notAChip(Errno)
    }

    /// "gpiochip0".
    public var name: String
    /// The directory and the name: "/dev/gpiochip0".
    public var path: String
    public var reading: Reading

    public init(name: String, path: String, reading: Reading) {
        self.name = name
        self.path = path
        self.reading = reading
    }

    /// The driver's label, nil when the device could not be read as a chip.
    public var label: String? {
        if case .chip(let label, _) = reading { return label }
        return nil
    }

    /// "pinctrl-rp1", or why there is no label ("not openable as a GPIO chip: …").
    public var labelOrReason: String {
        switch reading {
        case .chip(let label, _): label
        case .unopened(let error), .notAChip(let error): "not openable as a GPIO chip: \(error)"
        }
    }

    /// Every `gpiochip*` entry under `directory`, in name order (gpiochip2 before gpiochip10), each opened,
    /// asked and closed. A directory that cannot be listed has none.
    public static func all(in directory: String = "/dev") -> [GPIOChipDevice] {
        var names = ((try? DirectoryEntries.names(in: directory)) ?? []).filter { $0.hasPrefix("gpiochip") }
        names.sort { ($0.count, $0) < ($1.count, $1) }
        return names.map { name in
            let path = directory + "/" + name
            return GPIOChipDevice(name: name, path: path, reading: read(path))
        }
    }

    static func read(_ path: String) -> Reading {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch { return .unopened(error) }
        defer { fd.close() }
        var facts = cgpiod_chip_facts()
        guard cgpiod_chip_facts_read(fd.rawValue, &facts) == 0 else { return .notAChip(.current) }
        let label = withUnsafeBytes(of: facts.label) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .chip(label: label, lineCount: Int(facts.lines))
    }
}
