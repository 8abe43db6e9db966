#if canImport(Glibc)
    import Glibc
#endif

/// A file's permission bits (after swift-system's `FilePermissions`): `[.ownerReadWrite]` is 0600.
public struct FilePermissions: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: mode_t
    public init(rawValue: mode_t) { self.rawValue = rawValue }

    public static let ownerRead = FilePermissions(rawValue: 0o400)
    public static let ownerWrite = FilePermissions(rawValue: 0o200)
    public static let ownerExecute = FilePermissions(rawValue: 0o100)
    public static let ownerReadWrite: FilePermissions = [.ownerRead, .ownerWrite]
    public static let groupRead = FilePermissions(rawValue: 0o040)
    public static let groupWrite = FilePermissions(rawValue: 0o020)
    public static let groupExecute = FilePermissions(rawValue: 0o010)
    public static let groupReadWrite: FilePermissions = [.groupRead, .groupWrite]
    public static let otherRead = FilePermissions(rawValue: 0o004)
    public static let otherWrite = FilePermissions(rawValue: 0o002)
    public static let otherExecute = FilePermissions(rawValue: 0o001)
    public static let setGroupID = FilePermissions(rawValue: 0o2000)

    /// "0600": the octal form `chmod` takes.
    public var description: String {
        let octal = String(rawValue, radix: 8)
        return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    }
}
