/// The effects planted in synthetic people, so that the insights engine's findings can be checked against a
/// known truth. A habit tagged on day n's questionnaire describes the evening or day before ("alcohol last
/// night", "hard training yesterday"), so its effect lands on day n's own morning (a same-day association in
/// the data; one-day lags carry nothing planted).
public struct HabitEffect: Hashable, Sendable {
    public var habit: String
    /// Chance the habit is tagged on a given day.
    public var probability: Double
    /// Multiplies the morning's rMSSD target.
    public var rmssdFactor: Double
    /// Added to the morning's lying HR, bpm.
    public var lyingHRDelta: Double
    /// Added to the orthostatic peak rise, bpm.
    public var peakRiseDelta: Double
    /// Added to each score before rounding (per item, in `SubjectiveItem` order).
    public var scoreDeltas: [Double]

    public init(
        habit: String, probability: Double, rmssdFactor: Double, lyingHRDelta: Double, peakRiseDelta: Double,
        scoreDeltas: [Double]
    ) {
        self.habit = habit
        self.probability = probability
        self.rmssdFactor = rmssdFactor
        self.lyingHRDelta = lyingHRDelta
        self.peakRiseDelta = peakRiseDelta
        self.scoreDeltas = scoreDeltas
    }

    /// The starter habits' planted effects. Alcohol lowers the morning's rMSSD by 20 % (the literature reports
    /// roughly 15–25 % after moderate drinking) and raises lying HR; hard training raises lying HR and the
    /// orthostatic peak; a late night and late caffeine cost sleep; illness costs everything.
    public static let planted: [HabitEffect] = [
        HabitEffect(
            habit: "alcohol", probability: 0.20, rmssdFactor: 0.80, lyingHRDelta: 3.0, peakRiseDelta: 2.0,
            scoreDeltas: [-0.5, 0, 0, 0, -0.8]),
        HabitEffect(
            habit: "late-caffeine", probability: 0.15, rmssdFactor: 0.96, lyingHRDelta: 0.5, peakRiseDelta: 0,
            scoreDeltas: [0, 0, 0, 0, -0.8]),
        HabitEffect(
            habit: "hard-training", probability: 0.25, rmssdFactor: 0.92, lyingHRDelta: 4.0, peakRiseDelta: 3.0,
            scoreDeltas: [-0.8, 0, -1.5, 0, 0]),
        HabitEffect(
            habit: "late-night", probability: 0.10, rmssdFactor: 0.92, lyingHRDelta: 1.0, peakRiseDelta: 0,
            scoreDeltas: [-0.7, -0.3, 0, 0, -1.0]),
        HabitEffect(
            habit: "illness", probability: 0.03, rmssdFactor: 0.70, lyingHRDelta: 6.0, peakRiseDelta: 4.0,
            scoreDeltas: [-1.5, -1.5, -1.0, -0.5, -1.0]),
    ]
}
