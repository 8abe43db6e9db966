// The fuzz build compiles the export reader without the database: `Store` is only the namespace its
// `isHabitName` extension (Sources/Store/Store+HabitName.swift) hangs on.
final class Store {}
