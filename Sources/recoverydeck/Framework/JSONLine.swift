import JSON

/// One JSON object on one line, for `--json` output that a script reads as it comes (written by
/// the store's `JSONValue`, members in the order added).
struct JSONLine {
    private var members: [(String, JSONValue)] = []

    init() {}

    mutating func add(_ key: String, _ text: String?) { members.append((key, JSONValue(text))) }

    mutating func add(_ key: String, _ number: Int64?) { members.append((key, JSONValue(number))) }

    /// A figure, to three decimals.
    mutating func add(_ key: String, number: Double) {
        members.append((key, .number((number * 1000).rounded() / 1000)))
    }

    mutating func add(_ key: String, _ numbers: [Int]) {
        members.append((key, .array(numbers.map { .integer(Int64($0)) })))
    }

    var text: String { JSONValue.object(members).serialized() }

    /// A JSON string literal (RFC 8259 §7), for lines assembled by hand.
    static func string(_ text: String) -> String { JSONValue.string(text).serialized() }
}
