// libFuzzer target: the rows of the `setting` table (Settings.read(rows:), what the daemon, doctor and every command
// run on rows a member of the box's group can write with sqlite3). Any rows give a record and one sentence per row
// that does not read, never a trap. Oracle: the record written back as the store writes it reads back the same,
// with no sentence: the one codec agrees with itself.
func fuzzSettings(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    // A line starting with a byte below 16 names a known key by that byte, so every key's reader is reached often;
    // any other line is `key=value`.
    var rows: [(key: SettingKey, value: String)] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if let first = line.unicodeScalars.first, first.value < 16 {
            let key = SettingKey.known[Int(first.value) % SettingKey.known.count]
            rows.append((key, String(line.unicodeScalars.dropFirst())))
        } else if let equals = line.firstIndex(of: "=") {
            rows.append((SettingKey(rawValue: String(line[..<equals])), String(line[line.index(after: equals)...])))
        }
    }
    let read = Settings.read(rows: rows)
    if read.problems.count > rows.count { fatalError("more sentences than rows") }
    if read.problems.contains(where: \.isEmpty) { fatalError("an empty sentence") }
    let written = read.settings.rows().compactMap { key, value in value.map { (key: key, value: $0) } }
    for (key, value) in written where value.count > Settings.longest(key) {
        fatalError("\(key.rawValue) is written longer than restore reads it back: \(value.count) characters")
    }
    let again = Settings.read(rows: written)
    guard again.problems.isEmpty else { fatalError("a written setting does not read: \(again.problems)") }
    guard again.settings == read.settings else { fatalError("the settings do not read back the same once written") }
}
