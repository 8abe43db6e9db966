/// What became of the orthostatic part of a morning (spec §6.1, §6.2).
public enum OrthostaticStatus: String, Sendable, CaseIterable {
    case completed
    case skipped
    case failed
}
