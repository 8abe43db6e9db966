import LocalClock
import Platform
import RecoveryCore
import Store

/// The `recoverydeck` program: finds the command the words name, parses its options, and turns
/// every outcome into an exit status (0 ok, 1 failure, 64 usage) and at most one line plus a hint
/// on standard error.
enum Program {
    static let about =
        "RecoveryDeck is a bedside box that measures morning heart-rate variability (rMSSD) and a short "
        + "orthostatic test with a Polar H10 chest strap, and says how today compares with your own normal. "
        + "This is its command-line tool, used over SSH. Nothing here leaves the box."

    /// Options every command accepts, before or after its name.
    static let globalOptions: [OptionSpec] = [
        .value(
            "db", "PATH",
            help: "The database file. Default: $RECOVERYDECK_DB, else the box's /var/lib/recoverydeck/recoverydeck.db "
                + "(for root and the recoverydeck group), else, with no box installed, "
                + "$XDG_DATA_HOME/recoverydeck/recoverydeck.db (~/.local/share when unset)."),
        // Test hook: the local date and time the command takes as now, YYYY-MM-DDTHH:MM, read in the
        // system time zone. Lets tests and demonstrations set "today" without touching the clock.
        .value("now", "YYYY-MM-DDTHH:MM", help: "Take this local time as now (for tests).", hidden: true),
        .flag("help", short: "h", help: "Show help."),
    ]

    static func run(arguments words: [String], environment: @escaping (String) -> String?) -> Int32 {
        let commands = Registry.commands
        var leading: [String] = []
        var i = 0
        // Global options may come before the command's name.
        while i < words.count, words[i].hasPrefix("-"), words[i] != "-" {
            let word = words[i]
            leading.append(word)
            i += 1
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if let option = globalOptions.first(where: { "--" + $0.long == name }), option.kind != .flag,
                !word.contains("="), i < words.count
            {
                leading.append(words[i])
                i += 1
            }
        }
        let helpWanted = { (rest: ArraySlice<String>) in
            (rest.firstIndex(of: "--").map { rest[..<$0] } ?? rest[...]).contains { $0 == "--help" || $0 == "-h" }
        }
        // The longest run of words that names a command or a group of commands.
        var path: [String] = []
        while i < words.count, !words[i].hasPrefix("-") {
            let candidate = path + [words[i]]
            let words = candidate.map { Substring($0) }
            guard commands.contains(where: { $0.name.split(separator: " ").starts(with: words) }) else { break }
            path = candidate
            i += 1
        }
        let rest = words[i...]
        let named = path.joined(separator: " ")
        guard let command = commands.first(where: { $0.name == named }) else {
            if path.isEmpty {
                // A word that names no command is a usage error whatever follows it: `--help` after it asks
                // for a page that does not exist, and the general page would hide the typo.
                if let first = rest.first, !first.hasPrefix("-") {
                    return usage("recoverydeck", "unknown command \(quoted(first)).", hint: "recoverydeck --help")
                }
                if helpWanted(words[...]) {
                    Context.write(HelpText.overview(commands), to: 1)
                    return ExitCode.success
                }
                if !leading.isEmpty || !rest.isEmpty {
                    do {
                        _ = try ParsedArguments(leading + rest, options: globalOptions, arguments: [])
                    } catch {
                        return usage("recoverydeck", error.message, hint: "recoverydeck --help")
                    }
                }
                return usage("recoverydeck", "missing command.", hint: "recoverydeck --help")
            }
            let members = commands.filter { $0.name.hasPrefix(named + " ") }
            if helpWanted(words[...]) && !(rest.first.map { !$0.hasPrefix("-") } ?? false) {
                Context.write(HelpText.group(named, members), to: 1)
                return ExitCode.success
            }
            let names = members.map { String($0.name.dropFirst(named.count + 1)) }.joined(separator: ", ")
            let message =
                rest.first.map { $0.hasPrefix("-") ? "missing subcommand (\(names))." : "" }
                ?? "missing subcommand (\(names))."
            return usage(
                "recoverydeck \(named)",
                message.isEmpty ? "unknown subcommand \(quoted(rest.first!)); expected one of \(names)." : message,
                hint: "recoverydeck \(named) --help")
        }

        let title = "recoverydeck \(command.name)"
        if helpWanted(words[...]) {
            Context.write(HelpText.page(for: command), to: 1)
            return ExitCode.success
        }
        let context: Context
        let instance: any Command
        do throws(CommandError) {
            let parsed = try ParsedArguments(
                leading + rest, options: command.options + globalOptions, arguments: command.arguments)
            var nowOption: LocalTime?
            if let text = parsed.value("now") {
                guard let now = parseNow(text) else {
                    throw CommandError.usage(
                        "--now must be a local time written YYYY-MM-DDTHH:MM, not \(quoted(text)).")
                }
                nowOption = now
            }
            if let db = parsed.value("db"), db.isEmpty { throw CommandError.usage("--db needs a file path.") }
            context = Context(
                commandName: command.name, environment: environment, databaseOption: parsed.value("db"),
                nowOption: nowOption)
            instance = try command.init(parsed)
            try instance.validate()
        } catch {
            return usage(title, error.message, hint: "\(title) --help")
        }
        do {
            try instance.run(context)
            return ExitCode.success
        } catch let error as CommandError {
            switch error {
            case .usage(let message): return usage(title, message, hint: "\(title) --help")
            case .failure(let message):
                Context.write(TerminalText.escaped("\(title): \(message)\n"), to: 2)
                return ExitCode.failure
            }
        } catch {
            Context.write(TerminalText.escaped("\(title): \(sentence(String(describing: error)))\n"), to: 2)
            return ExitCode.failure
        }
    }

    private static func usage(_ title: String, _ message: String, hint: String) -> Int32 {
        Context.write(TerminalText.escaped("\(title): \(message)\nTry '\(hint)'.\n"), to: 2)
        return ExitCode.usage
    }

    private static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }

    /// `YYYY-MM-DDTHH:MM` as a local time in the system time zone.
    static func parseNow(_ text: String) -> LocalTime? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = LocalDate(iso: parts[0]), let minute = MinuteOfDay(hhmm: parts[1]) else {
            return nil
        }
        return LocalTime(epochSeconds: LocalTime.epochSeconds(of: date, at: minute))
    }
}
