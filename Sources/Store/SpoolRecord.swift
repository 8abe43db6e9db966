import RecoveryCore

/// The bytes of one spool file read as a record: an export document (full, one day) holding a morning
/// or a questionnaire, whose `generatedAt` is when the record was made. Pure, so the fuzz target reads
/// arbitrary files with exactly this code.
struct SpoolRecord: Hashable, Sendable {
    /// Why a file in the spool was not taken as a record, as the words after "<name>: ".
    struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        var description: String
    }

    /// The day's morning or its questionnaire (a document with both is read as the morning, as it was kept).
    var day: DayRecord
    var recordedAt: Int64

    static func decode(_ bytes: [UInt8]) -> Result<SpoolRecord, Refusal> {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Refusal(description: "not UTF-8 text"))
        }
        guard let document = try? ExportDocument(parsing: text), document.days.count == 1, let day = document.days.first
        else { return .failure(Refusal(description: "not a spooled record")) }
        guard day.measurement != nil || day.questionnaire != nil else {
            return .failure(Refusal(description: "holds neither a morning nor a questionnaire"))
        }
        return .success(SpoolRecord(day: day, recordedAt: document.generatedAt))
    }
}
