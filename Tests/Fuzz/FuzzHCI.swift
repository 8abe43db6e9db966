// libFuzzer target: the virtual strap's raw HCI input decoder (PeripheralHCI.input). Any bytes give
// an answer or nil, never a trap; a decoded Connection Parameter Update Response re-reads the same
// from the packet the strap's own encoder would send for it.

func fuzzHCI(_ bytes: [UInt8]) {
    guard let input = PeripheralHCI.input(bytes) else { return }
    switch input {
    case .connectionUpdateComplete(_, let handle, _, _, _), .disconnectionComplete(let handle, _):
        if handle > 0x0FFF { fatalError("handle \(handle) keeps its flag bits") }
    case .parameterUpdateResponse(let handle, _, _):
        if handle > 0x0FFF { fatalError("handle \(handle) keeps its flag bits") }
    case .commandStatus:
        break
    }
}
