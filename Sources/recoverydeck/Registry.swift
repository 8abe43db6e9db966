/// Every `recoverydeck` command, one line each, in the order `recoverydeck --help` lists them.
///
/// How to add a command:
/// 1. Create `Commands/NameCommand.swift` with a `struct NameCommand: Command` (see `Framework/Command.swift`):
///    - `static let name = "name"` (a group member is `"group name"`, e.g. `"rr analyze"`),
///      `static let summary` (one line), optional `synopsis` and `discussion` for `--help`;
///    - `static let options: [OptionSpec]` (`.flag`, `.value`, `.repeated`) and `arguments: [ArgumentSpec]`;
///      `--db` and `--help` are global and come for free; offer `.flag("json", …)` where a script would
///      want the data;
///    - `init(_ parsed: ParsedArguments) throws(CommandError)`: typed values through `parsed.integer`,
///      `.date`, `.time`, `.choice`, which throw one clear sentence for bad input (exit 64);
///    - `validate()` for relations between values (still exit 64, nothing touched yet);
///    - `run(_ context: Context)`: data to `context.out`, messages to `context.say`; "now" from
///      `context.now` / `context.today`; the database from `try context.store()` (open it only after
///      checking what you can without it); throw `CommandError.failure("one sentence.")` for exit 1.
/// 2. Add `NameCommand.self,` to the list below.
/// 3. Add its help snapshot: run `recoverydeck name --help > Tests/CLITests/HelpSnapshots/name.txt`
///    (spaces in a group name become `-`), read it, and commit it; CLITests fails for a command without one.
enum Registry {
    static var commands: [any Command.Type] {
        [
            CheckinCommand.self,
            StatusCommand.self,
            HistoryCommand.self,
            RRAnalyzeCommand.self,
            ExportCommand.self,
            DeleteCommand.self,
            AnalyticsCommand.self,
            SettingsCommand.self,
            LightsCommand.self,
            DemoCommand.self,
            MeasureCommand.self,
            CancelCommand.self,
            WatchCommand.self,
            DoctorCommand.self,
            ImportCSVCommand.self,
            ImportPresetCommand<EliteHRVPreset>.self,
            ImportPresetCommand<HRV4TrainingPreset>.self,
            ImportRRCommand.self,
            RestoreCommand.self,
            ReportCommand.self,
            FindingsCommand.self,
            CalibrateCommand.self,
            CompareCommand.self,
            ExperimentPlanCommand.self,
            ExperimentStartCommand.self,
            ExperimentTonightCommand.self,
            ExperimentResultCommand.self,
            ExperimentStopCommand.self,
            ScanCommand.self,
            PairCommand.self,
            StrapCommand.self,
        ]
    }
}
