import RecoveryCore

/// A morning metric a finding is about: the five baseline channels (spec §5.4), through RecoveryCore's
/// `Channel` so the values are exactly the ones the lights use (quality-passed rMSSD, completed orthostatic).
public typealias Outcome = Channel
