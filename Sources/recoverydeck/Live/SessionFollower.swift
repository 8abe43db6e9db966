import ControlProtocol
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// Follows a session over the control socket and draws it: one line redrawn in place on a terminal, a
/// line per change otherwise, or the raw snapshots as JSON lines. Ends when the session ends.
struct SessionFollower {
    enum Ending: Equatable {
        /// The morning was saved and the readout shown.
        case saved
        /// The session ended without saving (fault, cancel, no retry).
        case ended(String?)
        /// Nothing was running and `untilDone` was not asked for.
        case idle
    }

    let context: Context
    let json: Bool

    /// Watches `client` (already sent `watch`, whose reply was `first`) until the session ends.
    func follow(_ client: ControlClient, first: SessionStatus, untilDone: Bool) throws -> Ending {
        let terminal = isatty(1) == 1 && !json
        var seenActive = false
        var lastLine = ""
        var lastPhase = ""
        var lastFault: String?
        var event = ControlEvent.snapshot(first.snapshot)
        while true {
            if json {
                switch event {
                case .snapshot, .say: context.out(event.json.serialized())
                case .sound, .input, .saved: break
                }
            }
            if case .say(_, let text) = event, !json {
                if terminal && !lastLine.isEmpty { context.clearLine() }
                context.out("» \(text)")
                if terminal && !lastLine.isEmpty { context.outRaw(lastLine) }
            } else if case .snapshot(let state) = event {
                let phase = state.phase
                if let fault = state.fault { lastFault = fault }
                if !json {
                    let line = SessionView.line(state) + "  (" + SessionView.lamps(state) + ")"
                    if terminal {
                        context.clearLine()
                        context.outRaw(line)
                    } else if phase != lastPhase {
                        context.out(line)
                    }
                    lastLine = line
                }
                if phase != "idle" { seenActive = true }
                if phase == "readout" && !json && terminal { context.out("") }
                if phase == "readout" { return .saved }
                if seenActive && (phase == "idle" || phase == "showingFault") {
                    if terminal { context.out("") }
                    return .ended(lastFault)
                }
                if !seenActive && phase == "idle" && !untilDone {
                    if terminal { context.out("") }
                    return .idle
                }
                lastPhase = phase
            }
            let next: ControlEvent?
            do { next = try client.nextEvent(timeoutMs: 600_000) } catch { throw CommandError.failure(error.description) }
            guard let next else { throw CommandError.failure("recoverydeckd sent nothing for 10 minutes.") }
            event = next
        }
    }

    /// `--socket PATH`, as `measure`, `watch` and `cancel` take it.
    static let socketOption = OptionSpec.value(
        "socket", "PATH",
        help: "The daemon's control socket (default $RECOVERYDECK_SOCKET, else /run/recoverydeck/control.sock).")

    /// The control socket to use: `--socket`, else `RECOVERYDECK_SOCKET`, else the daemon's default. An empty
    /// variable counts as unset, as `RECOVERYDECK_DB` does (a shell's `VAR= cmd` is no path).
    static func socketPath(_ option: String?, _ context: Context) -> String {
        if let option { return option }
        if let fromEnvironment = context.environment("RECOVERYDECK_SOCKET"), !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return ControlClient.defaultPath
    }

    static func connect(_ path: String) throws(CommandError) -> ControlClient {
        do { return try ControlClient(path: path) } catch { throw .failure(error.description) }
    }

    /// Sends `request` and reads its answer; a refusal, no answer or a reply out of shape is one sentence.
    static func send<Answer: ControlAnswer>(
        _ client: ControlClient, _ request: ControlRequest, _ answer: Answer.Type, timeoutMs: Int32 = 5000
    ) throws(CommandError) -> Answer {
        do { return try client.ask(request, answer, timeoutMs: timeoutMs) } catch { throw .failure(error.description) }
    }
}
