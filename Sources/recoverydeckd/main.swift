import Appliance

#if canImport(Glibc)
    import Glibc
#endif

exit(DaemonCommandLine.main(Array(CommandLine.arguments.dropFirst())))
