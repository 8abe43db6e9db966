import Foundation
import HeartRateProtocol
import Platform
import Testing

@testable import BlueZ

/// The kernel numbers the Swift side writes as literals, against the list the C shims print on x86-64
/// and on aarch64 (Tests/abi/expected-figures.txt, checked by Tests/stages/16-arm64-abi.sh under
/// qemu-user): a literal that drifted from the headers fails here, on any machine.
@Suite struct ABIFiguresTests {
    static func figures() throws -> [String: UInt64] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("abi/expected-figures.txt"), encoding: .utf8)
        var figures: [String: UInt64] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            let value = parts[1].hasPrefix("0x") ? UInt64(parts[1].dropFirst(2), radix: 16) : UInt64(parts[1])
            figures[String(parts[0])] = value
        }
        return figures
    }

    @Test("the management interface's no-controller index and the address types are the headers' numbers")
    func bluetoothNumbers() throws {
        let f = try Self.figures()
        #expect(f.count > 30, "only \(f.count) figures read: the list is not being parsed")
        #expect(UInt64(ControllerIndex.none) == f["HCI_DEV_NONE"])
        #expect(UInt64(BluetoothAddressType.bredr.rawValue) == f["BDADDR_BREDR"])
        #expect(UInt64(BluetoothAddressType.lePublic.rawValue) == f["BDADDR_LE_PUBLIC"])
        #expect(UInt64(BluetoothAddressType.leRandom.rawValue) == f["BDADDR_LE_RANDOM"])
    }

    @Test("the event loop's readiness bits are epoll's")
    func epollBits() throws {
        let f = try Self.figures()
        #expect(UInt64(IOEvents.readable.rawValue) == f["EPOLLIN"])
        #expect(UInt64(IOEvents.priority.rawValue) == f["EPOLLPRI"])
        #expect(UInt64(IOEvents.writable.rawValue) == f["EPOLLOUT"])
        #expect(UInt64(IOEvents.error.rawValue) == f["EPOLLERR"])
        #expect(UInt64(IOEvents.hangup.rawValue) == f["EPOLLHUP"])
        #expect(UInt64(IOEvents.peerClosed.rawValue) == f["EPOLLRDHUP"])
    }
}
