import Foundation
import Testing
import UserBackendContracts
import UserBackendTesting
import UserBackends

/// Where an unknown backend name can come from.
enum BackendNameSource: String, CaseIterable, Sendable {
  case option, environment, file

  /// Resolves with `name` given through this source.
  func resolve(_ name: String, in directory: URL) throws -> BackendConfiguration {
    let environment = ["HOME": directory.path]
    switch self {
    case .option:
      return try BackendConfiguration.resolve(environment: environment, backend: name)
    case .environment:
      return try BackendConfiguration.resolve(
        environment: environment.merging(["BAAS_BACKEND": name]) { $1 })
    case .file:
      let data = try JSONSerialization.data(withJSONObject: ["backend": name])
      let path = directory.appendingPathComponent("baas.json")
      try data.write(to: path)
      return try BackendConfiguration.resolve(environment: environment, configFile: path.path)
    }
  }
}

@Suite(
  "An unknown backend name is reported the same way from every source", .timeLimit(.minutes(2)))
struct BackendNameErrorTests {
  @Test("a plain name is echoed and the setting is named", arguments: BackendNameSource.allCases)
  func plainNameEchoed(source: BackendNameSource) throws {
    try withTemporaryDirectory { directory in
      let error = try #require(throws: BackendConfigurationError.self) {
        try source.resolve("Firebse", in: directory)
      }
      #expect(error.kind == .unknownBackend)
      #expect(error.reason.hasPrefix("\"firebse\" is not a known backend"), "\(error)")
      #expect(error.reason.contains("fake, firebase, ncmb"))
      switch source {
      case .option: #expect(error.setting == "--backend")
      case .environment: #expect(error.setting == "BAAS_BACKEND (config key backend)")
      case .file: #expect(error.setting.contains("config key backend"), "\(error.setting)")
      }
    }
  }

  @Test(
    "a value that does not look like a name (a pasted key) is never echoed",
    arguments: BackendNameSource.allCases)
  func secretNotEchoed(source: BackendNameSource) throws {
    let secret = "AIzaSy-pasted_key.0123456789abcdefghij"
    try withTemporaryDirectory { directory in
      let error = try #require(throws: BackendConfigurationError.self) {
        try source.resolve(secret, in: directory)
      }
      #expect(error.reason.hasPrefix("the value is not a known backend"), "\(error)")
      #expect(!error.description.lowercased().contains(secret.lowercased()))
    }
  }

  @Test("a harness named twice in --backends runs once, in first-mention order")
  func duplicateHarnessNames() throws {
    let harnesses = try ContractHarnesses.list("fake, ncmb-emulator,fake,ncmb-emulator")
    #expect(harnesses.map(\.name) == ["fake", "ncmb-emulator"])
  }
}
