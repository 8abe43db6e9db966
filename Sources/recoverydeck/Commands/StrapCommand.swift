import BlueZ
import HeartRateProtocol
import Platform
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `recoverydeck strap`: connects to the strap and shows what it sends — BPM, RR intervals,
/// battery, firmware — with the link's state, as the morning will see it.
struct StrapCommand: Command {
    static let name = "strap"
    static let summary = "Connect to the strap and show live BPM, RR intervals, battery and firmware."
    static let synopsis: String? =
        "[--address ADDR] [--address-type public|random] [--seconds N] [--adapter hciN] [--json]"
    static let discussion = """
        Connects to the paired strap (or --address), enables heart rate notifications and prints
        each one until N seconds have passed or Ctrl-C, then a summary. "RR OK" means the strap
        sends RR intervals and the morning can measure rMSSD; a strap that sends heart rate only
        gets the reason and what to do. A lost link is reconnected by itself. Exits 1 when no
        connection was made.
        """
    static let options: [OptionSpec] = [
        .value("address", "ADDR", help: "The strap's address. Default: the paired strap."),
        StrapAddressOption.typeSpec,
        .value("seconds", "N", help: "How long to stay connected (1 to 3600). Default: 30."),
        AdapterOption.spec,
        .flag("json", help: "Print one JSON object per line: state, sample, battery, firmware, summary."),
    ]

    let address: BluetoothAddress?
    let addressType: BluetoothAddressType?
    let seconds: Int
    let adapter: String?
    let json: Bool

    init(_ parsed: ParsedArguments) throws(CommandError) {
        address = try parsed.value("address").map { (text) throws(CommandError) in
            try StrapAddressOption.address(text, what: "--address")
        }
        addressType = try StrapAddressOption.type(parsed)
        seconds = try parsed.integer("seconds", in: 1...3600) ?? 30
        adapter = try AdapterOption.parse(parsed)
        json = parsed.flag("json")
    }

    func run(_ context: Context) throws {
        let (strap, type) = try target(context)
        let (_, controller) = try AdapterOption.open(adapter)
        var configuration = StrapLink.Configuration(adapter: controller.address, strap: strap, strapType: type)
        configuration.controller = controller.index
        configuration.connectionParameters = context.strapParameters
        let link = try StrapLink(configuration)
        let signals = try SignalFD(signals: [.interrupt, .terminate])
        defer { signals.close() }
        var printer = StrapPrinter(context: context, json: json)
        if !json {
            context.say("Connecting to \(strap) (\(type.word)) through \(controller.name)…")
        }

        let startMs = SystemClock.monotonicMs()
        let endMs = startMs + Int64(seconds) * 1000
        var lastFailure: BlueZError?
        var cpuAtFirstSample: Int64?
        var notificationsAtFirst = 0
        var events = link.start(nowMs: startMs)
        while true {
            for event in events {
                if case .connectFailed(let error) = event { lastFailure = error }
                if case .sample = event, cpuAtFirstSample == nil {
                    cpuAtFirstSample = Self.cpuMicroseconds()
                    notificationsAtFirst = link.statistics.notifications
                }
                printer.print(event)
            }
            if case .failed(let error) = link.state { throw CommandError.failure(error.description) }
            let now = SystemClock.monotonicMs()
            if now >= endMs { break }
            let deadline = min(endMs, link.nextDeadlineMs ?? endMs)
            let ready =
                (try? ReadinessWait.readable([link.descriptor, signals.descriptor], timeoutMs: deadline - now)) ?? []
            if ready.contains(signals.descriptor) { break }
            let after = SystemClock.monotonicMs()
            events = ready.contains(link.descriptor) ? link.onReadable(nowMs: after) : []
            if let due = link.nextDeadlineMs, after >= due { events += link.onDeadline(nowMs: after) }
        }
        let cpuUs = cpuAtFirstSample.map { Self.cpuMicroseconds() - $0 }
        let measured = link.statistics.notifications - notificationsAtFirst
        _ = link.stop()
        printer.summary(link, cpuMicroseconds: cpuUs, notificationsMeasured: measured)
        if link.statistics.connections == 0 {
            throw CommandError.failure(
                (lastFailure ?? .strapUnreachable(address: strap, seconds: seconds)).description)
        }
    }

