import Platform

/// A restore's hold on the daemon's writes (`ControlRequest.pauseWrites`): which control client holds it,
/// and until when. It ends by itself after `limitMs`, so a client that holds it open and never resumes
/// cannot keep every later morning from starting. Times are real monotonic ms.
struct WritePause {
    let limitMs: Int64
    /// The control client that paused the writes, while it holds them.
    private(set) var holder: FileDescriptor?
    /// When the pause ends by itself.
    private(set) var untilRealMs: Int64?

    init(limitMs: Int64) { self.limitMs = limitMs }

    var isHeld: Bool { holder != nil }

    /// The pause's end by itself, while one is held.
    var nextDeadlineRealMs: Int64? { untilRealMs }

    /// What a request to pause got.
    enum Grant: Equatable {
        /// The pause is this client's from now, until `limitMs` from now at the latest.
        case granted
        /// This client already holds it: its end stays where it was (the limit cannot be renewed).
        case alreadyHeld
        /// Another client holds it.
        case heldByAnother
    }

    /// One holder at a time; the end is fixed when the pause begins, so asking again never extends it.
    mutating func pause(by client: FileDescriptor, nowRealMs: Int64) -> Grant {
        if let holder { return holder == client ? .alreadyHeld : .heldByAnother }
        holder = client
        untilRealMs = nowRealMs + limitMs
        return .granted
    }

    /// Ends the pause, asked by `client`: true if it held it (only the holder may end it early).
    mutating func resume(by client: FileDescriptor) -> Bool {
        guard holder == client else { return false }
        return resume()
    }

    /// Ends the pause (its limit reached, its holder gone): true if one was held.
    mutating func resume() -> Bool {
        guard holder != nil else { return false }
        holder = nil
        untilRealMs = nil
        return true
    }

    /// `client` went away: true if it held the pause, which then ends.
    mutating func clientLeft(_ client: FileDescriptor) -> Bool {
        guard holder == client else { return false }
        return resume()
    }

    /// True if a held pause has reached its limit at `nowRealMs` (the caller ends it and says so).
    func hasExpired(nowRealMs: Int64) -> Bool {
        guard holder != nil, let untilRealMs else { return false }
        return nowRealMs >= untilRealMs
    }

    /// True while the pause is held and within its limit.
    func isPaused(nowRealMs: Int64) -> Bool { isHeld && !hasExpired(nowRealMs: nowRealMs) }
}
