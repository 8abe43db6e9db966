import BlueZ
import HeartRateProtocol
import JSON

extension StrapCandidate {
    /// One strap as the `scan` request's answer lists it.
    public var controlJSON: JSONValue {
        .object([
            ("name", JSONValue(name)), ("address", .string(address.description)),
            ("address_type", .string(addressType.word)),
            ("rssi", JSONValue(rssi.map { Int64($0) })),
            ("match", .string(match == .polarH10Name ? "name" : "heart_rate_service")),
        ])
    }

    /// A strap from the `scan` request's answer; nil for anything malformed (it came over a socket).
    public init?(controlJSON json: JSONValue, nowMs: Int64) {
        guard let text = json["address"]?.stringValue, let address = BluetoothAddress(text),
            let typeWord = json["address_type"]?.stringValue, let type = BluetoothAddressType(word: typeWord)
        else { return nil }
        let name = json["name"]?.stringValue.map { String($0.prefix(64)) }
        let rssi = json["rssi"]?.int64Value.flatMap { Int8(exactly: $0) }
        let match: StrapMatch = json["match"]?.stringValue == "name" ? .polarH10Name : .heartRateService
        self.init(
            address: address, addressType: type, name: name, rssi: rssi,
            match: match, lastSeenMs: nowMs)
    }
}
