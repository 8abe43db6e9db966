import RecoveryCore

/// Mornings from RR files, one per morning, named by date: `2026-03-01.txt`, or Elite HRV's raw
/// export `2026-03-01 06-42-10.txt`. Each file holds RR intervals in any layout `RRFileFormat` reads (Elite
/// HRV, Kubios, Welltory, Polar Sensor Logger, a CSV with an `rr` column; seconds recognised). rMSSD comes from the box's own morning window and artifact rules (spec §5.1), so an
/// imported morning is comparable with a measured one; a recording that fails the quality rules is
/// imported as failed, and does not count.
public enum RRHistory {
    public struct File: Sendable {
        public var name: String
        /// The file's text, or the file already read as it streamed in (`ImportFiles.rrFile`).
        public var content: Content

        public enum Content: Sendable {
            case text(String)
            case read(Swift.Result<RRFileFormat, ImportError>)
        }

        public init(name: String, text: String) {
            self.name = name
            content = .text(text)
        }

        public init(name: String, format: Swift.Result<RRFileFormat, ImportError>) {
            self.name = name
            content = .read(format)
        }
    }

    public struct Result: Sendable {
        public var mornings: [ImportedMorning]
        /// Later recordings of a day that already has one (a morning is the day's first).
        public var skipped: [(name: String, date: LocalDate)]
        /// How files were read when that is worth saying (seconds converted to ms), one sentence each.
        public var notes: [String] = []
    }

    public static func read(_ files: [File], directory: String) throws(ImportError) -> Result {
        var dated: [(date: LocalDate, minute: MinuteOfDay?, file: File)] = []
        for file in files {
            guard let (date, minute) = parseName(file.name) else {
                throw ImportError(
                    "\(directory)/\(file.name) is not named by date (YYYY-MM-DD…); move it out of the folder.")
            }
            dated.append((date, minute, file))
        }
        guard !dated.isEmpty else { throw ImportError("\(directory) has no RR files.") }
        // Earliest recording of each day first; files without a time sort before timed ones.
        dated.sort {
            ($0.date, $0.minute?.minutes ?? -1, $0.file.name) < ($1.date, $1.minute?.minutes ?? -1, $1.file.name)
        }
        var mornings: [ImportedMorning] = []
        var skipped: [(String, LocalDate)] = []
        var notes: [String] = []
        for entry in dated {
            let format = try parse(entry.file, directory: directory)
            let intervals = format.intervalsMs
            if let note = format.note { notes.append("\(entry.file.name): \(note)") }
            if mornings.last?.date == entry.date {
                skipped.append((entry.file.name, entry.date))
                continue
            }
            var morning = ImportedMorning(date: entry.date, origin: entry.file.name)
            morning.startMinute = entry.minute
            let analysis = HRVAnalysis.analyze(intervals, window: .morning)
            morning.hrv = analysis.metrics
            morning.quality = analysis.quality
            var clock = 0.0
            morning.rawRR = intervals.map { ms in
                clock += ms
                return RRInterval(raw: UInt16(min((ms * 1024 / 1000).rounded(), 65535)), receivedAtMs: Int64(clock))
            }
            mornings.append(morning)
        }
        return Result(mornings: mornings, skipped: skipped, notes: notes)
    }

    /// The intervals of one file (`RRFileFormat`); the first bad line throws.
    static func parse(_ file: File, directory: String) throws(ImportError) -> RRFileFormat {
        let format: RRFileFormat
        switch file.content {
        case .text(let text):
            do {
                format = try RRFileFormat.read(text)
            } catch {
                throw ImportError(error.sentence(file: "\(directory)/\(file.name)"))
            }
        case .read(let result): format = try result.get()
        }
        guard format.intervalsMs.count >= 2 else {
            throw ImportError(
                "\(directory)/\(file.name) holds \(format.intervalsMs.count) RR intervals; a morning needs many.")
        }
        return format
    }

    /// "2026-03-01.txt", "2026-03-01 06-42-10.txt", "2026-03-01T06:42.rr".
    static func parseName(_ name: String) -> (LocalDate, MinuteOfDay?)? {
        let chars = Array(name)
        guard chars.count >= 10, let date = LocalDate(iso: String(chars[0..<10])) else { return nil }
        let rest = chars[10...]
        if rest.isEmpty || rest.first == "." { return (date, nil) }
        guard rest.first == " " || rest.first == "T" || rest.first == "_", chars.count >= 16 else { return (date, nil) }
        let hh = String(chars[11..<13])
        let mm = String(chars[14..<16])
        guard chars[13] == "-" || chars[13] == ":", let minute = MinuteOfDay(hhmm: hh + ":" + mm) else {
            return (date, nil)
        }
        return (date, minute)
    }
}
