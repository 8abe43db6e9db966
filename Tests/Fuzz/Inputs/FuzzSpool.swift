// libFuzzer target: a file in the daemon's spool (SpoolRecord.decode, what the daemon, doctor and delete run on
// every file there, which a member of the box's group can write). Any bytes give one record or one refusal
// sentence, never a trap. Oracle: a record written back as the spool writes it reads back the same.
func fuzzSpool(_ bytes: [UInt8]) {
    switch SpoolRecord.decode(bytes) {
    case .failure(let refusal):
        if refusal.description.isEmpty { fatalError("an empty sentence") }
    case .success(let record):
        guard record.day.measurement != nil || record.day.questionnaire != nil else {
            fatalError("a record with neither a morning nor a questionnaire was accepted")
        }
        let again = ExportDocument(generatedAt: record.recordedAt, full: true, habits: [], days: [record.day])
        guard case .success(let reread) = SpoolRecord.decode(Array(again.json.serialized().utf8)), reread == record
        else { fatalError("a spooled record does not read back the same once written") }
    }
}
