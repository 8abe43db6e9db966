import Foundation
import TestSupport
import Testing

/// A fresh Debian 12 machine (debootstrap minbase and the toolchain) must pass the tests with only what
/// deploy/dev-packages.txt installs: every command the stages, the VM harness, the CI scripts and the Swift
/// tests run comes from a package in that list, or from Debian's minimal base. Missing `file` (virtme-ng
/// needs it) and `pgrep` once made every VM scenario "rc missing" and a coexistence check fail misleadingly.
struct TestPackagesTests {
    /// Each command and the Debian package that provides it. Kept by hand, checked three ways below: the
    /// package is in the list (or the base), `dpkg -S` agrees where the command is installed, and every
    /// installed command the scripts call is here.
    static let providers: [String: String] = [
        // Called by the stages, the VM harness and scenarios, and the CI scripts.
        "ar": "binutils", "readelf": "binutils", "nm": "binutils", "cc": "gcc", "python3": "python3",
        "btmgmt": "bluez", "btmon": "bluez", "gatttool": "bluez", "btvirt": "bluez-test-tools", "dbus-daemon": "dbus",
        "modprobe": "kmod", "pgrep": "procps", "groff": "groff-base", "man": "man-db", "mandoc": "mandoc",
        "rsvg-convert": "librsvg2-bin", "strace": "strace", "systemctl": "systemd", "systemd-analyze": "systemd",
        "dpkg": "dpkg", "dpkg-deb": "dpkg", "awk": "mawk", "bash": "bash", "grep": "grep", "sed": "sed",
        "tar": "tar", "cmp": "diffutils", "dmesg": "util-linux", "setpriv": "util-linux", "unshare": "util-linux",
        "setsid": "util-linux", "flock": "util-linux", "find": "findutils", "mount": "mount", "seq": "coreutils",
        "basename": "coreutils", "cat": "coreutils", "chmod": "coreutils", "chown": "coreutils", "cp": "coreutils",
        "cut": "coreutils", "date": "coreutils", "dirname": "coreutils", "head": "coreutils", "id": "coreutils",
        "ls": "coreutils", "mkdir": "coreutils", "mktemp": "coreutils", "rm": "coreutils", "sleep": "coreutils",
        "sort": "coreutils", "stat": "coreutils", "stdbuf": "coreutils", "tail": "coreutils", "tee": "coreutils",
        "timeout": "coreutils", "nproc": "coreutils", "touch": "coreutils", "tr": "coreutils", "uname": "coreutils",
        "wc": "coreutils", "expr": "coreutils", "paste": "coreutils", "rmdir": "coreutils", "sha256sum": "coreutils",
        "dpkg-query": "dpkg", "mountpoint": "util-linux", "ldd": "libc-bin", "make": "build-essential",
        "patch": "patch", "insmod": "kmod", "lsmod": "kmod", "gpiodetect": "gpiod", "gpioinfo": "gpiod",
        "gpioset": "gpiod", "apt-get": "apt", "diff": "diffutils", "od": "coreutils", "clang-14": "clang-14",
        "qemu-aarch64-static": "qemu-user-static",
        "chgrp": "coreutils", "getent": "libc-bin", "sqlite3": "sqlite3", "git": "git", "mmdebstrap": "mmdebstrap",
        // Called by the tools the stages run, not by our scripts: virtme-ng runs `file` on the kernel and
        // builds its initramfs from busybox; it boots qemu.
        "file": "file", "busybox": "busybox-static", "qemu-system-x86_64": "qemu-system-x86",
    ]

    /// Priority "required" packages: debootstrap's minbase variant installs them, so the list need not.
    static let base: Set<String> = [
        "bash", "coreutils", "debianutils", "diffutils", "dpkg", "findutils", "grep", "gzip", "mawk", "mount", "sed",
        "tar", "util-linux", "libc-bin", "apt",
    ]

    /// Words in command position that are not Debian commands: shell builtins and keywords, and the
    /// functions the scripts define (found separately), and the toolchain at /opt/swift.
    static let notPackaged: Set<String> = [
        "cd", "echo", "printf", "test", "true", "false", "kill", "wait", "exit", "export", "set", "unset", "shift",
        "read", "local", "source", "trap", "exec", "command", "return", "break", "continue", "eval", "umask",
        "swift", "[", "pwd",
    ]

    static var root: URL { NoNetworkCodeTests.repositoryRoot }

