/// One `recoverydeck` command, after swift-argument-parser's shape: a type that names itself, says
/// what it takes (options and arguments, from which the parser and `--help` are both made), builds
/// itself from the parsed words, checks itself in `validate()`, and only then `run`s.
///
/// The order is fixed: parse → `init(_:)` (turn words into typed values) → `validate()` (relations
/// between values) → `run(_:)`. Anything thrown before `run` is a usage error (exit 64) and nothing
/// has touched the database yet.
protocol Command {
    /// The words that select the command: `"checkin"`, or `"rr analyze"` for a command in a group.
    static var name: String { get }
    /// One line for the command list in `recoverydeck --help`.
    static var summary: String { get }
    /// The usage line after `recoverydeck NAME`; nil makes one from `options` and `arguments`.
    static var synopsis: String? { get }
    /// Paragraphs for `--help`, after the summary. Plain text, lines of at most 100 columns.
    static var discussion: String { get }
    static var options: [OptionSpec] { get }
    static var arguments: [ArgumentSpec] { get }

    /// Builds the command from what was typed; throws `CommandError.usage` for a malformed value.
    init(_ parsed: ParsedArguments) throws(CommandError)
    /// Checks the values together (required, mutually exclusive, ranges). Default: nothing to check.
    func validate() throws(CommandError)
    /// Does the work. Data goes to `context.out`, messages to `context.say`. Throw
    /// `CommandError.failure` (exit 1) or `.usage` (exit 64); any other error is reported as a failure.
    func run(_ context: Context) throws
}

extension Command {
    static var synopsis: String? { nil }
    static var discussion: String { "" }
    static var arguments: [ArgumentSpec] { [] }
    func validate() throws(CommandError) {}
}

/// An option a command accepts.
struct OptionSpec: Sendable {
    enum Kind: Sendable, Equatable {
        /// `--json`: present or not.
        case flag
        /// `--fatigue N`: at most once.
        case value(placeholder: String)
        /// `--habit NAME`: any number of times.
        case repeated(placeholder: String)
    }

    let long: String
    let short: Character?
    let kind: Kind
    let help: String
    /// Left out of `--help` (test hooks).
    let isHidden: Bool

    static func flag(_ long: String, short: Character? = nil, help: String, hidden: Bool = false) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .flag, help: help, isHidden: hidden)
    }

    static func value(
        _ long: String, short: Character? = nil, _ placeholder: String, help: String, hidden: Bool = false
    ) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .value(placeholder: placeholder), help: help, isHidden: hidden)
    }

    static func repeated(_ long: String, short: Character? = nil, _ placeholder: String, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, kind: .repeated(placeholder: placeholder), help: help, isHidden: false)
    }

    /// `--fatigue N`, `-o FILE`, `--json`, as the usage line shows it.
    var usageForm: String {
        let name = "--" + long
        switch kind {
        case .flag: return name
        case .value(let p): return "\(name) \(p)"
        case .repeated(let p): return "\(name) \(p)"
        }
    }
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    let name: String
    let help: String
    let isOptional: Bool

    init(_ name: String, help: String, optional: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = optional
    }
}
