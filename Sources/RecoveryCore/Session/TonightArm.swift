/// What one night of a running experiment asks at the bedside: do the habit this evening, or leave it
/// out (raw values as the store keeps them).
public enum TonightArm: String, Hashable, Sendable, CaseIterable {
    case habit
    case without
}
