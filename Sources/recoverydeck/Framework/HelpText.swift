/// Renders `--help` pages from the commands' own specs, so the help and the parser never disagree.
/// Pages are snapshot-tested (Tests/CLITests/HelpSnapshots).
enum HelpText {
    static let width = 100
    static let column = 26

    static func page(for command: any Command.Type) -> String {
        var text = usageLine(synopsis(of: command)) + "\n\n"
        text += wrap(command.summary, indent: 0) + "\n"
        if !command.discussion.isEmpty { text += "\n" + command.discussion.trimmingTrailingNewlines + "\n" }
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in command.arguments { text += row(argument.name, argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in command.options where !option.isHidden { text += row(label(option), option.help) }
        text += row("-h, --help", "Show this help.")
        text += "\nGLOBAL OPTIONS:\n"
        for option in Program.globalOptions where !option.isHidden && option.long != "help" {
            text += row(label(option), option.help)
        }
        return text
    }

    static func overview(_ commands: [any Command.Type]) -> String {
        var text = "USAGE: recoverydeck [--db PATH] COMMAND [OPTIONS]\n\n"
        text += wrap(Program.about, indent: 0) + "\n\nCOMMANDS:\n"
        for command in commands { text += row(command.name, command.summary) }
        text += "\nGLOBAL OPTIONS:\n"
        for option in Program.globalOptions where !option.isHidden { text += row(label(option), option.help) }
        text += "\nRun 'recoverydeck COMMAND --help' for a command's options.\n"
        text += "Exit status: 0 success, 1 failure, 64 usage error. Data goes to standard output, messages to\n"
        text += "standard error.\n"
        return text
    }

    static func group(_ prefix: String, _ commands: [any Command.Type]) -> String {
        var text = "USAGE: recoverydeck \(prefix) SUBCOMMAND [OPTIONS]\n\nSUBCOMMANDS:\n"
        for command in commands { text += row(String(command.name.dropFirst(prefix.count + 1)), command.summary) }
        text += "\nRun 'recoverydeck \(prefix) SUBCOMMAND --help' for a subcommand's options.\n"
        return text
    }

    /// `USAGE: recoverydeck …` wrapped at `width`, breaking only between option groups, continuation
    /// lines aligned under the first option.
    static func usageLine(_ synopsis: String) -> String {
        var groups: [String] = []
        var current = ""
        var depth = 0
        for character in synopsis {
            if character == " ", depth == 0 {
                // A bare option keeps its value placeholder on the same line: "--fatigue N".
                if current.hasPrefix("-"), !current.contains(" ") {
                    current.append(" ")
                    continue
                }
                if !current.isEmpty { groups.append(current) }
                current = ""
                continue
            }
            if current.hasSuffix(" "), character == "-" || character == "[" || character == "(" {
                groups.append(String(current.dropLast()))
                current = ""
            }
            if character == "[" || character == "(" { depth += 1 }
            if character == "]" || character == ")" { depth -= 1 }
            current.append(character)
        }
        if !current.isEmpty { groups.append(current) }
        let nameWords = synopsis.prefix { $0 != "-" && $0 != "[" && $0 != "(" }.split(separator: " ").count
        var line = "USAGE: recoverydeck " + groups.prefix(nameWords).joined(separator: " ")
        let indent = String(repeating: " ", count: line.count + 1)
        var lines: [String] = []
        for group in groups.dropFirst(nameWords) {
            if line.count + 1 + group.count > width, line != indent {
                lines.append(line)
                line = indent + group
            } else {
                line += (line == indent ? "" : " ") + group
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    static func synopsis(of command: any Command.Type) -> String {
        if let synopsis = command.synopsis { return "\(command.name) \(synopsis)" }
        var parts = [command.name]
        for option in command.options where !option.isHidden {
            // The short form where there is one: "[-o FILE]".
            var form = option.usageForm
            if let short = option.short { form = "-\(short)" + form.dropFirst(2 + option.long.count) }
            switch option.kind {
            case .repeated: parts.append("[\(form)]...")
            default: parts.append("[\(form)]")
            }
        }
        for argument in command.arguments { parts.append(argument.isOptional ? "[\(argument.name)]" : argument.name) }
        return parts.joined(separator: " ")
    }

    private static func label(_ option: OptionSpec) -> String {
        (option.short.map { "-\($0), " } ?? "") + option.usageForm
    }

    /// `  label   help…` with the help wrapped at `width` and aligned at `column`.
    private static func row(_ label: String, _ help: String) -> String {
        let lead = "  " + label
        let body = wrap(help, indent: column)
        if lead.count + 2 <= column {
            return lead + String(repeating: " ", count: column - lead.count) + body.dropFirst(column) + "\n"
        }
        return lead + "\n" + body + "\n"
    }

    /// Word-wraps `text` to `width` columns, every line indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = pad
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.count > indent, line.count + 1 + word.count > width {
                lines.append(line)
                line = pad
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var s = self
        while s.hasSuffix("\n") { s.removeLast() }
        return s
    }
}
