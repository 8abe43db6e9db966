import Admin
import BlueZ
import HeartRateProtocol
import Platform
import RecoveryCore
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck doctor`: one line per readiness check, each failure with its fix; exit 0 when the
/// box is ready for a morning, 1 when it is not.
struct DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "Check that the box is ready for a morning, each problem with its fix."
    static let discussion = """
        Checks, in order: the Bluetooth adapter (present, powered), rfkill, Bluetooth management access
        (CAP_NET_ADMIN, held by the recoverydeckd service), the kernel (some 2024 kernels reject the
        strap's connection-parameter update and lose it mid-morning), the paired strap, when it was
        last seen and that bluetoothd has no record of it, the GPIO chip (found by its label) and its
        lines, the database (integrity, mode 600, owner), the time zone, clock synchronisation and
        free disk.

        Exit status 0 means ready (warnings allowed), 1 means at least one check failed. Run it with
        sudo on the box: some checks read what only root may read.
        """
    static let options: [OptionSpec] = [.flag("json", help: "Print the checks as JSON.")]

    var json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let path = try context.databasePath()
        let gatherer = SystemFacts(environment: context.environment)
        var facts = gatherer.gather(databasePath: path, systemDatabasePath: context.systemDatabasePath)
        // The database is opened only when it exists (doctor creates nothing), and a database that
        // cannot be read leaves the strap unknown: its own check line says what is wrong with it.
        if access(path, F_OK) == 0 {
            do {
                try readStrap(into: &facts, path: path, context: context)
            } catch {
                facts.strapAddress = nil
                facts.strapUnknownReason = Self.reason(error)
            }
        }
        if let address = facts.strapAddress { facts.strapKnownToBluetoothd = gatherer.bluetoothdKnows(address) }
        if facts.strapAddress != nil, facts.bluetoothInKernel, !facts.adapters.isEmpty {
            facts.strapParameters = strapParameters(context: context)
        }
        var checks = Doctor.checks(facts)
        if let check = Doctor.configuration(facts) { checks.append(check) }
        if let check = Doctor.rows(facts) { checks.append(check) }
        if let spool = MorningSpool.existing(forDatabase: path) {
            let (entries, unreadable) = spool.entries()
            let waiting = entries.map { "\($0.date.iso) \($0.kind)" }
            if let check = Doctor.spool(waiting: waiting, unreadable: unreadable, directory: spool.directory) {
                checks.append(check)
            }
        }
        if json {
            let items = checks.map { c in
                "{\"check\":\(JSONLine.string(c.name)),\"verdict\":\"\(c.verdict.rawValue)\","
                    + "\"detail\":\(JSONLine.string(c.detail))"
                    + (c.fix.map { ",\"fix\":\(JSONLine.string($0))" } ?? "") + "}"
            }
            context.out("{\"ready\":\(Doctor.isReady(checks)),\"checks\":[\(items.joined(separator: ","))]}")
        } else {
            for check in checks { context.out(check.line) }
        }
        guard Doctor.isReady(checks) else {
            let failed = checks.filter { $0.verdict == .fail }.map(\.name).joined(separator: ", ")
            throw CommandError.failure("the box is not ready (\(failed)).")
        }
        context.say("The box is ready.")
    }

    /// Puts the paired strap's connection parameters in place the way the daemon does before it
    /// connects (the kernel has no command to read them back; loading is idempotent), and says whether
    /// that worked.
    private func strapParameters(context: Context) -> DoctorFacts.StrapParameters {
        guard let settings = try? context.store().settings(), let text = settings.strapAddress,
            let address = BluetoothAddress(text)
        else { return .unknown }
        guard let parameters = context.strapParameters else {
            return .notInPlace("this program loads none")
        }
        let type =
            StrapAddressOption.type(settingValue: settings.strapAddressType)
            ?? address.guessedType
        let adapter = SystemFacts(environment: context.environment).configuredAdapter()
        do {
            let socket = try ManagementSocket()
            // The configured adapter is hciN or its address (recoverydeck.conf(5)).
            let controller: Controller
            if let wanted = adapter.flatMap(BluetoothAddress.init) {
                guard let found = try Controller.all(socket).first(where: { $0.address == wanted }) else {
                    return .notInPlace("no controller has the configured address \(wanted)")
                }
                controller = found
            } else {
                controller = try Controller.select(adapter, socket: socket)
            }
            try socket.loadConnectionParameters(
                [DeviceConnectionParameters(address: address, addressType: type, parameters: parameters)],
                controller: controller.index)
            return .inPlace("\(parameters) for \(address) on \(controller.name)")
        } catch {
            return .notInPlace(error.description)
        }
    }

    /// The paired strap, and the last morning the box measured with it.
    private func readStrap(into facts: inout DoctorFacts, path: String, context: Context) throws {
        guard access(path, R_OK | W_OK) == 0 else {
            throw CommandError.failure("this user may not read and write \(path)")
        }
        let store = try context.store()
        // Decoding every row finds a damaged one (left out, its sentence kept in skippedRows).
        _ = try store.experiments()
        _ = try store.allDays()
        _ = try store.events()
        // A stored setting that does not read is named there too (`Settings`).
        let settings = try store.settings()
        defer { facts.skippedRows = store.skippedRows }
        facts.strapAddress = settings.strapAddress
        if let address = facts.strapAddress,
            let last = try store.allDays().last(where: { $0.measurement?.strapAddress == address && !$0.imported })
        {
            facts.strapLastSeen = last.date.iso
            facts.strapDaysSinceSeen = context.today.dayNumber - last.date.dayNumber
        }
    }

    /// An error as the words after "could not be read: ", without a closing full stop.
    private static func reason(_ error: any Error) -> String {
        var text = (error as? CommandError)?.message ?? "\(error)"
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
