import HeartRateProtocol
import Platform

/// Finds the controller to connect from through the management interface without ever waiting for
/// the kernel: the exchange (Read Controller Index List, then Read Controller Information for each,
/// mgmt-api.txt) is packets the owner's event loop reads, so the loop never blocks on it (DESIGN §4).
/// Follows the event-loop contract: watch `descriptor`, call `onReadable`, honour `nextDeadlineMs`.
///
/// The choice is `Controller.select`'s: the one named, else the first powered one with LE on. It is
/// made again, still without waiting, whenever a controller comes, goes or changes its settings
/// (Index Added, Index Removed, New Settings), so a dongle plugged in or an adapter powered on later
/// is found without a restart.
///
/// With `powersOn`, a controller it would choose that is powered off (and not blocked by rfkill) is powered
/// on, with LE, once per controller it sees: on a box without bluetoothd nothing else powers the kernel's
/// controller, which stays off after boot. The owner learns of it from `takePoweredOn`.
public final class ControllerWatch {
    /// Where the choice stands.
    public enum State: Sendable {
        case resolving
        case chosen(Controller)
        case failed(BlueZError)
    }

    public let socket: ManagementSocket
    public private(set) var state: State = .resolving
    private let name: String?
    private let rfkillRoot: String
    private let timeoutMs: Int64
    private var deadlineMs: Int64?
    /// Indexes whose Read Controller Information has not been answered yet (nil: the list itself).
    private var awaiting: [ControllerIndex]?
    private var found: [Controller] = []
    private let powersOn: Bool
    /// Controllers this watch has powered on (or tried to): each once, until it goes away.
    private var poweredIndexes: Set<ControllerIndex> = []
    /// The controller being powered on, while its answer is awaited.
    private var powering: Controller?
    private var poweredNames: [String] = []

    /// Reads the kernel answers to commands at once; this bounds a kernel (or stand-in) that does not.
    public static let defaultTimeoutMs: Int64 = 5_000

    public init(
        socket: ManagementSocket, name: String?, rfkillRoot: String = Rfkill.defaultRoot,
        timeoutMs: Int64 = ControllerWatch.defaultTimeoutMs, powersOn: Bool = false
    ) {
        self.socket = socket
        self.name = name
        self.powersOn = powersOn
        self.rfkillRoot = rfkillRoot
        self.timeoutMs = timeoutMs
    }

    public var descriptor: FileDescriptor { socket.descriptor }
    public var nextDeadlineMs: Int64? { deadlineMs }

    /// Starts (again) asking the kernel; the answer comes through `onReadable`. Returns the state
    /// when it is decided at once (the command could not be sent).
    @discardableResult
    public func resolve(nowMs: Int64) -> State {
        state = .resolving
        awaiting = nil
        powering = nil
        found = []
        deadlineMs = nowMs + timeoutMs
        send(.readControllerIndexList, to: .none)
        return state
    }

    /// Reads what the kernel sent. Returns the new state when the choice was just made or failed.
    public func onReadable(nowMs: Int64) -> State? {
        var decided: State?
        while true {
            let packet: MgmtEventPacket?
            do { packet = try socket.nextEvent() } catch {
                return finish(.failed(error))
            }
            guard let packet else { break }
            if let outcome = handle(packet, nowMs: nowMs) { decided = outcome }
        }
        return decided
    }

    /// The names of the controllers this watch powered on since last asked ("hci0").
    public func takePoweredOn() -> [String] {
        defer { poweredNames = [] }
        return poweredNames
    }

    /// The kernel did not answer in time.
    public func onDeadline(nowMs: Int64) -> State? {
        guard let deadlineMs, nowMs >= deadlineMs, case .resolving = state else { return nil }
        let command =
            powering != nil ? MgmtOpcode.setPowered : awaiting == nil ? .readControllerIndexList : .readControllerInfo
        return finish(.failed(.managementTimeout(command: command.description)))
    }

