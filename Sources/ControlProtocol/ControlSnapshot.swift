import JSON

/// The session as `watch` and `status` carry it: the daemon encodes it here and the command line decodes it
/// here, so a field is named in one place (`{"event": "snapshot", …}` on the wire).
public struct ControlSnapshot: Hashable, Sendable {
    /// The daemon's monotonic clock when it was taken (session time).
    public var sessionMs: Int64
    /// The local day, "YYYY-MM-DD", and the wall clock, "YYYY-MM-DD HH:MM:SS".
    public var date: String
    public var clock: String
    /// `MorningSession.Phase`'s raw value ("idle", "captureRMSSD", …).
    public var phase: String
    public var title: String
    public var remainingMs: Int64?
    public var phaseProgress: Double?
    public var progress: Double?
    public var bpm: Int64?
    public var rrOK: Bool
    public var degraded: Bool
    public var acceptedBeats: Int64?
    public var acceptedSeconds: Double?
    /// `MorningFault.code` and its sentence, while a fault shows.
    public var fault: String?
    public var faultSentence: String?
    /// The indication's name, and each lamp's pattern in the words of LIGHTS.md, in the lamps' order.
    public var state: String
    public var lamps: [(lamp: String, pattern: String)]
    public var display: String
    public var strap: String
    public var speed: Double
    /// Saved records the database has not taken yet, and why.
    public var waitingForDatabase: Int64
    public var waitingReason: String?

    public init(
        sessionMs: Int64, date: String, clock: String, phase: String, title: String, remainingMs: Int64?,
        phaseProgress: Double?, progress: Double?, bpm: Int64?, rrOK: Bool, degraded: Bool, acceptedBeats: Int64?,
        acceptedSeconds: Double?, fault: String?, faultSentence: String?, state: String,
        lamps: [(lamp: String, pattern: String)], display: String, strap: String, speed: Double,
        waitingForDatabase: Int64, waitingReason: String?
    ) {
        self.sessionMs = sessionMs
        self.date = date
        self.clock = clock
        self.phase = phase
        self.title = title
        self.remainingMs = remainingMs
        self.phaseProgress = phaseProgress
        self.progress = progress
        self.bpm = bpm
        self.rrOK = rrOK
        self.degraded = degraded
        self.acceptedBeats = acceptedBeats
        self.acceptedSeconds = acceptedSeconds
        self.fault = fault
        self.faultSentence = faultSentence
        self.state = state
        self.lamps = lamps
        self.display = display
        self.strap = strap
        self.speed = speed
        self.waitingForDatabase = waitingForDatabase
        self.waitingReason = waitingReason
    }

    public static func == (a: ControlSnapshot, b: ControlSnapshot) -> Bool { a.json == b.json }
    public func hash(into hasher: inout Hasher) { hasher.combine(json.serialized()) }

    /// The pattern of `lamp` ("off" when the snapshot names none).
    public func pattern(of lamp: String) -> String { lamps.first { $0.lamp == lamp }?.pattern ?? "off" }

    public var json: JSONValue {
        .object([
            ("event", .string("snapshot")), ("session_ms", .integer(sessionMs)),
            ("date", .string(date)),
            ("clock", .string(clock)),
            ("phase", .string(phase)),
            ("title", .string(title)),
            ("remaining_ms", JSONValue(remainingMs)),
            ("phase_progress", JSONValue(phaseProgress)),
            ("progress", JSONValue(progress)),
            ("bpm", JSONValue(bpm)),
            ("rr_ok", .bool(rrOK)),
            ("degraded", .bool(degraded)),
            ("accepted_beats", JSONValue(acceptedBeats)),
            ("accepted_seconds", JSONValue(acceptedSeconds)),
            ("fault", JSONValue(fault)),
            ("fault_sentence", JSONValue(faultSentence)),
            ("state", .string(state)),
            ("lamps", .object(lamps.map { ($0.lamp, .string($0.pattern)) })),
            ("display", .string(display)),
            ("strap", .string(strap)),
            ("speed", .number(speed)),
            ("waiting_for_database", .integer(waitingForDatabase)),
            ("waiting_reason", JSONValue(waitingReason)),
        ])
    }

    /// Reads a snapshot packet: every field `json` writes must be there (an optional one as `null`), and the
    /// lamps' patterns must be strings; anything else is one sentence.
    public init(json: JSONValue) throws(ControlMalformed) {
        let fields = try ControlFields(json, what: "session snapshot")
        try fields.expect("event", "snapshot")
        var lamps: [(lamp: String, pattern: String)] = []
        for (lamp, pattern) in try fields.object("lamps") {
            guard let pattern = pattern.stringValue else { throw fields.malformed("lamps") }
            lamps.append((lamp, pattern))
        }
        self.init(
            sessionMs: try fields.int("session_ms"), date: try fields.string("date"), clock: try fields.string("clock"),
            phase: try fields.string("phase"), title: try fields.string("title"),
            remainingMs: try fields.optionalInt("remaining_ms"), phaseProgress: try fields.optionalDouble("phase_progress"),
            progress: try fields.optionalDouble("progress"), bpm: try fields.optionalInt("bpm"),
            rrOK: try fields.bool("rr_ok"), degraded: try fields.bool("degraded"),
            acceptedBeats: try fields.optionalInt("accepted_beats"),
            acceptedSeconds: try fields.optionalDouble("accepted_seconds"), fault: try fields.optionalString("fault"),
            faultSentence: try fields.optionalString("fault_sentence"), state: try fields.string("state"), lamps: lamps,
            display: try fields.string("display"), strap: try fields.string("strap"), speed: try fields.double("speed"),
            waitingForDatabase: try fields.int("waiting_for_database"),
            waitingReason: try fields.optionalString("waiting_reason"))
    }
}
