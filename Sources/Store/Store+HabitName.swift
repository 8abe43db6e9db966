extension Store {
    /// True for 1–32 characters of `a–z`, `0–9` and `-`. (Apart from the database code, so the export reader
    /// builds without it: Tests/Fuzz/run.sh.)
    public static func isHabitName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }
}
