import ControlProtocol

/// `recoverydeck watch`: the running session, live.
struct WatchCommand: Command {
    static let name = "watch"
    static let summary = "Show the running session live: phase, countdown, BPM, RR OK, progress."
    static let discussion = """
        Follows the session recoverydeckd is running: the phase, a progress bar over the whole
        protocol, the time left, the live heart rate and whether RR intervals arrive (RR OK), and what
        the panel's lamps show. On a terminal the line is redrawn in place; otherwise a line is printed
        per phase. Exits when the session ends (0 when the morning was saved, 1 when it ended without
        saving); with nothing running it prints the idle state and exits, unless --follow waits for the
        next session. After a saved morning it adds status's "Not like you" line when that morning is
        part of a stretch of mornings unlike you.
        """
    static let options: [OptionSpec] = [
        .flag("json", help: "Print each snapshot as a JSON line."),
        .flag("follow", help: "When idle, wait for the next session instead of exiting."),
        SessionFollower.socketOption,
    ]

    let json: Bool
    let follow: Bool
    let socket: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        json = parsed.flag("json")
        follow = parsed.flag("follow")
        socket = parsed.value("socket")
    }

    func run(_ context: Context) throws {
        let client = try SessionFollower.connect(SessionFollower.socketPath(socket, context))
        let first = try SessionFollower.send(client, .watch, SessionStatus.self)
        let ending = try SessionFollower(context: context, json: json).follow(client, first: first, untilDone: follow)
        // After a saved morning, the stretch of mornings unlike the person, as status says it (when the database
        // can be read from here; the readout itself came from the daemon).
        if ending == .saved, !json, let store = try? context.existingStore(),
            let line = NotLikeYouFigures.line(try? NotLikeYouFigures.reading(store.allDays(), today: context.today))
        {
            context.out(line)
        }
        if case .ended(let fault) = ending {
            throw CommandError.failure("The session ended without saving\(fault.map { " (\($0))" } ?? "").")
        }
    }
}
