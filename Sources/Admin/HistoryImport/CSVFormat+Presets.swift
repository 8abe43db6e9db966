extension CSVFormat {
    /// Elite HRV's readings export (`Date Time Start`, `Type`, `HR`, `HRV`, `Rmssd`, …, `Duration`, and in
    /// newer exports `Tags`, `Notes`, `Value 1…3` after it). Morning readings are `Type` `readiness`; its raw
    /// RR `.txt` files go through `import rr`.
    public static let eliteHRV: CSVFormat = {
        var f = CSVFormat(
            name: "Elite HRV", map: ColumnMap([.date: "Date Time Start", .rmssd: "Rmssd", .lyingHR: "HR"]))
        f.rowFilter = RowFilter(
            column: "Type", value: "readiness", why: "only morning readiness readings are mornings")
        f.earliestOfDay = true
        f.skipEmptyRows = true
        f.zeroMeansMissing = [.rmssd, .lyingHR]
        f.fieldNotes = [.lyingHR: "the readiness reading is taken at rest before getting up"]
        let scaled = "a scaled ln(rMSSD) score, not a value the box keeps (Rmssd came across instead)"
        f.leftOutReasons = [
            "hrv": scaled, "morning readiness": "Elite HRV's own score, not a measurement",
            "tags": "Elite HRV's tags are not the box's habit list",
            "notes": "the box keeps a note with a check-in, and a check-in needs the box's five scores",
            "value 1": "Elite HRV's custom values have no meaning the box knows",
            "value 2": "Elite HRV's custom values have no meaning the box knows",
            "value 3": "Elite HRV's custom values have no meaning the box knows",
        ]
        return f
    }()

    /// HRV4Training's export: 64 columns whose names start with spaces, a blank second line, dates written
    /// YYYY-DD-MM by the Android app, `0.0` in the HRV columns on days without a measurement, and rows that
    /// may end in a comma. Its subjective items (1–10 scales, and no mood or life-stress item) cannot make
    /// the box's five-item check-in, so they are left out and said.
    public static let hrv4Training: CSVFormat = {
        var f = CSVFormat(name: "HRV4Training", map: ColumnMap([.date: "date", .rmssd: "rMSSD", .lyingHR: "HR"]))
        f.yearFirstDefault = .ydm
        f.zeroMeansMissing = [.rmssd, .lyingHR]
        f.earliestOfDay = true
        f.skipEmptyRows = true
        f.fieldNotes = [.lyingHR: "the morning reading's heart rate, taken lying or sitting at rest"]
        let subjective =
            "a check-in needs all five of the box's items on its 1–7 scale; HRV4Training has no mood or stress item and uses its own scale"
        for name in ["sleep_quality", "muscle_soreness", "fatigue", "mental_energy", "motivation", "sleep_time"] {
            f.leftOutReasons[name] = subjective
        }
        f.leftOutReasons["hrv4t_recovery_points"] = "HRV4Training's own score, not a measurement"
        return f
    }()
}
