import RecoveryCore

/// The words after the command name, sorted into options and positional arguments by the command's
/// `OptionSpec`s. Typed accessors turn text into values and throw one clear sentence when they can't.
struct ParsedArguments {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    /// Sorts `words` by `options` (the command's plus the global ones). Throws for an unknown option,
    /// a missing value, a value given twice, or the wrong number of positional arguments.
    init(_ words: [String], options: [OptionSpec], arguments: [ArgumentSpec]) throws(CommandError) {
        var i = 0
        var onlyPositionals = false
        while i < words.count {
            let word = words[i]
            i += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var name = word
            var inlineValue: String?
            if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inlineValue = String(word[word.index(after: eq)...])
            }
            let spec: OptionSpec?
            if name.hasPrefix("--") {
                spec = options.first { $0.long == name.dropFirst(2) }
            } else if name.count == 2 {
                spec = options.first { $0.short == name.last }
            } else {
                spec = nil
            }
            guard let spec else { throw .usage("unknown option \(quoted(name)).") }
            switch spec.kind {
            case .flag:
                guard inlineValue == nil else { throw .usage("--\(spec.long) takes no value.") }
                flags.insert(spec.long)
            case .value(let placeholder), .repeated(let placeholder):
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if i < words.count, !(words[i].hasPrefix("--") && words[i].count > 2) {
                    // "--fatigue --mood …" is a missing value, not a fatigue of "--mood"; "--note=--x" still works.
                    value = words[i]
                    i += 1
                } else {
                    throw .usage("--\(spec.long) needs a value (\(placeholder)).")
                }
                if case .value = spec.kind, values[spec.long] != nil {
                    throw .usage("--\(spec.long) was given twice.")
                }
                values[spec.long, default: []].append(value)
            }
        }
        let required = arguments.filter { !$0.isOptional }.count
        if positionals.count > arguments.count {
            throw .usage("unexpected argument \(quoted(positionals[arguments.count])).")
        }
        if positionals.count < required {
            throw .usage("missing \(arguments[positionals.count].name).")
        }
    }

    func flag(_ long: String) -> Bool { flags.contains(long) }

    func value(_ long: String) -> String? { values[long]?.last }

    func values(_ long: String) -> [String] { values[long] ?? [] }

    func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }

    // MARK: Typed values

    /// A whole number within `range`, or nil when the option was not given.
    func integer(_ long: String, in range: ClosedRange<Int>) throws(CommandError) -> Int? {
        guard let text = value(long) else { return nil }
        return try ParsedArguments.integer(text, in: range, what: "--\(long)")
    }

    static func integer(_ text: String, in range: ClosedRange<Int>, what: String) throws(CommandError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw .usage(
                "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(quoted(text)).")
        }
        return number
    }

    /// A `YYYY-MM-DD` day, or nil when the option was not given.
    func date(_ long: String) throws(CommandError) -> LocalDate? {
        guard let text = value(long) else { return nil }
        guard let date = LocalDate(iso: text) else {
            throw .usage("--\(long) must be a date written YYYY-MM-DD, not \(quoted(text)).")
        }
        return date
    }

    /// An `HH:MM` time of day, or nil when the option was not given.
    func time(_ long: String) throws(CommandError) -> MinuteOfDay? {
        guard let text = value(long) else { return nil }
        guard let time = MinuteOfDay(hhmm: text) else {
            throw .usage("--\(long) must be a 24-hour time written HH:MM, not \(quoted(text)).")
        }
        return time
    }

    /// One of `choices`, or nil when the option was not given.
    func choice(_ long: String, of choices: [String]) throws(CommandError) -> String? {
        guard let text = value(long) else { return nil }
        guard choices.contains(text) else {
            throw .usage("--\(long) must be one of \(choices.joined(separator: ", ")), not \(quoted(text)).")
        }
        return text
    }
}

/// `'text'` for messages, with control characters made visible so one line stays one line.
func quoted(_ text: String) -> String { echoed(text) }
