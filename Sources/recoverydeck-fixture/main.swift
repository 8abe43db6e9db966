import HeartRateProtocol
import RecoveryDeckCommands
import RecoveryDeckCommandsTesting

#if canImport(Glibc)
    import Glibc
#endif

// recoverydeck for the tests and the stages, never shipped: the same program, given a stated clock or no strap
// parameters to load by options of its own before the command's words.
//
//     recoverydeck-fixture [--now YYYY-MM-DDTHH:MM] [--skip-connection-parameters] COMMAND [ARGUMENTS…]
//
// --now: the local time every command takes as now, in the system time zone; the clock guard trusts it.
// --skip-connection-parameters: the Bluetooth commands load nothing for the strap, so the Bluetooth VM stage can
// show what a strap does with the kernel's defaults (its request refused, the 0x3B drop).
Program.protectWhatItWrites()
var words = Array(CommandLine.arguments.dropFirst())
var clock: any CommandClock = SystemCommandClock()
var strapParameters: LEConnectionParameters? = .strap
while let word = words.first {
    if word == "--skip-connection-parameters" {
        strapParameters = nil
        words.removeFirst()
    } else if word == "--now" || word.hasPrefix("--now=") {
        let text = word == "--now" ? (words.count > 1 ? words[1] : "") : String(word.dropFirst("--now=".count))
        words.removeFirst(word == "--now" ? min(2, words.count) : 1)
        guard let stated = StatedClock(stating: text) else {
            let refusal = Array(
                ("recoverydeck-fixture: --now must be a local time written YYYY-MM-DDTHH:MM, not '\(text)'.\n"
                    + "Try 'recoverydeck-fixture --now YYYY-MM-DDTHH:MM COMMAND …'.\n").utf8)
            _ = refusal.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(64)
        }
        clock = stated
    } else {
        break
    }
}
let program = Program(clock: clock, strapParameters: strapParameters)
exit(program.run(arguments: words) { getenv($0).map { String(cString: $0) } })