    /// The strap to connect to: --address, else the paired one.
    private func target(_ context: Context) throws -> (BluetoothAddress, BluetoothAddressType) {
        if let address {
            var type = addressType
            if type == nil, let paired = try? context.store().settings(), paired.strapAddress == address.description {
                type = StrapAddressOption.type(settingValue: paired.strapAddressType)
            }
            return (address, type ?? address.guessedType)
        }
        let settings = try context.store().settings()
        guard let text = settings.strapAddress, let paired = BluetoothAddress(text) else {
            throw CommandError.failure("No strap is paired: run `recoverydeck pair` (or give --address).")
        }
        let pairedType = StrapAddressOption.type(settingValue: settings.strapAddressType)
        let type = addressType ?? pairedType
        return (paired, type ?? paired.guessedType)
    }

    /// User plus system CPU time of this process so far (getrusage).
    static func cpuMicroseconds() -> Int64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
}

/// How `strap` shows the link's events: lines for a person, or JSON objects for a script.
struct StrapPrinter {
    let context: Context
    let json: Bool
    private var lastFailure: BlueZError?

    init(context: Context, json: Bool) {
        self.context = context
        self.json = json
    }

    mutating func print(_ event: StrapLinkEvent) {
        var line = JSONLine()
        switch event {
        case .state(let state):
            line.add("event", "state")
            line.add("state", state.name)
            line.add("message", state.message)
            if json { context.out(line.text) } else { context.say(Self.words(state)) }
        case .sample(let sample):
            line.add("event", "sample")
            line.add("t", sample.receivedAtMs)
            line.add("bpm", sample.bpm.map(Int64.init))
            line.add("rr", sample.rrRaw.map(Int.init))
            if json {
                context.out(line.text)
            } else {
                let bpm = sample.bpm.map { "\($0) bpm" } ?? "-- bpm"
                let rr = sample.rrRaw.map { Formatting.fixed(Double($0) * 1000 / 1024, digits: 0) }.joined(
                    separator: " ")
                context.out(rr.isEmpty ? bpm : "\(bpm)  RR \(rr) ms")
            }
        case .battery(let percent):
            line.add("event", "battery")
            line.add("percent", Int64(percent))
            json ? context.out(line.text) : context.say("Battery \(percent) %")
        case .firmware(let revision):
            line.add("event", "firmware")
            line.add("revision", revision)
            json ? context.out(line.text) : context.say("Firmware \(revision)")
        case .connectFailed(let error):
            line.add("event", "connectFailed")
            line.add("message", error.description)
            if json {
                context.out(line.text)
            } else if error != lastFailure {
                // Each attempt fails alike while the strap stays away: say it once.
                context.say(error.description)
            }
            lastFailure = error
        case .malformed(let input):
            line.add("event", "malformed")
            line.add("message", input.description)
            json ? context.out(line.text) : context.say("Ignored what the strap sent: \(input.description).")
        }
    }

    func summary(_ link: StrapLink, cpuMicroseconds: Int64?, notificationsMeasured: Int) {
        let s = link.statistics
        let perNotification = cpuMicroseconds.map {
            notificationsMeasured > 0 ? Double($0) / Double(notificationsMeasured) : 0
        }
        if json {
            var line = JSONLine()
            line.add("event", "summary")
            line.add("notifications", Int64(s.notifications))
            line.add("rrIntervals", Int64(s.rrIntervals))
            line.add("malformed", Int64(s.malformedMeasurements))
            line.add("connections", Int64(s.connections))
            line.add("losses", Int64(s.losses))
            line.add("firstLiveAfterConnectMs", s.firstLiveAfterConnectMs)
            line.add("firstRRAfterConnectMs", s.firstRRAfterConnectMs)
            line.add("connectionParameters", link.parameterState.description)
            line.add("parameterUpdates", Int64(s.parameterUpdates))
            line.add("cpuMicrosecondsPerNotification", number: perNotification ?? 0)
            context.out(line.text)
        } else if s.connections > 0 {
            var text = "\(s.notifications) notifications, \(s.rrIntervals) RR intervals"
            if s.malformedMeasurements > 0 { text += ", \(s.malformedMeasurements) malformed" }
            if s.losses > 0 { text += ", \(s.losses) link losses" }
            if let battery = link.batteryPercent { text += ", battery \(battery) %" }
            context.say(text + "; " + link.parameterState.description + ".")
        }
    }

    static func words(_ state: StrapLinkState) -> String {
        switch state {
        case .idle: "Disconnected."
        case .connecting(let attempt): attempt == 1 ? "Connecting…" : "Connecting (attempt \(attempt))…"
        case .discovering: "Connected; enabling heart rate notifications…"
        case .live: "Live."
        case .rrOK: "RR OK."
        case .heartRateOnly: StrapLinkState.heartRateOnlyMessage
        case .lost(let loss): "Link lost: " + loss.description
        case .reconnecting: "Reconnecting…"
        case .failed(let error): error.description
        }
    }
}
