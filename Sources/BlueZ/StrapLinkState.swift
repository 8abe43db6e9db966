import HeartRateProtocol
import Platform

/// Where the link to the strap stands, as the status light and the CLI show it.
public enum StrapLinkState: Hashable, Sendable {
    /// Not started, or stopped.
    case idle
    /// An L2CAP connection attempt is under way (1 = the first since the link was last live).
    case connecting(attempt: Int)
    /// Connected; finding the Heart Rate service and enabling notifications.
    case discovering
    /// Notifications enabled; no measurement yet.
    case live
    /// Measurements carry RR intervals: rMSSD can be measured ("RR OK", spec §4.2).
    case rrOK
    /// Measurements carry heart rate only: degraded mode (spec §4.1): the morning keeps its mean HR and
    /// the orthostatic numbers from BPM samples; rMSSD, SDNN and mean RR stay null.
    case heartRateOnly
    /// The link went down; a reconnection follows.
    case lost(LinkLoss)
    /// Waiting until `retryAtMs` (monotonic) before the next connection attempt.
    case reconnecting(retryAtMs: Int64)
    /// Given up: retrying cannot help (the device is not a heart-rate strap).
    case failed(BlueZError)

    /// The spec's sentence for an HR-only strap (RecoveryDeck spec §4.1, exact text).
    public static let heartRateOnlyMessage =
        "RR intervals not available — ensure H10 is snug, charged, and not connected exclusively elsewhere; "
        + "prefer H10 in heart rate mode."

    /// A short stable name (JSON, logs).
    public var name: String {
        switch self {
        case .idle: "idle"
        case .connecting: "connecting"
        case .discovering: "discovering"
        case .live: "live"
        case .rrOK: "rrOK"
        case .heartRateOnly: "heartRateOnly"
        case .lost: "lost"
        case .reconnecting: "reconnecting"
        case .failed: "failed"
        }
    }

    /// What to tell the person in this state, if anything.
    public var message: String? {
        switch self {
        case .heartRateOnly: Self.heartRateOnlyMessage
        case .lost(let loss): loss.description
        case .failed(let error): error.description
        default: nil
        }
    }

    /// Notifications are flowing (live, RR OK or HR-only).
    public var isLive: Bool {
        switch self {
        case .live, .rrOK, .heartRateOnly: true
        default: false
        }
    }
}

/// Why a live or connecting link went down.
public enum LinkLoss: Hashable, Sendable, CustomStringConvertible {
    /// The strap (or its controller) closed the link: read returned 0 or `ECONNRESET`.
    case closedByStrap
    /// The link supervision timeout expired (`ETIMEDOUT`): out of range, body blocking, or the
    /// strap switched off after losing skin contact.
    case supervisionTimeout
    /// The strap did not answer an ATT request within 30 s (Vol 3 Part F §3.3.3): the bearer is
    /// closed, as the specification requires.
    case transactionTimeout
    /// The strap answered in a way the GATT client cannot go on from; a fresh connection may.
    case protocolError(GATTClientFailure)
    /// Any other socket error.
    case socketError(Errno)

    public var description: String {
        switch self {
        case .closedByStrap: "The strap closed the connection."
        case .supervisionTimeout:
            "The strap stopped answering (out of range, blocked by the body, or switched off off-body)."
        case .transactionTimeout: "The strap did not answer a request within 30 s."
        case .protocolError(let failure): "The Bluetooth link was reset: \(failure)."
        case .socketError(let errno): "The Bluetooth link failed (\(errno))."
        }
    }

    static func from(_ errno: Errno) -> LinkLoss {
        switch errno {
        case .connectionReset, .notConnected: .closedByStrap
        case .timedOut: .supervisionTimeout
        default: .socketError(errno)
        }
    }
}
