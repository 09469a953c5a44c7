import Foundation
import Testing
import UserBackendKit
import UserBackends

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Path settings are used whole or refused: a NUL (where the C library would cut the
/// path, so `/tmp/x/SECRETHOME\u{0}x` would be used as `/tmp/x/SECRETHOME`) or another
/// control character in a path is a misconfiguration naming the setting; a config file
/// that is not a regular file is refused at once, not read (a FIFO would block forever).
@Suite("Path settings: NUL, control characters, non-regular files", .timeLimit(.minutes(1)))
struct PathSettingTests {
  static func directory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("PathSetting-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test(
    "a home with a NUL or a control character in the config file is misconfigured",
    arguments: ["SECRETHOME\\u0000x", "a\\nb", "a\\u001bb", "a\\u007fb"])
  func homeInTheFile(_ escaped: String) throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("config.json")
    try Data(#"{"home":"\#(directory.path)/\#(escaped)"}"#.utf8).write(to: file)
    let error = try #require(throws: BackendConfigurationError.self) {
      _ = try BackendConfiguration.resolve(environment: [:], configFile: file.path)
    }
    #expect(error.setting.contains("home"), "\(error)")
    #expect(error.description.contains("control character"), "\(error)")
    #expect(error.userBackendError.code.name == "misconfigured")
    #expect(
      !FileManager.default.fileExists(atPath: directory.appendingPathComponent("SECRETHOME").path))
  }

  @Test(
    "a NUL or control character in BAAS_HOME, XDG_STATE_HOME, HOME or the config path is refused",
    arguments: [
      (["BAAS_HOME": "/tmp/a\u{0}b"], nil, "BAAS_HOME"),
      (["XDG_STATE_HOME": "/tmp/a\u{1}b"], nil, "XDG_STATE_HOME"),
      (["HOME": "/tmp/a\u{0}b"], nil, "HOME"),
      (["BAAS_CONFIG": "/tmp/a\u{0}b.json", "HOME": "/tmp"], nil, "BAAS_CONFIG"),
      (["HOME": "/tmp"], "/tmp/a\u{0}b.json", "config"),
    ] as [([String: String], String?, String)])
  func environment(_ environment: [String: String], _ configFile: String?, _ setting: String)
    throws
  {
    let error = try #require(throws: BackendConfigurationError.self) {
      _ = try BackendConfiguration.resolve(environment: environment, configFile: configFile)
    }
    #expect(error.setting.contains(setting), "\(error)")
    #expect(error.description.contains("control character"), "\(error)")
  }

  @Test("HOME is checked only where it decides: a set XDG_STATE_HOME or BAAS_HOME hides it")
  func homeOnlyWhereUsed() throws {
    let badHome = "/tmp/a\u{0}b"
    for environment in [
      ["HOME": badHome, "XDG_STATE_HOME": "/tmp/state"], ["HOME": badHome, "BAAS_HOME": "/tmp/b"],
    ] {
      let configuration = try BackendConfiguration.resolve(environment: environment)
      #expect(configuration.home?.contains("\u{0}") == false)
    }
    let error = try #require(throws: BackendConfigurationError.self) {
      _ = try BackendConfiguration.resolve(environment: ["HOME": badHome, "BAAS_HOME": "~/x"])
    }
    #expect(error.setting.contains("HOME"), "\(error)")
  }

  @Test("a config file that is a FIFO or a link to /dev/zero is refused without blocking")
  func nonRegularConfigFile() throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let fifo = directory.appendingPathComponent("fifo.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let zero = directory.appendingPathComponent("zero.json")
    try FileManager.default.createSymbolicLink(atPath: zero.path, withDestinationPath: "/dev/zero")
    for path in [fifo.path, zero.path, directory.path] {
      let error = try #require(throws: BackendConfigurationError.self) {
        _ = try BackendConfiguration.load(file: path)
      }
      #expect(error.description.contains("is not a regular file"), "\(error)")
    }
  }
}
