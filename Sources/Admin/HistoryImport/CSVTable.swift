/// The records of a CSV file (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes,
/// CRLF or LF), each with the line it starts on. The separator is a comma, or a semicolon when the
/// first line has semicolons and no commas (spreadsheets in decimal-comma locales write those).
struct CSVTable {
    struct Record {
        var line: Int
        var fields: [String]
    }

    var records: [Record]

    /// A record longer than this is no history row (HRV4Training's 64 columns take about 1 KiB): refused, so a
    /// crafted file cannot make the reader hold millions of fields.
    static let maximumRecordCharacters = 64 << 10
    /// More fields than this in one record is no history file either.
    static let maximumFields = 512

    init(_ text: String, file: String) throws(ImportError) {
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
        let separator: Character = !firstLine.contains(",") && firstLine.contains(";") ? ";" : ","
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var chars = text.makeIterator()
        var pending: Character? = nil
        func endRecord() {
            fields.append(field)
            field = ""
            // Blank lines carry no record.
            if !(fields.count == 1 && fields[0].trimmed.isEmpty) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields = []
        }
        var recordCharacters = 0
        while let c = pending ?? chars.next() {
            pending = nil
            recordCharacters += 1
            if recordCharacters > Self.maximumRecordCharacters {
                throw ImportError.line(
                    file, recordLine, "the record is longer than \(Self.maximumRecordCharacters >> 10) KiB: not a history file.")
            }
            if inQuotes {
                if c == "\"" {
                    if let next = chars.next() {
                        if next == "\"" {
                            field.append("\"")
                        } else {
                            inQuotes = false
                            afterQuote = true
                            pending = next
                        }
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard field.trimmed.isEmpty, !afterQuote else {
                    throw ImportError.line(file, line, "a quote inside an unquoted field.")
                }
                field = ""
                inQuotes = true
            case separator:
                // The field this separator ends, and the one it starts, make fields.count + 2.
                guard fields.count + 2 <= Self.maximumFields else {
                    throw ImportError.line(file, recordLine, "more than \(Self.maximumFields) fields: not a history file.")
                }
                fields.append(field)
                field = ""
                afterQuote = false
            case "\n", "\r\n", "\r":
                endRecord()
                recordCharacters = 0
                afterQuote = false
                line += 1
                recordLine = line
            default:
                if afterQuote, c != " ", c != "\t" {
                    throw ImportError.line(file, line, "text after a closing quote.")
                }
                field.append(c)
            }
        }
        if inQuotes { throw ImportError.line(file, recordLine, "a quoted field is never closed.") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        self.records = records
    }
}
