import Appliance
import BoxConfiguration
import ControlProtocol
import JSON
import LocalClock
import Panel
import Platform
import RecoveryCore

/// The box's own daemon on a simulated box (`recoverydeck demo`, `recoverydeckd-sim`, the tests): it hands
/// the daemon the simulation's clock, the virtual strap and the simulated panel with its script, and answers
/// the requests only a simulated box has (`SimulationRequest`: presses, clock moves, stop). The daemon itself
/// asks nothing about it.
public final class SimulatedBox {
    public let simulation: Simulation
    /// The clock the daemon is given.
    public let clock: any DaemonClock
    /// The daemon made with `options`, once `attach` is called.
    public private(set) weak var daemon: Daemon?
    /// The simulated panel the daemon opened (`panel = simulated`): its hands press for `press` requests and the
    /// panel script, and it records each lamp and buzzer change. Nil on the GPIO panel.
    public private(set) var panel: SimulatedPanel?
    private let logger: Logger

    /// `clock`: a test's own instead of the one the simulation names.
    public init(simulation: Simulation, clock given: (any DaemonClock)? = nil, logger: Logger = Logger()) {
        self.simulation = simulation
        self.logger = logger
        if let given {
            clock = given
            return
        }
        // The clock guard hears the simulation's unset clock; without one a stepped clock is trusted, a scaled
        // one asks the kernel.
        let facts = simulation.unsynchronisedBoot.map { SystemClock.GuardFacts(synchronised: false, bootEpochSeconds: $0) }
        switch simulation.clock {
        case .simulated:
            let start = simulation.clockStart ?? (LocalTime.now().date, LocalTime.now().minuteOfDay)
            clock = SteppedClock(
                speed: simulation.speed, startEpoch: LocalTime.epochSeconds(of: start.date, at: start.minute),
                guardFacts: facts)
        case .system:
            clock = ScaledClock(speed: simulation.speed, guardFacts: facts)
        }
    }

    /// The daemon's options on this box: its clock, the simulated panel and the virtual strap where the
    /// configuration names them, and the simulation's requests.
    public func prepare(_ options: inout Daemon.Options, for configuration: DaemonConfiguration) {
        options.clock = clock
        if configuration.panel == .simulated && options.openPanel == nil {
            // It records every lamp and buzzer change, keeping the latest few thousand: a daemon that runs it for
            // months (the soak test's year of mornings) stays the same size.
            options.openPanel = { [unowned self] (pins) throws(PanelError) in
                let panel = try SimulatedPanel(pins: pins)
                self.panel = panel
                return panel
            }
        }
        if configuration.strap == .simulated && options.strap == nil {
            var strap = VirtualStrap.Options()
            strap.seed = simulation.simulatedSeed
            strap.firstDate = simulation.simulatedFirstDate
            strap.heartRateOnly = simulation.simulatedHROnly
            strap.artifactProbability = simulation.simulatedArtifacts
            strap.connectMs = Int64(simulation.simulatedConnectSeconds * 1000)
            if let dropout = simulation.simulatedDropout {
                strap.dropoutAtMs = Int64(dropout.atSeconds * 1000)
                strap.dropoutForMs = Int64(dropout.forSeconds * 1000)
            }
            let clock = self.clock
            options.strap = VirtualStrap(options: strap, today: { clock.localTime().date })
        }
        options.extraRequests = Daemon.ExtraRequests(names: SimulationRequest.names) { [unowned self] in answer($0) }
    }

    /// The daemon made with `prepare`'s options: its panel script is scheduled from now.
    public func attach(_ daemon: Daemon) throws(DaemonConfiguration.ValueError) {
        self.daemon = daemon
        if let script = try simulation.loadPanelScript() {
            panel?.schedule(script, startMs: clock.monotonicMs())
        }
        if daemon.configuration.strap == .bluetooth && clock.speed != 1 {
            logger.warning(
                "speed \(clock.speed) with a Bluetooth strap: right only for a strap simulator running as "
                    + "fast; a real strap's heart does not speed up")
        }
    }

    /// The reply to a request named in `SimulationRequest.names`.
    func answer(_ json: JSONValue) -> JSONValue {
        guard let daemon else { return ControlRefusal(code: .busy, message: "The simulated box is not running.").json }
        let request: SimulationRequest
        switch SimulationRequest.parse(json) {
        case .success(let parsed): request = parsed
        case .failure(let refusal): return refusal.json
        }
        let now = clock.monotonicMs()
        switch request {
        case .press(let presses):
            guard let panel else {
                return SimulationRefusal(code: .notSimulated, message: "Presses can be sent to a simulated panel only.")
                    .json
            }
            guard panel.schedule(presses, startMs: now) else {
                return SimulationRefusal(code: .badButton, message: "Press go, go-long, or a key 0-9, * or #.").json
            }
            return PressesScheduled(sessionMs: now).json
        case .advance(let seconds):
            guard let stepped = clock as? SteppedClock else {
                return SimulationRefusal(code: .notSimulated, message: "Only a simulated clock can be moved.").json
            }
            guard !daemon.routine.session.isMeasuring else {
                return ControlRefusal(code: .busy, message: "The clock cannot jump during a session.").json
            }
            stepped.advance(ms: seconds * 1000)
            daemon.catchUp()
            return ControlReply.ok([("clock", .string(daemon.clockText))])
        case .stop:
            daemon.requestStop()
            return Acknowledged().json
        }
    }
}
