import HeartRateProtocol
import Platform

#if canImport(Glibc)
    import Glibc
#endif

/// The `recoverydeck` program: finds the command the words name, parses its options, and turns
/// every outcome into an exit status (0 ok, 1 failure, 64 usage) and at most one line plus a hint
/// on standard error. What the words do not say, the executable that runs it gives: the clock the
/// commands read and what the Bluetooth commands load for a strap.
public struct Program {
    let clock: any CommandClock
    let strapParameters: LEConnectionParameters?

    /// A program reading `clock`, whose Bluetooth commands load `strapParameters` for a strap before they
    /// connect (nil: nothing, the kernel's defaults stand).
    public init(clock: any CommandClock, strapParameters: LEConnectionParameters?) {
        self.clock = clock
        self.strapParameters = strapParameters
    }

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
        .flag("help", short: "h", help: "Show help."),
    ]

    /// Sets up the process before any command runs. Everything this program writes holds health data: files it
    /// creates are the person's alone (an export redirected with `>` included), and a crash leaves no core dump
    /// with RR intervals in it.
    public static func protectWhatItWrites() {
        umask(0o077)
        ProcessIdentity.refuseCoreDumps()
    }

    /// Runs the command `words` name (the program's arguments, without its own name) and returns the exit status.
    public func run(arguments words: [String], environment: @escaping (String) -> String?) -> Int32 {
        let commands = Registry.commands
        var leading: [String] = []
        var i = 0
        // Global options may come before the command's name.
        while i < words.count, words[i].hasPrefix("-"), words[i] != "-" {
            let word = words[i]
            leading.append(word)
            i += 1
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if let option = Self.globalOptions.first(where: { "--" + $0.long == name }), option.kind != .flag,
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
                        _ = try ParsedArguments(leading + rest, options: Self.globalOptions, arguments: [])
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
                leading + rest, options: command.options + Self.globalOptions, arguments: command.arguments)
            if let db = parsed.value("db"), db.isEmpty { throw CommandError.usage("--db needs a file path.") }
            context = Context(
                commandName: command.name, environment: environment, databaseOption: parsed.value("db"),
                clock: clock, strapParameters: strapParameters)
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

    private func usage(_ title: String, _ message: String, hint: String) -> Int32 {
        Context.write(TerminalText.escaped("\(title): \(message)\nTry '\(hint)'.\n"), to: 2)
        return ExitCode.usage
    }

    private func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? text : text + "."
    }
}
