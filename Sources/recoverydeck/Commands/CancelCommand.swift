import ControlProtocol

/// `recoverydeck cancel`: stops the running session; nothing of it is saved.
struct CancelCommand: Command {
    static let name = "cancel"
    static let summary = "Cancel the running morning session; nothing of it is saved."
    static let discussion = """
        Stops the session recoverydeckd is running, as the * key does on the panel. Nothing of a
        cancelled session is written: the day stays as it was. A morning already being saved is
        written whole and cannot be cancelled. During the readout or a fault code it only clears the
        panel (exit 0); with nothing on the panel it exits 1.
        """
    static let options: [OptionSpec] = [
        SessionFollower.socketOption
    ]

    let socket: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        socket = parsed.value("socket")
    }

    func run(_ context: Context) throws {
        let client = try SessionFollower.connect(SessionFollower.socketPath(socket, context))
        let outcome = try SessionFollower.send(client, .cancel, CancelOutcome.self)
        guard !outcome.cancelled else {
            context.say("Session cancelled; nothing was saved.")
            return
        }
        // A finished morning's readout (saved already) or a fault's code was showing: only the lamps change.
        let shown =
            outcome.was == "readout" ? "the readout (today's morning stays saved)" : "the fault code"
        context.say("No session was running; \(shown) is cleared from the panel.")
    }
}
