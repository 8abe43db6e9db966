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

    /// Reads the kernel answers to commands at once; this bounds a kernel (or stand-in) that does not.
    public static let defaultTimeoutMs: Int64 = 5_000

    public init(
        socket: ManagementSocket, name: String?, rfkillRoot: String = Rfkill.defaultRoot,
        timeoutMs: Int64 = ControllerWatch.defaultTimeoutMs
    ) {
        self.socket = socket
        self.name = name
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

    /// The kernel did not answer in time.
    public func onDeadline(nowMs: Int64) -> State? {
        guard let deadlineMs, nowMs >= deadlineMs, case .resolving = state else { return nil }
        let command = awaiting == nil ? MgmtOpcode.readControllerIndexList : .readControllerInfo
        return finish(.failed(.managementTimeout(command: command.description)))
    }

    private func handle(_ packet: MgmtEventPacket, nowMs: Int64) -> State? {
        switch packet.event {
        case .indexAdded, .indexRemoved, .newSettings:
            // A controller came, went or changed (powered, LE): choose again, from the start.
            resolve(nowMs: nowMs)
            return nil
        default:
            break
        }
        guard case .resolving = state else { return nil }
        do {
            if awaiting == nil {
                guard let reply = try ManagementSocket.reply(to: .readControllerIndexList, index: .none, in: packet)
                else { return nil }
                guard case .controllerIndexList(let indexes) = reply else { return finish(choose()) }
                awaiting = indexes
                for index in indexes { send(.readControllerInfo, to: index) }
                return awaiting?.isEmpty == true ? finish(choose()) : nil
            }
            for index in awaiting ?? [] {
                guard let reply = try ManagementSocket.reply(to: .readControllerInfo, index: index, in: packet) else {
                    continue
                }
                if case .controllerInfo(let info) = reply { found.append(Controller(index: index, info: info)) }
                awaiting?.removeAll { $0 == index }
                break
            }
            return awaiting?.isEmpty == true ? finish(choose()) : nil
        } catch {
            return finish(.failed(error))
        }
    }

    private func send(_ command: MgmtCommand, to index: ControllerIndex) {
        do { try socket.send(command, to: index) } catch { _ = finish(.failed(error)) }
    }

    private func choose() -> State {
        do {
            let sorted = found.sorted { $0.index < $1.index }
            return .chosen(try Controller.choose(name, from: sorted, rfkill: Rfkill.switches(root: rfkillRoot)))
        } catch {
            return .failed(error)
        }
    }

    private func finish(_ outcome: State) -> State {
        state = outcome
        deadlineMs = nil
        awaiting = nil
        return outcome
    }
}
