import Simulation

#if canImport(Glibc)
    import Glibc
#endif

exit(SimulatedDaemonCommandLine.main(Array(CommandLine.arguments.dropFirst())))
