import ControlProtocol

/// `recoverydeck measure`: starts a morning on the box, as GO does.
struct MeasureCommand: Command {
    static let name = "measure"
    static let summary = "Start a morning measurement on the box, as pressing GO does."
    static let discussion = """
        Asks the running recoverydeckd to start the combined morning protocol: connect to the paired
        strap, settle 15 s, capture rMSSD, lying heart rate, the stand cue and 60 s standing. Lie down
        with the strap on first. Today's questionnaire must be in (recoverydeck checkin or the keypad).
        If today is already measured the box asks for confirmation; --overwrite gives it.
        With --wait the command follows the session like `recoverydeck watch` and exits 0 once the
        morning is saved, 1 if the session ends without saving.
        """
    static let options: [OptionSpec] = [
        .flag("overwrite", help: "Replace today's measurement (the remeasure confirmation)."),
        .flag("wait", help: "Follow the session until it is saved or ends."),
        .flag("json", help: "With --wait: print each snapshot as a JSON line."),
        SessionFollower.socketOption,
    ]

    let overwrite: Bool
    let wait: Bool
    let json: Bool
    let socket: String?

    init(_ parsed: ParsedArguments) throws(CommandError) {
        overwrite = parsed.flag("overwrite")
        wait = parsed.flag("wait")
        json = parsed.flag("json")
        socket = parsed.value("socket")
    }

    func validate() throws(CommandError) {
        if json && !wait { throw .usage("--json goes with --wait.") }
    }

    func run(_ context: Context) throws {
        let path = SessionFollower.socketPath(socket, context)
        let client = try SessionFollower.connect(path)
        let started = try SessionFollower.send(client, .measure(overwrite: overwrite), MeasureStarted.self)
        context.say("Morning started for \(started.date): lie still with the strap on.")
        guard wait else { return }
        let watcher = try SessionFollower.connect(path)
        let first = try SessionFollower.send(watcher, .watch, SessionStatus.self)
        let ending = try SessionFollower(context: context, json: json).follow(watcher, first: first, untilDone: true)
        switch ending {
        case .saved: context.say("Morning saved.")
        case .ended(let fault):
            throw CommandError.failure("The session ended without saving\(fault.map { " (\($0))" } ?? "").")
        case .idle: throw CommandError.failure("The session ended without saving.")
        }
    }
}
