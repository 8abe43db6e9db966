import RecoveryCore

/// The HRV4Training-style measurements CSV that GoldenCheetah's "Import HRV measures" reads
/// (GoldenCheetah `src/FileIO/HrvMeasuresCsvImport.cpp`: a `timestamp_measurement` in ISO 8601 wins over
/// `date`; `rMSSD` is required; `HR`, `AVNN`, `SDNN` are read when present; a row without rMSSD > 0 is skipped;
/// every row needs as many cells as the header). `date` is written as HRV4Training's Android app writes it,
/// YYYY-DD-MM, with `time` HH:MM, so readers of HRV4Training's own export (the box's `import hrv4training`
/// among them) read it too. One row per morning with a valid rMSSD; `HR` is the lying heart rate, empty when
/// the morning has none.
public enum HRVMeasuresTable {
    public static let columns = ["timestamp_measurement", "date", "time", "HR", "AVNN", "SDNN", "rMSSD"]

    /// - Parameter startTime: the local time of day a measurement started (the caller knows the time zone).
    public static func csv(_ days: [DayRecord], startTime: (MorningMeasurement) -> MinuteOfDay) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for day in days {
            guard let rmssd = Channel.rmssd.value(in: day), let m = day.measurement else { continue }
            let time = startTime(m).description
            let d = day.date
            let ydm = "\(d.iso.prefix(4))-\(pad(d.day))-\(pad(d.month))"
            let cells = [
                "\(d.iso)T\(time):00", ydm, time, DayTable.number(Channel.lyingHR.value(in: day)),
                DayTable.number(m.hrv?.meanRRMs), DayTable.number(m.hrv?.sdnnMs), DayTable.number(rmssd),
            ]
            text += cells.joined(separator: ",") + "\n"
        }
        return text
    }

    private static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
