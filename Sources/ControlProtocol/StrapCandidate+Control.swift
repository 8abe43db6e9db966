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

    /// A strap from the `scan` request's answer, seen at `nowMs` on the reader's clock. It came over a socket:
    /// anything out of shape is a sentence, and a name is cut to the 64 bytes an advertisement could hold.
    init(controlJSON json: JSONValue, nowMs: Int64) throws(ControlMalformed) {
        let fields = try ControlFields(json, what: "strap in the reply to scan")
        guard let address = BluetoothAddress(try fields.string("address")) else { throw fields.malformed("address") }
        guard let type = BluetoothAddressType(word: try fields.string("address_type")) else {
            throw fields.malformed("address_type")
        }
        var rssi: Int8?
        if let dBm = try fields.optionalInt("rssi") {
            guard let fits = Int8(exactly: dBm) else { throw fields.malformed("rssi") }
            rssi = fits
        }
        let match: StrapMatch
        switch try fields.string("match") {
        case "name": match = .polarH10Name
        case "heart_rate_service": match = .heartRateService
        default: throw fields.malformed("match")
        }
        self.init(
            address: address, addressType: type, name: try fields.optionalString("name").map { String($0.prefix(64)) },
            rssi: rssi, match: match, lastSeenMs: nowMs)
    }
}