    private func handle(_ packet: MgmtEventPacket, nowMs: Int64) -> State? {
        switch packet.event {
        case .indexRemoved:
            // A controller that comes back (a reset, a dongle plugged in again) starts powered off again.
            poweredIndexes.remove(packet.index)
            resolve(nowMs: nowMs)
            return nil
        case .commandComplete(.setPowered, let status, _), .commandStatus(.setPowered, let status):
            guard let controller = powering, packet.index == controller.index, !status.isSuccess else { return nil }
            // Refused (blocked, or no CAP_NET_ADMIN): the person reads why it is off.
            return finish(.failed(ManagementSocket.failure(.setPowered, index: packet.index, status: status)))
        case .commandComplete(.setLowEnergy, let status, _), .commandStatus(.setLowEnergy, let status):
            guard let controller = powering, packet.index == controller.index, !status.isSuccess else { return nil }
            return finish(.failed(ManagementSocket.failure(.setLowEnergy, index: packet.index, status: status)))
        case .newSettings(let settings) where powering != nil:
            // Powering on answers in steps (LE on, then powered): choose again once it is whole.
            if packet.index == powering?.index && settings.contains(.powered) && settings.contains(.lowEnergy) {
                resolve(nowMs: nowMs)
            }
            return nil
        case .indexAdded, .newSettings:
            // A controller came, went or changed (powered, LE): choose again, from the start.
            resolve(nowMs: nowMs)
            return nil
        default:
            break
        }
        guard case .resolving = state, powering == nil else { return nil }
        return collect(packet)
    }

    /// An answer to the controller list, or to one listed controller's information, while choosing.
    // Its own function, binding `awaiting` once: Debian's Swift 6.0.3 (built with assertions) aborts in
    // DestroyAddrHoisting on a release build when this loop edits `awaiting` inside the switch's function.
    private func collect(_ packet: MgmtEventPacket) -> State? {
        do {
            guard let pending = awaiting else {
                guard let reply = try ManagementSocket.reply(to: .readControllerIndexList, index: .none, in: packet)
                else { return nil }
                guard case .controllerIndexList(let indexes) = reply else { return decide() }
                awaiting = indexes
                for index in indexes { send(.readControllerInfo, to: index) }
                return indexes.isEmpty ? decide() : nil
            }
            for index in pending {
                guard let reply = try ManagementSocket.reply(to: .readControllerInfo, index: index, in: packet) else {
                    continue
                }
                if case .controllerInfo(let info) = reply { found.append(Controller(index: index, info: info)) }
                awaiting = pending.filter { $0 != index }
                break
            }
            return awaiting?.isEmpty == true ? decide() : nil
        } catch {
            return finish(.failed(error))
        }
    }

    private func send(_ command: MgmtCommand, to index: ControllerIndex) {
        do { try socket.send(command, to: index) } catch { _ = finish(.failed(error)) }
    }

    /// The choice once every answer is in; nil while a controller is being powered on for it.
    private func decide() -> State? {
        let outcome = choose()
        if case .resolving = outcome { return nil }
        return finish(outcome)
    }

    private func choose() -> State {
        let sorted = found.sorted { $0.index < $1.index }
        do {
            return .chosen(try Controller.choose(name, from: sorted, rfkill: Rfkill.switches(root: rfkillRoot)))
        } catch {
            if powersOn, let off = Self.offController(error, name: name, in: sorted),
                !poweredIndexes.contains(off.index)
            {
                powerOn(off)
                return .resolving
            }
            return .failed(error)
        }
    }

    /// The controller `Controller.choose` refused for being powered off or having LE off (never one blocked
    /// by rfkill: the refusal then names the block, which software must not undo).
    static func offController(_ error: BlueZError, name: String?, in controllers: [Controller]) -> Controller? {
        switch error {
        case .adapterPoweredOff(let refused), .lowEnergyDisabled(let refused):
            return controllers.first { $0.name == refused && $0.supportsLowEnergy }
        default:
            return nil
        }
    }

    /// Sends LE on (if off) and Set Powered; the kernel's New Settings then starts the choice again.
    private func powerOn(_ controller: Controller) {
        poweredIndexes.insert(controller.index)
        powering = controller
        poweredNames.append(controller.name)
        if !controller.lowEnergyEnabled { send(.setLowEnergy(true), to: controller.index) }
        if !controller.isPowered { send(.setPowered(true), to: controller.index) }
    }

    private func finish(_ outcome: State) -> State {
        state = outcome
        powering = nil
        deadlineMs = nil
        awaiting = nil
        return outcome
    }
}
