import RecoveryCore

/// Something a person does at the panel, as the simulation performs it.
public enum PanelAction: Hashable, Sendable, CustomStringConvertible {
    case goDown
    case goUp
    case keyDown(KeypadKey)
    case keyUp(KeypadKey)

    public var description: String {
        switch self {
        case .goDown: "go-down"
        case .goUp: "go-up"
        case .keyDown(let key): "key-down \(key)"
        case .keyUp(let key): "key-up \(key)"
        }
    }
}

/// A timed list of panel actions, for tests and the demo. Text form, one action per line:
///
///     # a morning                   a line whose first word starts with # is a comment
///     t=1000 key 5                  press 5 for 100 ms
///     t=2s key-down *               times in ms, or seconds with `s`, from the script's start
///     t=2300 key-up *
///     t=3000 key #    # submit      the key `#` is the word after `key`; a comment follows the action
///     t=5000 go                     press GO for 150 ms
///     t=8000 go-long                hold GO for 2.5 s
///     t=9000 go-down
///     t=9400 go-up
///
/// A key is named by its printed label (`0`–`9`, `*`, `#`) or as `star` / `hash`. After a complete action
/// only a comment (a word starting with `#`) may follow, so `#` as the key and `#` as a comment never mix.
public struct PanelScript: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var atMs: Int64
        public var action: PanelAction

        public init(atMs: Int64, action: PanelAction) {
            self.atMs = atMs
            self.action = action
        }
    }

    /// A line of the text form that cannot be understood: its number from 1 and what is wrong with it.
    public struct BadLine: Error, Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var reason: String

        public init(line: Int, _ reason: String) {
            self.line = line
            self.reason = reason
        }

        public var description: String { "Panel script line \(line): \(reason)." }
    }

    /// How long the composite commands hold.
    public static let keyHoldMs: Int64 = 100
    public static let goHoldMs: Int64 = 150
    public static let goLongHoldMs: Int64 = 2500

    /// In time order; actions at the same time keep their order.
    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }
            .map(\.element)
    }

    /// Parses the text form; the first bad line is named with its number and what is wrong with it.
    public init(parsing text: String) throws(BadLine) {
        var entries: [Entry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let words = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            if words.isEmpty || words[0].hasPrefix("#") { continue }
            guard words[0].hasPrefix("t="), let at = PanelScript.parseTime(String(words[0].dropFirst(2))) else {
                throw BadLine(
                    line: lineNumber, "expected a time such as t=1000 or t=2.5s, found \"\(words[0])\"")
            }
            guard words.count >= 2, !words[1].hasPrefix("#") else {
                throw BadLine(line: lineNumber, "no action after the time")
            }
            let command = words[1]
            // The words after the action's own (its key, for the key actions) must be a comment.
            func end(after used: Int) throws(BadLine) {
                let rest = words.dropFirst(used)
                guard let extra = rest.first, !extra.hasPrefix("#") else { return }
                if used == 2 {
                    throw BadLine(line: lineNumber, "\"\(command)\" takes no argument, found \"\(extra)\"")
                }
                throw BadLine(line: lineNumber, "unexpected \"\(extra)\" after the action")
            }
            func key() throws(BadLine) -> KeypadKey {
                let argument = words.count >= 3 ? words[2] : nil
                guard let argument, let key = PanelScript.key(named: argument) else {
                    throw BadLine(
                        line: lineNumber, "\"\(command)\" needs a key: 0-9, * or #, found \"\(argument ?? "")\"")
                }
                try end(after: 3)
                return key
            }
            switch command {
            case "key": entries += PanelScript.entries(.key(try key()), atMs: at)
            case "key-down": entries.append(Entry(atMs: at, action: .keyDown(try key())))
            case "key-up": entries.append(Entry(atMs: at, action: .keyUp(try key())))
            case "go":
                try end(after: 2)
                entries += PanelScript.entries(.go, atMs: at)
            case "go-long":
                try end(after: 2)
                entries += PanelScript.entries(.goLong, atMs: at)
            case "go-down":
                try end(after: 2)
                entries.append(Entry(atMs: at, action: .goDown))
            case "go-up":
                try end(after: 2)
                entries.append(Entry(atMs: at, action: .goUp))
            default:
                throw BadLine(
                    line: lineNumber,
                    "unknown action \"\(command)\" (known: key, key-down, key-up, go, go-long, go-down, go-up)")
            }
        }
        self.init(entries: entries)
    }

    /// A whole press: down, then up after its hold.
    public enum Tap: Hashable, Sendable {
        case go
        case goLong
        case key(KeypadKey)

        /// The tap a `press` request's button names: `go`, `go-long` or a key by its label; nil for anything else.
        public init?(button: String) {
            switch button {
            case "go": self = .go
            case "go-long": self = .goLong
            default:
                guard let key = KeypadKey(label: button) else { return nil }
                self = .key(key)
            }
        }
    }

    /// `tap` at `atMs`: GO held `goHoldMs`, or `goLongHoldMs`, a key `keyHoldMs`.
    public static func entries(_ tap: Tap, atMs at: Int64) -> [Entry] {
        switch tap {
        case .go: [Entry(atMs: at, action: .goDown), Entry(atMs: at + goHoldMs, action: .goUp)]
        case .goLong: [Entry(atMs: at, action: .goDown), Entry(atMs: at + goLongHoldMs, action: .goUp)]
        case .key(let k): [Entry(atMs: at, action: .keyDown(k)), Entry(atMs: at + keyHoldMs, action: .keyUp(k))]
        }
    }

    /// A key by its printed label, or `star` / `hash` for the two that are not digits.
    static func key(named word: String) -> KeypadKey? {
        switch word {
        case "star": .star
        case "hash": .hash
        default: KeypadKey(label: word)
        }
    }

    /// `1500` (ms) or `1.5s`; nil for anything else or a negative time.
    static func parseTime(_ text: String) -> Int64? {
        if text.hasSuffix("s") {
            let number = text.dropLast()
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                number.filter({ $0 == "." }).count <= 1, let seconds = Double(number)
            else { return nil }
            return Int64((seconds * 1000).rounded())
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}
