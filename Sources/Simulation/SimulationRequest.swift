import ControlProtocol
import JSON

/// The requests a simulated box answers on its control socket besides the protocol's own
/// (`ControlRequest`): presses on its panel, moves of its clock, and the in-process demo's stop. The box's
/// `recoverydeckd` has none of them; they arrive as `Daemon.ExtraRequests`.
public enum SimulationRequest: Hashable, Sendable {
    /// Presses (`go`, `go-long`, or a key label), each `afterMs` from now in session time; one request for a
    /// whole sequence, so they all count from the same instant.
    case press([Press])
    /// Move the stepped clock forward (between sessions).
    case advance(seconds: Int64)
    /// End the daemon's loop (the demo's daemon runs in the demo's process, where no signal reaches it).
    case stop

    /// The names the daemon leaves to the simulation.
    public static let names: Set<String> = ["press", "advance", "stop"]

    /// The longest a simulated press may wait (a day): far beyond any script, and small enough that adding
    /// it to any clock reading cannot overflow.
    public static let maximumPressDelayMs: Int64 = 86_400_000
    /// The furthest the clock may jump in one request (400 days), for the same reason.
    public static let maximumAdvanceSeconds: Int64 = 400 * 86_400

    public var json: JSONValue {
        let body: [(String, JSONValue)]
        switch self {
        case .press(let presses):
            body = [
                ("request", .string("press")),
                (
                    "presses",
                    .array(
                        presses.map { .object([("button", .string($0.button)), ("after_ms", .integer($0.afterMs))]) })
                ),
            ]
        case .advance(let s): body = [("request", .string("advance")), ("seconds", .integer(s))]
        case .stop: body = [("request", .string("stop"))]
        }
        return .object(body + [("version", .integer(ControlRequest.protocolVersion))])
    }

    /// Reads a request named in `names`; a refusal with one sentence for anything wrong in it.
    public static func parse(_ json: JSONValue) -> Result<SimulationRequest, ControlRefusal> {
        switch json["request"]?.stringValue {
        case "press":
            // Either one press ("button", "after_ms") or a sequence ("presses": [{"button", "after_ms"}, …]).
            let items = json["presses"]?.arrayValue ?? [json]
            var presses: [Press] = []
            for item in items {
                guard let button = item["button"]?.stringValue else {
                    return .failure(ControlRefusal(code: .badRequest, message: "press needs a \"button\"."))
                }
                let after = item["after_ms"]?.int64Value ?? 0
                guard after >= 0 else {
                    return .failure(ControlRefusal(code: .badRequest, message: "after_ms cannot be negative."))
                }
                guard after <= maximumPressDelayMs else {
                    return .failure(
                        ControlRefusal(
                            code: .badRequest, message: "after_ms can be at most \(maximumPressDelayMs) (a day)."))
                }
                presses.append(Press(button, afterMs: after))
            }
            guard !presses.isEmpty else {
                return .failure(ControlRefusal(code: .badRequest, message: "press needs at least one button."))
            }
            return .success(.press(presses))
        case "advance":
            guard let s = json["seconds"]?.int64Value, s > 0 else {
                return .failure(ControlRefusal(code: .badRequest, message: "advance needs positive \"seconds\"."))
            }
            guard s <= maximumAdvanceSeconds else {
                return .failure(
                    ControlRefusal(
                        code: .badRequest,
                        message: "advance can move the clock at most \(maximumAdvanceSeconds) seconds (400 days) at once."))
            }
            return .success(.advance(seconds: s))
        case "stop":
            return .success(.stop)
        default:
            return .failure(ControlRefusal(code: .unknownRequest, message: "Unknown request."))
        }
    }
}

/// One press of the simulated panel's GO button or a key, some time from now.
public struct Press: Hashable, Sendable {
    public var button: String
    public var afterMs: Int64

    public init(_ button: String, afterMs: Int64 = 0) {
        self.button = button
        self.afterMs = afterMs
    }
}
