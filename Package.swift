// swift-tools-version: 6.1
// UserBackendKit: one `UserBackend` protocol in front of Firebase Authentication,
// NCMB-style REST servers and a local fake. No outside Swift packages: only the
// toolchain and Debian system libraries (OpenSSL libcrypto, SQLite, libidn2).
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "UserBackendKit",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    .library(name: "UserBackendKit", targets: ["UserBackendKit"]),
    .library(name: "BackendHTTP", targets: ["BackendHTTP"]),
    .library(name: "HTTPReplay", targets: ["HTTPReplay"]),
    .library(name: "FirebaseUserBackend", targets: ["FirebaseUserBackend"]),
    .library(name: "NCMBUserBackend", targets: ["NCMBUserBackend"]),
    .library(name: "FakeUserBackend", targets: ["FakeUserBackend"]),
    .library(name: "BackendEmulator", targets: ["BackendEmulator"]),
    .library(name: "UserBackendContracts", targets: ["UserBackendContracts"]),
    .library(name: "UserBackends", targets: ["UserBackends"]),
    .executable(name: "baas", targets: ["baas"]),
  ],
  targets: [
    // System libraries (module maps only).
    .systemLibrary(
      name: "CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
    ),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // IDNA (UTS #46) for email domains; Linux only: on Apple platforms Foundation's
    // URLComponents.encodedHost converts domains (see IdentifierCanonicalization).
    .systemLibrary(
      name: "CIDN2",
      pkgConfig: "libidn2",
      providers: [.apt(["libidn2-dev"])]
    ),

    // The port.
    .target(
      name: "UserBackendKit",
      dependencies: [
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
        .target(name: "CIDN2", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: strictSettings
    ),
    .target(name: "BackendHTTP", dependencies: ["UserBackendKit"], swiftSettings: strictSettings),
    .target(
      name: "HTTPReplay",
      dependencies: ["BackendHTTP", "UserBackendKit"],
      swiftSettings: strictSettings
    ),

    // Adapters (no adapter imports another).
    .target(
      name: "FirebaseUserBackend",
      dependencies: ["UserBackendKit", "BackendHTTP"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "NCMBUserBackend",
      dependencies: ["UserBackendKit", "BackendHTTP"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "FakeUserBackend",
      dependencies: ["UserBackendKit", "CSQLite"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "BackendEmulator",
      dependencies: ["FakeUserBackend", "BackendHTTP", "UserBackendKit", "NCMBUserBackend"],
      swiftSettings: strictSettings
    ),

    // Contracts and composition.
    .target(
      name: "UserBackendContracts",
      dependencies: ["UserBackendKit"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "UserBackends",
      dependencies: [
        "UserBackendKit", "BackendHTTP", "HTTPReplay", "FirebaseUserBackend",
        "NCMBUserBackend", "FakeUserBackend", "BackendEmulator", "UserBackendContracts",
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "baas",
      dependencies: [
        "UserBackendKit", "BackendHTTP", "HTTPReplay", "FirebaseUserBackend",
        "NCMBUserBackend", "FakeUserBackend", "BackendEmulator",
        "UserBackendContracts", "UserBackends",
      ],
      swiftSettings: strictSettings
    ),

    // Tests: one target per module, plus the contract suite and the CLI.
    .testTarget(name: "UserBackendKitTests", dependencies: ["UserBackendKit"]),
    .testTarget(name: "BackendHTTPTests", dependencies: ["BackendHTTP"]),
    .testTarget(
      name: "HTTPReplayTests",
      dependencies: ["HTTPReplay", "BackendHTTP", "UserBackendKit"]
    ),
    .testTarget(
      name: "FirebaseUserBackendTests",
      dependencies: ["FirebaseUserBackend", "BackendHTTP", "HTTPReplay", "UserBackendKit"]
    ),
    .testTarget(
      name: "NCMBUserBackendTests",
      dependencies: ["NCMBUserBackend", "BackendHTTP", "UserBackendKit"]
    ),
    .testTarget(name: "FakeUserBackendTests", dependencies: ["FakeUserBackend", "UserBackendKit"]),
    .testTarget(
      name: "BackendEmulatorTests",
      dependencies: [
        "BackendEmulator", "FakeUserBackend", "BackendHTTP", "UserBackendKit",
        "FirebaseUserBackend", "NCMBUserBackend",
      ]
    ),
    .testTarget(
      name: "UserBackendContractsTests",
      dependencies: ["UserBackendContracts", "UserBackendKit"]
    ),
    .testTarget(
      name: "UserBackendsTests",
      dependencies: ["UserBackends", "UserBackendKit", "UserBackendContracts"]),
    .testTarget(
      name: "ContractTests",
      dependencies: ["UserBackendContracts", "UserBackends", "UserBackendKit"]
    ),
    .testTarget(name: "BaasCLITests", dependencies: ["baas"]),
  ],
  swiftLanguageModes: [.v6]
)
