#if canImport(Glibc)
    import Glibc
#endif

let status = Program.run(arguments: Array(CommandLine.arguments.dropFirst())) { name in
    getenv(name).map { String(cString: $0) }
}
exit(status)
