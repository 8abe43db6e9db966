/// One local analytics event (spec §7.3), for the store's analytics table.
public struct AnalyticsRecord: Hashable, Sendable {
    public var name: String
    public var value: Double?
    public var detail: String?

    public init(_ name: String, value: Double? = nil, detail: String? = nil) {
        self.name = name
        self.value = value
        self.detail = detail
    }
}
