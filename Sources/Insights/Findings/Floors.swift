/// How much history each analysis needs before it says anything (Health Engine README: "baseline and
/// deviation at 21 days, change point at 45, two-variable correlation at 60, lagged context association at
/// 90"; "Not enough data yet" is a designed answer, never an error).
public enum Floors {
    /// Values of a channel in its 60-day norm before a day's deviation (T0) is stated.
    public static let deviation = 21
    /// Values of a series before a lasting shift in its level (a change point) is tested.
    public static let changePoint = 45
    /// Paired days before a same-morning (lag 0) association is tested.
    public static let correlation = 60
    /// Paired days before a lag-1 association is tested, and before temporal precedence (T3) is judged.
    public static let laggedAssociation = 90
    /// Days on each side (tagged and untagged) before a habit tag is tested.
    public static let habitDaysEachSide = 8

    /// The floor a test of `lag` needs.
    public static func pairedDays(for lag: Lag) -> Int { lag == .zero ? correlation : laggedAssociation }
}
