import JSON

/// A reply or a `watch` packet read field by field. Every field the protocol names must be there with its
/// type (an optional one as its value or `null`); a missing or mistyped field is one sentence
/// (`ControlMalformed`), never a default: a zero or an empty string read in its place would be shown as a fact.
public struct ControlFields {
    let members: [(String, JSONValue)]
    /// What is being read, for the sentence: "the reply to measure", "a say event".
    public let what: String

    public init(_ json: JSONValue, what: String) throws(ControlMalformed) {
        guard case .object(let members) = json else { throw ControlMalformed(what: what, key: nil) }
        self.members = members
        self.what = what
    }

    func value(_ key: String) throws(ControlMalformed) -> JSONValue {
        guard let found = members.first(where: { $0.0 == key }) else { throw ControlMalformed(what: what, key: key) }
        return found.1
    }

    /// The member, or nil when it is `null`.
    func optional(_ key: String) throws(ControlMalformed) -> JSONValue? {
        let found = try value(key)
        return found.isNull ? nil : found
    }

    private func typed<T>(_ key: String, _ read: (JSONValue) -> T?) throws(ControlMalformed) -> T {
        guard let typed = read(try value(key)) else { throw ControlMalformed(what: what, key: key) }
        return typed
    }

    private func optionalTyped<T>(_ key: String, _ read: (JSONValue) -> T?) throws(ControlMalformed) -> T? {
        guard let found = try optional(key) else { return nil }
        guard let typed = read(found) else { throw ControlMalformed(what: what, key: key) }
        return typed
    }

    public func string(_ key: String) throws(ControlMalformed) -> String { try typed(key) { $0.stringValue } }
    public func int(_ key: String) throws(ControlMalformed) -> Int64 { try typed(key) { $0.int64Value } }
    public func double(_ key: String) throws(ControlMalformed) -> Double { try typed(key) { $0.doubleValue } }
    public func bool(_ key: String) throws(ControlMalformed) -> Bool { try typed(key) { $0.boolValue } }
    public func array(_ key: String) throws(ControlMalformed) -> [JSONValue] { try typed(key) { $0.arrayValue } }

    public func object(_ key: String) throws(ControlMalformed) -> [(String, JSONValue)] {
        try typed(key) { if case .object(let members) = $0 { members } else { nil } }
    }

    public func optionalString(_ key: String) throws(ControlMalformed) -> String? {
        try optionalTyped(key) { $0.stringValue }
    }
    public func optionalInt(_ key: String) throws(ControlMalformed) -> Int64? {
        try optionalTyped(key) { $0.int64Value }
    }
    public func optionalDouble(_ key: String) throws(ControlMalformed) -> Double? {
        try optionalTyped(key) { $0.doubleValue }
    }

    /// A member that must hold exactly `expected` (an event's name).
    public func expect(_ key: String, _ expected: String) throws(ControlMalformed) {
        guard try string(key) == expected else { throw ControlMalformed(what: what, key: key) }
    }

    /// A malformed value that the field types alone do not catch (a strap address that is no address).
    public func malformed(_ key: String) -> ControlMalformed { ControlMalformed(what: what, key: key) }
}

/// A reply or packet from the daemon that does not have the protocol's shape, as one sentence.
public struct ControlMalformed: Error, Hashable, Sendable, CustomStringConvertible {
    public let what: String
    /// The member missing or of the wrong type; nil when the packet is not a JSON object at all.
    public let key: String?

    public init(what: String, key: String?) {
        self.what = what
        self.key = key
    }

    public var description: String {
        let fault = key.map { "has no readable \"\($0)\"" } ?? "is not a JSON object"
        return "recoverydeckd's \(what) \(fault): install the same release of recoverydeck and recoverydeckd."
    }
}
