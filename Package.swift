// swift-tools-version: 6.1
// UserBackendKit: one `UserBackend` protocol in front of Firebase Authentication,
// NCMB-style REST servers and a local fake. No outside Swift packages: only the
// toolchain and Debian system libraries (OpenSSL libcrypto, SQLite, zlib, libidn2).
import PackageDescription

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
  name: "UserBackendKit",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    // For apps: the port, the factory and the adapters.
    .library(name: "UserBackendKit", targets: ["UserBackendKit"]),
    .library(name: "UserBackends", targets: ["UserBackends"]),
    .library(name: "FirebaseUserBackend", targets: ["FirebaseUserBackend"]),
    .library(name: "NCMBUserBackend", targets: ["NCMBUserBackend"]),
    .library(name: "FakeUserBackend", targets: ["FakeUserBackend"]),
    .library(name: "BackendHTTP", targets: ["BackendHTTP"]),
    // For servers: Firebase ID token verification.
    .library(name: "FirebaseTokenVerification", targets: ["FirebaseTokenVerification"]),
    // For tests and tools: replay, the emulator, the contracts and their harnesses.
    .library(name: "HTTPReplay", targets: ["HTTPReplay"]),
    .library(name: "BackendEmulator", targets: ["BackendEmulator"]),
    .library(name: "UserBackendContracts", targets: ["UserBackendContracts"]),
    .library(name: "UserBackendTesting", targets: ["UserBackendTesting"]),
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
    // zlib, for gzip/deflate bodies in HAR imports and recordings (Foundation on Linux has
    // no decompression API).
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    // libcurl, the HTTP client under CurlTransport (the network transport on Linux; Apple
    // platforms use URLSession).
    .systemLibrary(
      name: "CCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),
    // IDNA (UTS #46) for email domains; Linux only: on Apple platforms Foundation's
    // URLComponents.encodedHost converts domains (see IdentifierCanonicalization).
    .systemLibrary(
      name: "CIDN2",
      pkgConfig: "libidn2",
      providers: [.apt(["libidn2-dev"])]
    ),

    // The port: depends on system libraries only. docs/ARCHITECTURE.md has the rules;
    // Tests/ArchitectureTests checks them.
    .target(
      name: "UserBackendKit",
      dependencies: [
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
        .target(name: "CIDN2", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: strictSettings
    ),
    // HTTP values and transports: a leaf, depends on nothing of ours (libcurl on Linux).
    .target(
      name: "BackendHTTP",
      dependencies: [.target(name: "CCurl", condition: .when(platforms: [.linux]))],
      swiftSettings: strictSettings
    ),
    // What every HTTP adapter needs, written once (transport failures -> portable errors).
    .target(
      name: "AdapterSupport",
      dependencies: ["UserBackendKit", "BackendHTTP"],
      swiftSettings: strictSettings
    ),
    // NCMB signature v2, sign and verify: the adapter, the emulator, replay and `baas`.
    .target(
      name: "NCMBSigning",
      dependencies: ["UserBackendKit", "BackendHTTP"],
      swiftSettings: strictSettings
    ),
    // The account database behind the fake and the emulator (SQLite).
    .target(
      name: "AccountDatabase",
      dependencies: ["UserBackendKit", "CSQLite"],
      swiftSettings: strictSettings
    ),

    // Adapters (no adapter imports another).
    .target(
      name: "FirebaseUserBackend",
      dependencies: ["UserBackendKit", "BackendHTTP", "AdapterSupport"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "NCMBUserBackend",
      dependencies: ["UserBackendKit", "BackendHTTP", "AdapterSupport", "NCMBSigning"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "FakeUserBackend",
      dependencies: ["UserBackendKit", "AccountDatabase"],
      swiftSettings: strictSettings
    ),

    // Server side: verifies Firebase ID tokens (RS256, Google's rotating certificates).
    .target(
      name: "FirebaseTokenVerification",
      dependencies: [
        "UserBackendKit", "BackendHTTP",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: strictSettings
    ),

    // Configuration + factory: what an app links.
    .target(
      name: "UserBackends",
      dependencies: [
        "UserBackendKit", "BackendHTTP", "FirebaseUserBackend", "NCMBUserBackend",
        "FakeUserBackend",
      ],
      swiftSettings: strictSettings
    ),

    // Test tooling: replay, the emulator, the contracts, and the harnesses that join them.
    .target(
      name: "HTTPReplay",
      dependencies: ["BackendHTTP", "UserBackendKit", "CZlib"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "BackendEmulator",
      dependencies: [
        "UserBackendKit", "BackendHTTP", "AccountDatabase", "NCMBSigning",
        "FirebaseTokenVerification",
      ],
      swiftSettings: strictSettings
    ),
    .target(
      name: "UserBackendContracts",
      dependencies: ["UserBackendKit"],
      swiftSettings: strictSettings
    ),
    .target(
      name: "UserBackendTesting",
      dependencies: [
        "UserBackendKit", "BackendHTTP", "HTTPReplay", "FirebaseUserBackend",
        "NCMBUserBackend", "NCMBSigning", "FakeUserBackend", "AccountDatabase",
        "BackendEmulator", "UserBackendContracts", "UserBackends",
      ],
      swiftSettings: strictSettings
    ),

    // The command-line tool and its benchmarks.
    .target(
      name: "BaasBench",
      dependencies: [
        "UserBackendKit", "BackendHTTP", "HTTPReplay", "FirebaseUserBackend",
        "NCMBUserBackend", "FakeUserBackend", "AccountDatabase", "BackendEmulator",
        "UserBackendContracts", "UserBackendTesting", "UserBackends",
        "FirebaseTokenVerification",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: strictSettings
    ),
    .executableTarget(
      name: "baas",
      dependencies: [
        "UserBackendKit", "BackendHTTP", "HTTPReplay", "FirebaseUserBackend",
        "NCMBUserBackend", "NCMBSigning", "FakeUserBackend", "AccountDatabase",
        "BackendEmulator", "UserBackendContracts", "UserBackendTesting", "UserBackends",
        "BaasBench", "FirebaseTokenVerification",
      ],
      swiftSettings: strictSettings
    ),

    // Tests: one target per module, plus the contract suite, the CLI and the layout.
    .testTarget(name: "UserBackendKitTests", dependencies: ["UserBackendKit"]),
    .testTarget(
      name: "BackendHTTPTests", dependencies: ["BackendHTTP", "AdapterSupport", "UserBackendKit"]),
    .testTarget(
      name: "AccountDatabaseTests",
      dependencies: ["AccountDatabase", "UserBackendKit"],
      resources: [.copy("Fixtures")]
    ),
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
      dependencies: ["NCMBUserBackend", "NCMBSigning", "BackendHTTP", "UserBackendKit"]
    ),
    .testTarget(
      name: "FakeUserBackendTests",
      dependencies: ["FakeUserBackend", "AccountDatabase", "UserBackendKit"]
    ),
    .testTarget(
      name: "BackendEmulatorTests",
      dependencies: [
        "BackendEmulator", "AccountDatabase", "BackendHTTP", "UserBackendKit",
        "FirebaseUserBackend", "NCMBUserBackend", "NCMBSigning", "FirebaseTokenVerification",
      ]
    ),
    .testTarget(
      name: "UserBackendContractsTests",
      dependencies: ["UserBackendContracts", "UserBackendKit"]
    ),
    .testTarget(
      name: "UserBackendsTests",
      dependencies: [
        "UserBackends", "UserBackendKit", "UserBackendContracts", "UserBackendTesting",
      ]
    ),
    .testTarget(
      name: "ContractTests",
      dependencies: [
        "UserBackendContracts", "UserBackendTesting", "UserBackends", "UserBackendKit",
        "HTTPReplay",
      ]
    ),
    .testTarget(
      name: "FirebaseTokenVerificationTests",
      dependencies: ["FirebaseTokenVerification", "BackendHTTP", "UserBackendKit"]
    ),
    .testTarget(name: "BaasCLITests", dependencies: ["baas", "BaasBench", "AccountDatabase"]),
    // The layout and the dependency rules of docs/ARCHITECTURE.md.
    .testTarget(name: "ArchitectureTests"),
  ],
  swiftLanguageModes: [.v6]
)
