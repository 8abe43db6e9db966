import JSON
import RecoveryCore

/// One piece of an export document as the reader hands it on.
public enum ExportItem: Sendable {
    case day(DayRecord)
    /// The `settings` object, by key.
    case settings([(String, String)])
    case event(AnalyticsEvent)
    case experiment(StoredExperiment)
}

/// What an export says of itself, known once the whole document has been read.
public struct ExportHeader: Hashable, Sendable {
    public var protocolVersion: Int
    public var generatedAt: Int64
    public var full: Bool
    public var habits: [String]
}

/// Reads an export document (`ExportDocument`) as it streams in: one day, analytics event or experiment at a
/// time (`next`), each checked with the same ranges as the box's own measurements, so memory follows the
/// largest element, not the file. `header()` gives what the document says of itself once `next` returned nil.
///
/// Bounds (each refused with a sentence naming the element): a day's element `maximumDayBytes`, any other
/// element or member `maximumElementBytes`, nesting `JSONStream.maximumDepth`. Members this version does not know are read past, keeping nothing.
public struct ExportDocumentReader {
    /// A morning of the box's own is some 10 KiB; an imported recording of three days and nights (some 290,000
    /// intervals with their times) about 4 MiB. Held as `JSONValue`s, a day this large peaks near 50 MB
    /// (Tests/Benchmarks/InputMemory/run.sh).
    public static let maximumDayBytes = 4 << 20
    /// A setting is at most 2000 characters, an analytics event or experiment a few hundred bytes.
    public static let maximumElementBytes = 1 << 20

    private enum Position {
        case start
        case members
        case list(String, index: Int)
        case done
    }

    private var stream: JSONStream
    private var position = Position.start
    private var seen: Set<String> = []
    private var protocolVersion: Int?
    private var habits: [String]?
    /// Seconds since 1970 from `generatedAt`, once read (the exporter writes it before the days).
    public private(set) var generatedAt: Int64?
    /// From `full`, once read: settings, analytics and experiments are read past when it is false.
    public private(set) var full: Bool?

    public init(_ stream: JSONStream) { self.stream = stream }

    /// The next day, settings object, analytics event or experiment; nil at the end of the document.
    public mutating func next() throws(ExportError) -> ExportItem? {
        while true {
            switch position {
            case .done: return nil
            case .start:
                try reading("") { (s) throws(JSONStreamError) in
                    guard try s.peekValue() == UInt8(ascii: "{") else {
                        throw s.error("expected an object (the export document is one)")
                    }
                    try s.beginObject()
                }
                position = .members
            case .members:
                guard let key = try reading("", { (s) throws(JSONStreamError) in try s.nextMember() }) else {
                    try reading("") { (s) throws(JSONStreamError) in try s.finish() }
                    position = .done
                    return nil
                }
                guard seen.insert(key).inserted else { throw ExportError(path: key, reason: "appears twice") }
                if let item = try member(key) { return item }
            case .list(let name, let index):
                let more = try reading(name) { (s) throws(JSONStreamError) in try s.nextElement() }
                guard more else {
                    position = .members
                    continue
                }
                position = .list(name, index: index + 1)
                let path = "\(name)[\(index)]"
                let limit = name == "days" ? Self.maximumDayBytes : Self.maximumElementBytes
                let value = try reading(path) { (s) throws(JSONStreamError) in try s.value(limit: limit) }
                let f = Field(value: value, path: path)
                switch name {
                case "days": return .day(try ExportDocument.day(f))
                case "analytics": return .event(try ExportDocument.event(f))
                default: return .experiment(try ExportDocument.experiment(f))
                }
            }
        }
    }

    /// What the document says of itself; call once `next` returned nil. A missing member is refused here.
    public func header() throws(ExportError) -> ExportHeader {
        guard let protocolVersion else { throw ExportError(path: "protocolVersion", reason: "is missing") }
        guard let generatedAt else { throw ExportError(path: "generatedAt", reason: "is missing") }
        guard let full else { throw ExportError(path: "full", reason: "is missing") }
        guard let habits else { throw ExportError(path: "habits", reason: "is missing") }
        guard seen.contains("days") else { throw ExportError(path: "days", reason: "is missing") }
        if full {
            for key in ["settings", "analytics"] where !seen.contains(key) {
                throw ExportError(path: key, reason: "is missing")
            }
        }
        return ExportHeader(protocolVersion: protocolVersion, generatedAt: generatedAt, full: full, habits: habits)
    }

    /// One top-level member: a list to walk starts `.list`; a value is read and kept; the rest is read past.
    private mutating func member(_ key: String) throws(ExportError) -> ExportItem? {
        switch key {
        case "days", "analytics", "experiments":
            // Not in an export that is not full: read past, unchecked, as the exporter would never write them.
            if key != "days", full == false {
                try reading(key) { (s) throws(JSONStreamError) in try s.skipValue() }
                return nil
            }
            let opens = try reading(key) { (s) throws(JSONStreamError) in try s.peekValue() }
            guard opens == UInt8(ascii: "[") else {
                // Not a list: the same sentence as any other field ("is missing", "must be a list").
                _ = try Field(value: try small(key), path: key).array()
                return nil
            }
            try reading(key) { (s) throws(JSONStreamError) in try s.beginArray() }
            position = .list(key, index: 0)
            return nil
        case "protocolVersion":
            let f = Field(value: try small(key), path: key)
            let version = try f.int()
            guard version <= ExportDocument.protocolVersion else {
                throw ExportError(
                    path: "",
                    reason: "was written by a newer RecoveryDeck (protocolVersion \(version); this one reads up to "
                        + "\(ExportDocument.protocolVersion)): update RecoveryDeck first")
            }
            guard version >= 1 else { throw f.error("is \(version); RecoveryDeck writes 1 and up") }
            protocolVersion = version
        case "generatedAt":
            generatedAt = try Field(value: try small(key), path: key).int64(
                in: 0...Plausible.epochSeconds.upperBound, " seconds since 1970")
        case "full": full = try Field(value: try small(key), path: key).bool()
        case "habits": habits = try ExportDocument.habits(Field(value: try small(key), path: key))
        case "settings":
            if full == false {
                try reading(key) { (s) throws(JSONStreamError) in try s.skipValue() }
                return nil
            }
            return .settings(try ExportDocument.settings(Field(value: try small(key), path: key)))
        default:
            try reading(key) { (s) throws(JSONStreamError) in try s.skipValue() }
        }
        return nil
    }

    private mutating func small(_ path: String) throws(ExportError) -> JSONValue {
        try reading(path) { (s) throws(JSONStreamError) in try s.value(limit: Self.maximumElementBytes) }
    }

    /// Runs a step of the stream; its failure becomes a sentence that names where in the document.
    private mutating func reading<T>(_ path: String, _ step: (inout JSONStream) throws(JSONStreamError) -> T)
        throws(ExportError) -> T
    {
        do { return try step(&stream) } catch {
            switch error.kind {
            case .tooLarge(let limit):
                throw ExportError(
                    path: path,
                    reason: "is larger than \(JSONStream.size(limit)), more than RecoveryDeck writes there "
                        + "(it stops reading at byte \(error.offset))")
            case .unreadable: throw ExportError(path: "", reason: "cannot be read: \(error.reason)")
            case .malformed: throw ExportError(path: "", reason: "is not JSON (\(error))")
            }
        }
    }
}
