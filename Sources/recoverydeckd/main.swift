import RecoveryCore

if CommandLine.arguments.dropFirst().first == "--print-light-table" {
    print(LightTable.markdown(), terminator: "")
} else {
    print("recoverydeckd: not built yet")
}
