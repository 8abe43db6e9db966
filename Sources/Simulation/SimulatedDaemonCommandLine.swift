import Appliance
import BoxConfiguration
import Platform

/// `recoverydeckd-sim`: the box's daemon on a simulated box, for the stages that drive a daemon process (torture,
/// soak, reliability, the packaging stage's system-call trace). It takes `recoverydeckd`'s options and a
/// simulation file; it is never packaged.
public enum SimulatedDaemonCommandLine {
    public static let usage = """
        usage: recoverydeckd-sim [--config PATH] [--simulation PATH]
               recoverydeckd-sim --check-config [--config PATH] [--simulation PATH]
               recoverydeckd-sim --print-simulation | --print-simulation-table

        Runs the box's daemon on a simulated box (the tests; recoverydeck demo runs the same in its own
        process): time, clock, virtual strap and presses from the simulation file, and the control
        socket's press, advance and stop requests besides the box's own. Never on a real box.
        --config PATH          configuration file, as recoverydeckd reads it
        --simulation PATH      the simulation file (default: every key's default, real time)
        --check-config         read the configuration and simulation, report the first bad line, and exit
        --print-simulation     every simulation key with its default and meaning
        --print-simulation-table  the same as a Markdown table

        Exit status: 0 stopped cleanly, 1 could not start or its event loop failed, 64 usage,
        78 configuration error.
        """

    /// A fresh variant: one simulated box.
    public static func variant() -> DaemonCommandLine.Variant {
        let box = Box()
        return DaemonCommandLine.Variant(
            name: "recoverydeckd-sim", usage: usage,
            printed: [
                "--print-simulation": { Simulation.documentedDefaults },
                "--print-simulation-table": { Simulation.markdownTable },
            ],
            pathOptions: ["--simulation"],
            prepare: { (paths, configuration, options) throws(DaemonConfiguration.Problem) in
                var simulation = Simulation()
                if let path = paths["--simulation"] { simulation = try Simulation.load(path: path, for: configuration) }
                let simulated = SimulatedBox(simulation: simulation, logger: options.logger)
                simulated.prepare(&options, for: configuration)
                box.simulated = simulated
            },
            made: { (daemon) throws(DaemonError) in
                do throws(DaemonConfiguration.ValueError) { try box.simulated?.attach(daemon) } catch {
                    throw .configuration(error.reason)
                }
            })
    }

    /// The simulated box between `prepare` and `made` (one daemon a process).
    private final class Box {
        var simulated: SimulatedBox?
    }

    /// Runs `recoverydeckd-sim` for `arguments` (without the program name); returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        DaemonCommandLine.main(arguments, variant: variant())
    }
}
