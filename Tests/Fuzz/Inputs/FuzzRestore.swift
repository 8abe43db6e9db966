// libFuzzer target: the restore document reader (JSONStream + ExportDocumentReader, the checks a restore
// makes before it writes). Any bytes give items and a header, or one ExportError, never a trap. Oracle: the
// streamed value of a text agrees with the whole-text parser, in any chunk size, and so does its written form.
import JSON

func fuzzRestore(_ bytes: [UInt8]) {
    let (chunkSize, input) = chunked(bytes)
    var reader = ExportDocumentReader(JSONStream(bytes: input, chunkSize: chunkSize))
    do {
        while let item = try reader.next() {
            if case .day(let day) = item, let m = day.measurement {
                for rr in m.rawRR where !Plausible.sessionMs.contains(rr.receivedAtMs) {
                    fatalError("a sample time outside a session was accepted: \(rr.receivedAtMs)")
                }
            }
        }
        _ = try reader.header()
    } catch {
        if error.description.isEmpty { fatalError("an empty sentence") }
    }

    // Differential: the stream against JSONValue.parse, where the text is UTF-8 (parse takes a String).
    guard let text = String(validating: input, as: UTF8.self) else { return }
    var stream = JSONStream(bytes: input, chunkSize: chunkSize)
    let streamed: JSONValue?
    do {
        let v = try stream.value(limit: Int.max / 2)
        try stream.finish()
        streamed = v
    } catch { streamed = nil }
    let parsed = try? JSONValue.parse(text)
    guard streamed == parsed else { fatalError("stream and parser disagree: \(String(describing: streamed)) vs \(String(describing: parsed))") }
    if let parsed {
        let again = parsed.serialized()
        var back = JSONStream(bytes: Array(again.utf8), chunkSize: chunkSize)
        guard let reread = try? back.value(limit: Int.max / 2), reread == parsed else {
            fatalError("the written form does not read back: \(again)")
        }
        // Skipping reads past exactly what taking does.
        var skipper = JSONStream(bytes: input, chunkSize: chunkSize)
        do {
            try skipper.skipValue()
            try skipper.finish()
        } catch { fatalError("a value read whole could not be skipped: \(error)") }
    }
}
