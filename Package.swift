// swift-tools-version: 6.0
// RecoveryDeck: a bedside recovery box. One package, no outside Swift packages;
// C libraries come from Debian through module maps (see README "Architecture").
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "RecoveryDeck",
    products: [
        .executable(name: "recoverydeck", targets: ["recoverydeck"]),
        .executable(name: "recoverydeckd", targets: ["recoverydeckd"]),
        .executable(name: "h10sim", targets: ["h10sim"]),
    ],
    targets: [
        // C shims: thin module maps / static inline wrappers.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CGPIOD", linkerSettings: [.linkedLibrary("gpiod")]),
        .target(name: "CBlueZ"),
        .target(name: "CPlatform"),

        // Pure cores: no I/O, no clock.
        .target(
            name: "RecoveryCore",
            swiftSettings: strict + [.define("RECOVERYCORE_INVARIANTS", .when(configuration: .debug))]),
        .target(name: "HeartRateProtocol", swiftSettings: strict),
        // The JSON value and the streaming reader: exports, `--json` output and the control protocol.
        .target(name: "JSON", swiftSettings: strict),
        .target(name: "Insights", dependencies: ["RecoveryCore"], swiftSettings: strict),

        // I/O edges.
        .target(name: "Platform", dependencies: ["CPlatform"], swiftSettings: strict),
        // The wall clock in the cores' terms: Platform's civil time as a LocalDate and a MinuteOfDay.
        .target(name: "LocalClock", dependencies: ["Platform", "RecoveryCore"], swiftSettings: strict),
        .target(name: "Store", dependencies: ["CSQLite", "RecoveryCore", "Platform", "JSON"], swiftSettings: strict),
        // The daemon's control socket as both ends see it: requests, refusals, the scan's answer and the CLI's client.
        .target(
            name: "ControlProtocol", dependencies: ["JSON", "Platform", "BlueZ", "HeartRateProtocol"], swiftSettings: strict),
        .target(name: "BlueZ", dependencies: ["CBlueZ", "Platform", "HeartRateProtocol"], swiftSettings: strict),
        .target(name: "Panel", dependencies: ["CGPIOD", "Platform", "RecoveryCore"], swiftSettings: strict),
        // recoverydeck.conf: its keys, defaults and parser, read by the daemon, doctor and the CLI.
        .target(
            name: "BoxConfiguration",
            dependencies: ["ControlProtocol", "Panel", "BlueZ", "HeartRateProtocol", "RecoveryCore", "Platform"],
            swiftSettings: strict),
        // Administration over SSH: readiness checks, charts, history import (doctor, report, import).
        .target(
            name: "Admin", dependencies: ["BoxConfiguration", "Store", "RecoveryCore", "Insights", "Platform", "Panel", "CBlueZ", "CGPIOD"],
            swiftSettings: strict),
        .target(
            name: "Appliance",
            dependencies: [
                "RecoveryCore", "HeartRateProtocol", "Platform", "LocalClock", "JSON", "ControlProtocol", "BoxConfiguration",
                "Store", "BlueZ", "Panel", "Insights",
            ],
            swiftSettings: strict),
        // A simulated box, never on a real one: the stepped and scaled clocks, the virtual strap, the simulation
        // file and the presses and clock moves a simulated box answers. Only the demo, recoverydeckd-sim and the
        // tests link it (a project test checks that recoverydeckd holds none of it).
        .target(
            name: "Simulation",
            dependencies: [
                "Appliance", "BoxConfiguration", "ControlProtocol", "JSON", "LocalClock", "Panel", "Platform", "RecoveryCore",
            ],
            swiftSettings: strict),

        // The command line: every command and the program that runs them, given its clock and what the Bluetooth
        // commands load for a strap by the executable that links it.
        .target(
            name: "RecoveryDeckCommands",
            dependencies: [
                "RecoveryCore", "HeartRateProtocol", "Insights", "JSON", "ControlProtocol", "BoxConfiguration", "Store",
                "Platform", "LocalClock", "BlueZ", "Admin", "Appliance", "Simulation",
            ],
            path: "Sources/recoverydeck", swiftSettings: strict),
        // A stated clock for the command line, never on a real box: only recoverydeck-fixture and the tests link it.
        .target(
            name: "RecoveryDeckCommandsTesting",
            dependencies: ["RecoveryDeckCommands", "LocalClock", "Platform", "RecoveryCore"], swiftSettings: strict),

        // Executables.
        .executableTarget(
            name: "recoverydeck", dependencies: ["RecoveryDeckCommands", "HeartRateProtocol"],
            path: "Sources/recoverydeck-main", swiftSettings: strict),
        .executableTarget(name: "recoverydeckd", dependencies: ["Appliance"], swiftSettings: strict),
        // recoverydeckd on a simulated box, for the stages that drive a daemon process (torture, soak, reliability).
        .executableTarget(name: "recoverydeckd-sim", dependencies: ["Simulation"], swiftSettings: strict),
        // recoverydeck at a stated time, or without loading a strap's connection parameters, for the tests and the
        // stages that need either (`recoverydeck-fixture --now YYYY-MM-DDTHH:MM COMMAND …`).
        .executableTarget(
            name: "recoverydeck-fixture",
            dependencies: ["RecoveryDeckCommands", "RecoveryDeckCommandsTesting", "HeartRateProtocol"],
            swiftSettings: strict),
        .executableTarget(
            name: "h10sim", dependencies: ["RecoveryCore", "HeartRateProtocol", "Platform", "BlueZ"],
            swiftSettings: strict),

        // Test tools and benchmarks (not shipped): the HRV oracle stage's dump, the core benchmark and its
        // malloc counter.
        .executableTarget(name: "hrv-dump", dependencies: ["RecoveryCore"], path: "Tests/Tools/HRVDump"),
        .target(name: "CMallocCounter", path: "Tests/Benchmarks/CMallocCounter"),
        .executableTarget(
            name: "core-bench", dependencies: ["RecoveryCore", "CMallocCounter"], path: "Tests/Benchmarks/CoreBench"),
        .executableTarget(
            name: "insights-bench", dependencies: ["Insights", "RecoveryCore"], path: "Tests/Benchmarks/InsightsBench",
            exclude: ["run.sh"], swiftSettings: strict),
        .executableTarget(
            name: "not-like-you-bench", dependencies: ["Insights", "RecoveryCore"],
            path: "Tests/Benchmarks/NotLikeYouBench", exclude: ["run.sh"], swiftSettings: strict),
        .executableTarget(
            name: "bluez-bench", dependencies: ["BlueZ", "HeartRateProtocol", "Platform"],
            path: "Tests/Benchmarks/BlueZBench", exclude: ["run.sh"], swiftSettings: strict),

        // Tests: the helpers they share, then one target a module.
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        .target(name: "TestSupport", dependencies: ["CTestSupport", "Platform"], path: "Tests/TestSupport"),
        .testTarget(name: "RecoveryCoreTests", dependencies: ["RecoveryCore"]),
        .testTarget(name: "HeartRateProtocolTests", dependencies: ["HeartRateProtocol", "Platform", "TestSupport"]),
        .testTarget(name: "InsightsTests", dependencies: ["Insights", "RecoveryCore"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "TestSupport"]),
        .testTarget(name: "LocalClockTests", dependencies: ["LocalClock", "Platform", "RecoveryCore"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "JSON", "RecoveryCore", "CSQLite", "TestSupport"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "HeartRateProtocol", "Platform", "h10sim", "TestSupport"]),
        // The panel's code on the simulated chip behind the same interface as the libgpiod backend.
        .testTarget(name: "PanelTests", dependencies: ["Panel", "Platform", "RecoveryCore", "Simulation"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "ControlProtocol", "JSON", "Panel", "RecoveryCore"]),
        .testTarget(
            name: "ApplianceTests",
            dependencies: [
                "Appliance", "BoxConfiguration", "ControlProtocol", "JSON", "RecoveryCore", "Store", "Panel", "Platform",
                "LocalClock", "TestSupport", "Simulation",
            ]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "Store", "RecoveryCore", "Insights", "LocalClock", "Platform", "RecoveryDeckCommands",
                "RecoveryDeckCommandsTesting", "recoverydeck", "recoverydeck-fixture", "TestSupport",
            ],
            exclude: ["HelpSnapshots"]),
        .testTarget(name: "ProjectTests", dependencies: ["TestSupport"]),
        .testTarget(name: "AdminTests", dependencies: ["Admin", "RecoveryCore", "Panel", "Store", "Simulation"]),
    ],
    swiftLanguageModes: [.v6]
)
