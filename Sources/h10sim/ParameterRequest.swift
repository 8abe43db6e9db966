/// When the virtual strap asks for new connection parameters and what it does with the answer, as
/// Polar straps do (DESIGN §5): the first request at the scheduled time, each refusal (or no answer
/// in 5 s) followed by another 10 s later, and after the third refusal the link dropped with 0x3B
/// (btmon traces of an H7 in IanHarvey/bluepy#53: refused requests, then 0x3B). No clock inside:
/// "now" comes with every call.
struct ParameterRequest {
    enum Step: Equatable {
        case request(attempt: Int)
        case accepted
        case rejected(attempt: Int)
        case giveUp
    }

    static let attempts = 3
    static let retryAfterMs: Int64 = 10_000
    static let answerWithinMs: Int64 = 5_000

    private var dueAtMs: Int64?
    private var answerDueAtMs: Int64?
    private var attempt = 0
    private(set) var finished = false

    mutating func schedule(atMs: Int64) {
        guard !finished, attempt == 0 else { return }
        dueAtMs = atMs
    }

    var nextDeadlineMs: Int64? { finished ? nil : answerDueAtMs ?? dueAtMs }

    mutating func deadline(nowMs: Int64) -> Step? {
        if let due = answerDueAtMs, nowMs >= due { return answered(accepted: false, nowMs: nowMs) }
        guard let due = dueAtMs, nowMs >= due, !finished else { return nil }
        dueAtMs = nil
        attempt += 1
        answerDueAtMs = nowMs + Self.answerWithinMs
        return .request(attempt: attempt)
    }

    /// The central's answer to the outstanding request; nil when none is outstanding.
    mutating func answered(accepted: Bool, nowMs: Int64) -> Step? {
        guard answerDueAtMs != nil, !finished else { return nil }
        answerDueAtMs = nil
        if accepted {
            finished = true
            return .accepted
        }
        if attempt >= Self.attempts {
            finished = true
            return .giveUp
        }
        dueAtMs = nowMs + Self.retryAfterMs
        return .rejected(attempt: attempt)
    }
}
