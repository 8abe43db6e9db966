import Platform

#if canImport(Glibc)
    import Glibc
#endif

// Everything this program writes holds health data: files it creates are the person's alone (an export
// redirected with `>` included), and a crash leaves no core dump with RR intervals in it.
umask(0o077)
ProcessIdentity.refuseCoreDumps()
let status = Program.run(arguments: Array(CommandLine.arguments.dropFirst())) { name in
    getenv(name).map { String(cString: $0) }
}
exit(status)
