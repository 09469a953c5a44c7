import Foundation
import Testing
import UserBackends

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The config file decides where passwords and keys go (backend, base URL, emulator host,
/// state directory) and may hold the API key, application key and client key: one that
/// other users may change is refused; one they may read is refused when it holds a key.
/// The error names the option (`--config` or `BAAS_CONFIG`) and the file, never a value.
@Suite("Configuration: who may read or change the config file", .timeLimit(.minutes(1)))
struct ConfigFilePermissionTests {
  static let secretFile =
    #"{"backend":"ncmb","ncmb":{"applicationKey":"horse-app","clientKey":"horse-client"}}"#
  static let plainFile = #"{"backend":"fake"}"#

  static func write(_ text: String, mode: mode_t, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("baas.json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(chmod(path, mode) == 0)
    return path
  }

  @Test(
    "a file others may write in is refused, with or without keys",
    arguments: [0o666, 0o622, 0o620, 0o602, 0o660])
  func writableByOthers(mode: Int) throws {
    for text in [Self.plainFile, Self.secretFile] {
      try withTemporaryDirectory { directory in
        let path = try Self.write(text, mode: mode_t(mode), in: directory)
        for (option, environment, configFile) in [
          ("--config", ["HOME": "/h"], path as String?),
          ("BAAS_CONFIG", ["HOME": "/h", "BAAS_CONFIG": path], nil),
        ] {
          let error = try #require(throws: BackendConfigurationError.self) {
            try BackendConfiguration.resolve(environment: environment, configFile: configFile)
          }
          #expect(error.description.contains(option), "\(error)")
          #expect(error.description.contains(path), "\(error)")
          #expect(error.description.contains("writable by other users"), "\(error)")
          #expect(error.description.contains("chmod 600 \(path)"), "\(error)")
          #expect(!error.description.contains("horse"), "\(error)")
        }
      }
    }
  }

  @Test("a file others may read is refused when it holds a key", arguments: [0o644, 0o640, 0o604])
  func readableWithKeys(mode: Int) throws {
    try withTemporaryDirectory { directory in
      let path = try Self.write(Self.secretFile, mode: mode_t(mode), in: directory)
      let error = try #require(throws: BackendConfigurationError.self) {
        try BackendConfiguration.resolve(environment: ["HOME": "/h"], configFile: path)
      }
      #expect(error.description.contains("--config"), "\(error)")
      #expect(error.description.contains(path), "\(error)")
      #expect(error.description.contains("readable by other users"), "\(error)")
      #expect(error.description.contains("ncmb.clientKey"), "\(error)")
      #expect(error.description.contains("chmod 600 \(path)"), "\(error)")
      #expect(!error.description.contains("horse"), "\(error)")
    }
  }

  @Test("every key kind counts", arguments: ["firebase.apiKey", "ncmb.applicationKey"])
  func eachKey(key: String) throws {
    let parts = key.split(separator: ".")
    let text = #"{"\#(parts[0])":{"\#(parts[1])":"horse"}}"#
    try withTemporaryDirectory { directory in
      let path = try Self.write(text, mode: 0o644, in: directory)
      let error = try #require(throws: BackendConfigurationError.self) {
        try BackendConfiguration.resolve(environment: ["HOME": "/h"], configFile: path)
      }
      #expect(error.description.contains(key), "\(error)")
    }
  }

  @Test("a file others may only read is used when it holds no key; owner-only always")
  func readableWithoutKeys() throws {
    try withTemporaryDirectory { directory in
      let path = try Self.write(Self.plainFile, mode: 0o644, in: directory)
      #expect(
        try BackendConfiguration.resolve(environment: ["HOME": "/h"], configFile: path).backend
          == .fake)
      let secret = try Self.write(Self.secretFile, mode: 0o600, in: directory)
      #expect(
        try BackendConfiguration.resolve(environment: ["HOME": "/h"], configFile: secret).backend
          == .ncmb)
    }
  }

  @Test(
    "a file of another user (not root) is refused",
    .enabled(if: geteuid() == 0, "giving a file to another user needs root"))
  func foreignOwner() throws {
    try withTemporaryDirectory { directory in
      let path = try Self.write(Self.plainFile, mode: 0o600, in: directory)
      #expect(chown(path, 65_534, gid_t.max) == 0)
      let error = try #require(throws: BackendConfigurationError.self) {
        try BackendConfiguration.resolve(environment: ["HOME": "/h"], configFile: path)
      }
      #expect(error.description.contains("--config"), "\(error)")
      #expect(error.description.contains(path), "\(error)")
      #expect(error.description.contains("belongs to another user (uid 65534"), "\(error)")
    }
  }
}
