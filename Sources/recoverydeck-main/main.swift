import HeartRateProtocol
import RecoveryDeckCommands

#if canImport(Glibc)
    import Glibc
#endif

Program.protectWhatItWrites()
// The box's own clock, and the strap's connection parameters loaded before every Bluetooth link (DESIGN §5).
let program = Program(clock: SystemCommandClock(), strapParameters: .strap)
exit(program.run(arguments: Array(CommandLine.arguments.dropFirst())) { getenv($0).map { String(cString: $0) } })
