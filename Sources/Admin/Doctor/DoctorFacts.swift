import Panel

/// What `recoverydeck doctor` found on the box, gathered once (`SystemFacts`) and then judged by pure
/// checks (`Doctor`), so each check's failure path is testable with made-up facts.
public struct DoctorFacts: Sendable {
    public struct Adapter: Sendable, Equatable {
        public var name: String
        /// HCI_UP, from HCIGETDEVINFO; nil when it could not be asked.
        public var isUp: Bool?
        /// "AA:BB:CC:DD:EE:FF", from HCIGETDEVINFO; nil when it could not be asked.
        public var address: String?
        public init(name: String, isUp: Bool?, address: String? = nil) {
            self.name = name
            self.isUp = isUp
            self.address = address
        }
    }

    public struct RadioSwitch: Sendable, Equatable {
        public var name: String
        public var softBlocked: Bool
        public var hardBlocked: Bool
        public init(name: String, softBlocked: Bool, hardBlocked: Bool) {
            self.name = name
            self.softBlocked = softBlocked
            self.hardBlocked = hardBlocked
        }
    }

    public struct GPIOLine: Sendable, Equatable {
        public var role: String
        public var offset: Int
        /// The consumer holding the line, nil when free.
        public var consumer: String?
        /// The consumer name the daemon's panel gives this line when it holds it ("go-button", "red", …).
        public var panelConsumer: String?
        public init(role: String, offset: Int, consumer: String?, panelConsumer: String? = nil) {
            self.role = role
            self.offset = offset
            self.consumer = consumer
            self.panelConsumer = panelConsumer
        }
    }

    public struct GPIOChip: Sendable, Equatable {
        public var path: String
        public var label: String
        public var lineCount: Int
        public init(path: String, label: String, lineCount: Int) {
            self.path = path
            self.label = label
            self.lineCount = lineCount
        }
    }

    /// A group a database is shared with.
    public struct SharedGroup: Sendable, Equatable {
        public var gid: UInt32
        public var name: String
        public init(gid: UInt32, name: String) {
            self.gid = gid
            self.name = name
        }
    }

    public struct DatabaseFile: Sendable, Equatable {
        public var path: String
        public var exists: Bool
        public var mode: UInt32
        public var ownerUID: UInt32
        /// The uid that should own it: the recoverydeck user for the system database, else the caller.
        public var expectedOwnerUID: UInt32?
        public var expectedOwnerName: String
        /// "ok", or what PRAGMA integrity_check said, or why it could not run.
        public var integrity: String?
        /// The group the database is shared with, when its folder is shared (set-group-ID, group rwx, as the
        /// package installs /var/lib/recoverydeck: docs/design.md §8); nil for a private database.
        public var sharedGroup: SharedGroup?
        /// The database file's group.
        public var groupID: UInt32 = 0
        public init(
            path: String, exists: Bool, mode: UInt32, ownerUID: UInt32, expectedOwnerUID: UInt32?,
            expectedOwnerName: String, integrity: String?, sharedGroup: SharedGroup? = nil,
            groupID: UInt32 = 0
        ) {
            self.sharedGroup = sharedGroup
            self.groupID = groupID
            self.path = path
            self.exists = exists
            self.mode = mode
            self.ownerUID = ownerUID
            self.expectedOwnerUID = expectedOwnerUID
            self.expectedOwnerName = expectedOwnerName
            self.integrity = integrity
        }
    }

    public enum Daemon: Sendable, Equatable {
        case notRunning
        case running(pid: Int32, hasNetAdmin: Bool)
        /// Running, but its capabilities could not be read (run doctor with sudo).
        case runningUnreadable(pid: Int32)
    }

    public var bluetoothInKernel = true
    public var adapters: [Adapter] = []
    /// The configured adapter, `hciN` or its address; nil: the first powered one (the daemon's rule).
    public var wantedAdapter: String?
    /// Why recoverydeckd would refuse its configuration file (`DaemonConfiguration.parse`'s sentence, with the
    /// line); nil when the file reads or is absent.
    public var configurationProblem: String?
    public var radioSwitches: [RadioSwitch] = []
    public var daemon: Daemon = .notRunning
    public var callerHasNetAdmin = false
    public var kernelRelease = ""
    public var kernelVersion: KernelVersion?
    public var strapAddress: String?
    /// Local day of the last box measurement with the paired strap, ISO, and days since.
    public var strapLastSeen: String?
    public var strapDaysSinceSeen: Int?
    /// Why the pairing could not be read from the database (unreadable, damaged), nil when it was read.
    public var strapUnknownReason: String?
    /// Rows of the database the store could not decode and left out, one sentence each.
    public var skippedRows: [String] = []
    /// bluetoothd keeps a record of the paired strap (/var/lib/bluetooth/ADAPTER/ADDRESS/info): it then
    /// reconnects to the strap by itself and holds its one connection.
    public var strapKnownToBluetoothd = false
    /// Whether the kernel holds connection parameters for the paired strap wide enough for its request.
    public enum StrapParameters: Sendable, Equatable {
        /// Not looked at (no strap paired, no Bluetooth).
        case unknown
        /// In place, with their description.
        case inPlace(String)
        /// Could not be put in place, and why.
        case notInPlace(String)
    }
    public var strapParameters = StrapParameters.unknown
    public var gpioChips: [GPIOChip] = []
    /// GPIO chips that exist but could not be opened, path and reason ("Permission denied"): their
    /// labels are unknown, which is not the same as no chip.
    public var gpioChipsUnopened: [(path: String, reason: String)] = []
    /// Every unopened chip refused this caller for its permissions, and the caller is not root: a member of the
    /// box's group outside the chips' group. The box's own user is in that group; this says nothing of the box.
    public var gpioChipsDeniedToCaller = false
    public var gpioChipLabels = PinMap.standard.chipLabels
    public var gpioLines: [GPIOLine] = []
    /// Why line information could not be read (permissions), nil when read or when no chip was found.
    public var gpioLineError: String?
    public var database: DatabaseFile?
    /// The zone name from TZ or /etc/localtime ("Europe/Stockholm"), nil when none is set.
    public var timeZone: String?
    public var clockSynchronized: Bool?
    public var freeBytes: UInt64?
    public var freeBytesPath = "/var/lib/recoverydeck"

    public init() {}
}