    /// The packages deploy/dev-packages.txt names, with any scope.
    static func listed() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("deploy/dev-packages.txt"), encoding: .utf8)
        return Set(
            text.split(separator: "\n").compactMap { line in
                line.hasPrefix("#") ? nil : line.split(separator: " ").first.map(String.init)
            })
    }

    /// One sentence per command whose package is neither in `list` nor in the base.
    static func unprovided(_ providers: [String: String], list: Set<String>) -> [String] {
        providers.sorted { $0.key < $1.key }.compactMap { command, package in
            list.contains(package) || base.contains(package)
                ? nil : "'\(command)' comes from the package \(package), which deploy/dev-packages.txt does not list"
        }
    }

    /// The shell scripts the tests run: the stages, the VM harness and its scenarios, Tests/run-all, .ci/run.
    static func scripts() throws -> [(name: String, text: String)] {
        var names = ["Tests/run-all", ".ci/run"]
        for folder in [
            "Tests/stages", "Tests/stages/daemon", "Tests/stages/gpio", "Tests/stages/gpiod", "Tests/vm", "Tests/vm/scenarios",
        ] {
            let entries = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            names += entries.filter { $0.hasSuffix(".sh") }.sorted().map { folder + "/" + $0 }
        }
        return try names.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Words in command position in `text`: the first word of a line or of a pipeline, list or substitution
    /// part, after assignments and wrappers (sudo, env, timeout N). Loose on purpose: what is not a command
    /// on PATH is dropped by the caller.
    static func commandWords(in text: String) -> Set<String> {
        var words: Set<String> = []
        for raw in text.split(separator: "\n") {
            let parts = codeOnly(String(raw)).flatMap {
                $0.components(separatedBy: CharacterSet(charactersIn: "|;&(`{!"))
            }
            for part in parts {
                var tokens = part.split(separator: " ").map(String.init)
                while let first = tokens.first,
                    first.range(of: #"^[A-Za-z_][A-Za-z_0-9]*="#, options: .regularExpression) != nil
                        || ["sudo", "env", "exec", "setsid", "then", "do", "else", "if", "while", "until", "time"]
                            .contains(first)
                {
                    if first == "setsid" { words.insert(first) }
                    tokens.removeFirst()
                }
                if tokens.first == "timeout" {
                    words.insert("timeout")
                    tokens.removeFirst()
                    while let option = tokens.first, option.hasPrefix("-") {
                        tokens.removeFirst()
                        if option == "-s" || option == "-k", !tokens.isEmpty { tokens.removeFirst() }
                    }
                    if !tokens.isEmpty { tokens.removeFirst() }  // the duration
                }
                guard let word = tokens.first,
                    word.range(of: #"^[a-z][a-z0-9_.+-]*$"#, options: .regularExpression) != nil
                else { continue }
                words.insert(word)
            }
        }
        return words
    }

    /// `line` with quoted strings and a trailing comment reduced to a placeholder word `Q`, then the bodies of
    /// its `$(…)` substitutions (inside double quotes too), each as a line of its own.
    static func codeOnly(_ line: String) -> [String] {
        let chars = Array(line)
        /// The body of the substitution whose text starts at `start`, and the index after its `)`.
        func substitution(from start: Int) -> (String, Int) {
            var depth = 1
            var quoted = false
            var j = start
            while j < chars.count {
                let c = chars[j]
                if c == "\\" {
                    j += 2
                    continue
                }
                if c == "\"" {
                    quoted.toggle()
                } else if !quoted, c == "(" {
                    depth += 1
                } else if !quoted, c == ")" {
                    depth -= 1
                    if depth == 0 { return (String(chars[start..<j]), j + 1) }
                }
                j += 1
            }
            return (String(chars[start...]), chars.count)
        }
        var out = ""
        var pieces: [String] = []
        var inQuote = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\" {
                i += 2
                continue
            }
            if c == "$", i + 1 < chars.count, chars[i + 1] == "(" {
                let (body, after) = substitution(from: i + 2)
                pieces += codeOnly(body)
                if !inQuote { out += "Q" }
                i = after
                continue
            }
            if inQuote {
                if c == "\"" { inQuote = false }
            } else if c == "\"" {
                inQuote = true
                out += "Q"
            } else if c == "'" {
                var j = i + 1
                while j < chars.count, chars[j] != "'" { j += 1 }
                out += "Q"
                i = j
            } else if c == "#", out.isEmpty || out.last == " " {
                break
            } else {
                out.append(c)
            }
            i += 1
        }
        return [out] + pieces
    }

    /// Functions a script defines (`name() {`): they are called like commands.
    static func functions(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"^\s*([a-z_][a-z0-9_]*)\s*\(\)"#, options: .anchorsMatchLines)
        return Set(
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            })
    }

    static func onPath(_ command: String) -> String? {
        for dir in ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            let path = dir + "/" + command
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// The standard output of `arguments`, whatever the exit status; nil when it cannot start.
    static func run(_ arguments: [String]) -> String? {
        guard let child = try? Child("/usr/bin/env", arguments, stdout: .pipe, stderr: .null) else { return nil }
        let data = child.output!.readDataToEndOfFile()
        // dpkg -S exits 1 when one of several paths is unknown and still prints the others.
        guard (try? child.wait()) != nil else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    @Test("a command whose package is not in the list is reported by name")
    func checkerOnLiterals() {
        let list: Set<String> = ["bluez", "file"]
        #expect(Self.unprovided(["btmgmt": "bluez", "file": "file", "cat": "coreutils"], list: list) == [])
        #expect(
            Self.unprovided(["pgrep": "procps", "file": "file"], list: list) == [
                "'pgrep' comes from the package procps, which deploy/dev-packages.txt does not list"
            ])
        #expect(
            Self.commandWords(
                in: "x=1 timeout -s TERM 8 setpriv --reuid=nobody strace -f a | grep -q b && pgrep c\n# cat")
                == ["timeout", "setpriv", "grep", "pgrep"])
    }

    @Test("every command the test scripts run comes from a package in deploy/dev-packages.txt or the base")
    func everyCommandHasAListedPackage() throws {
        for problem in Self.unprovided(Self.providers, list: try Self.listed()) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test("every installed command the scripts call has a provider, and dpkg agrees with the table")
    func tableMatchesScriptsAndDpkg() throws {
        var called: Set<String> = []
        var defined: Set<String> = []
        for script in try Self.scripts() {
            called.formUnion(Self.commandWords(in: script.text))
            defined.formUnion(Self.functions(in: script.text))
        }
        // Sourced by every scenario: its functions are called from them.
        defined.formUnion(
            Self.functions(
                in: try String(contentsOf: Self.root.appendingPathComponent("Tests/vm/lib.sh"), encoding: .utf8)))
        let commands = called.subtracting(defined).subtracting(Self.notPackaged).filter { Self.onPath($0) != nil }
        #expect(commands.count > 40, "only \(commands.count) commands found: the scanner is not reading the scripts")
        for command in commands.sorted() where Self.providers[command] == nil {
            Issue.record(
                "the test scripts run '\(command)', which TestPackagesTests.providers does not map to a package")
        }
        // Where dpkg knows the file, its package is the table's or one the table's package depends on directly.
        // One dpkg -S and one dpkg-query for all of them: each call reads dpkg's whole database.
        guard Self.onPath("dpkg") != nil else { return }
        var candidates: [String: [String]] = [:]
        for command in Self.providers.keys {
            guard let path = Self.onPath(command) else { continue }
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            candidates[command] = [path, real, real.hasPrefix("/usr/") ? String(real.dropFirst(4)) : "/usr" + real]
        }
        var owners: [String: String] = [:]  // path → package
        for line in (Self.run(["dpkg", "-S"] + Set(candidates.values.joined()).sorted()) ?? "").split(separator: "\n") {
            guard let colon = line.range(of: ": ") else { continue }
            let packages = line[..<colon.lowerBound].split(separator: ",").map {
                String($0.trimmingCharacters(in: .whitespaces).split(separator: ":").first ?? "")
            }
            owners[String(line[colon.upperBound...])] = packages.first
        }
        // Every installed package's dependencies, in one dpkg-query: Debian 13 splits a compiler into layers
        // (gcc → gcc-14 → gcc-14-x86-64-linux-gnu, which owns the binary), so the owner may be a few steps down.
        var depends: [String: Set<String>] = [:]
        let query = ["dpkg-query", "-W", "-f=${Package}\t${Depends},${Pre-Depends}\n"]
        for line in (Self.run(query) ?? "").split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2 else { continue }
            depends[String(fields[0])] = Set(
                fields[1].split(whereSeparator: { ",|".contains($0) }).compactMap {
                    $0.split(separator: " ").first.map { String($0.split(separator: ":").first ?? "") }
                })
        }
        for (command, paths) in candidates.sorted(by: { $0.key < $1.key }) {
            // A file made by a maintainer script or an alternative has no owner: nothing to compare.
            guard let owner = paths.lazy.compactMap({ owners[$0] }).first else { continue }
            let package = Self.providers[command]!
            // The table's package is not installed here (a build root with fewer packages): nothing to compare.
            guard depends[package] != nil else { continue }
            #expect(
                Self.reaches(package, owner, through: depends, steps: 3),
                "dpkg says \(command) is in \(owner), not \(package) nor a package it depends on")
        }
    }

    /// Whether `owner` is `package` or one it depends on, directly or through at most `steps` dependencies.
    static func reaches(_ package: String, _ owner: String, through depends: [String: Set<String>], steps: Int) -> Bool {
        var frontier: Set<String> = [package]
        var seen = frontier
        for _ in 0...steps {
            if frontier.contains(owner) { return true }
            frontier = Set(frontier.flatMap { depends[$0, default: []] }).subtracting(seen)
            seen.formUnion(frontier)
        }
        return false
    }
}
