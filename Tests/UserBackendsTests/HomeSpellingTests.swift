import Foundation
import Testing
import UserBackends

/// Attack round 7, F7: `"home": ""` in a config file read as unset, so the default state
/// directory was used without a word (the README says an empty path setting is refused);
/// and a home such as `~root/x` was taken literally, creating a directory named `~root`
/// next to the file, since only `~` and `~/` are expanded.
@Suite(
  "Configuration: home and config paths are refused when they cannot mean what they say",
  .timeLimit(.minutes(1)))
struct HomeSpellingTests {
  @Test("an empty home in the config file is refused, naming the key")
  func emptyHomeKey() throws {
    try withTemporaryDirectory { directory in
      let file = try writeConfig(#"{"backend":"fake","home":""}"#, in: directory)
      let error = #expect(throws: BackendConfigurationError.self) {
        _ = try BackendConfiguration.resolve(environment: ["HOME": "/home/u"], configFile: file)
      }
      #expect(error?.setting.contains("home") == true, "\(String(describing: error))")
      #expect(error?.reason.contains("empty") == true, "\(String(describing: error))")
    }
  }

  @Test(
    "a home or config path starting with ~ but not ~ or ~/ is refused",
    arguments: ["~root/x", "~x", "~.state"])
  func userTildeRefused(path: String) throws {
    try withTemporaryDirectory { directory in
      let file = try writeConfig(#"{"backend":"fake","home":"\#(path)"}"#, in: directory)
      let fromKey = #expect(throws: BackendConfigurationError.self) {
        _ = try BackendConfiguration.resolve(environment: ["HOME": "/home/u"], configFile: file)
      }
      #expect(fromKey?.setting.contains("home") == true, "\(String(describing: fromKey))")
      #expect(fromKey?.reason.contains("~/") == true, "\(String(describing: fromKey))")
      let fromVariable = #expect(throws: BackendConfigurationError.self) {
        _ = try BackendConfiguration.resolve(environment: ["HOME": "/home/u", "BAAS_HOME": path])
      }
      #expect(fromVariable?.setting == "BAAS_HOME", "\(String(describing: fromVariable))")
      let fromConfigVariable = #expect(throws: BackendConfigurationError.self) {
        _ = try BackendConfiguration.resolve(
          environment: ["HOME": "/home/u", "BAAS_CONFIG": path])
      }
      #expect(
        fromConfigVariable?.setting == "BAAS_CONFIG", "\(String(describing: fromConfigVariable))")
    }
  }

  @Test("~, ~/ and ./~x are still accepted", arguments: ["~", "~/state", "./~x"])
  func expandedOrExplicit(path: String) throws {
    try withTemporaryDirectory { directory in
      let file = try writeConfig(#"{"backend":"fake","home":"\#(path)"}"#, in: directory)
      let home = try BackendConfiguration.resolve(
        environment: ["HOME": "/home/u"], configFile: file
      ).home
      #expect(home?.hasPrefix("/") == true)
    }
  }
}

/// Attack round 7, F9: a config file that is JSON but not an object (`[]`, `"x"`, `1`) was
/// "key : wrong type", naming an empty key.
@Suite("Configuration: a file that is not an object says so", .timeLimit(.minutes(1)))
struct ConfigNotAnObjectTests {
  @Test(arguments: ["[]", #""fake""#, "1", "null", "true"])
  func notAnObject(json: String) throws {
    try withTemporaryDirectory { directory in
      let file = try writeConfig(json, in: directory)
      let error = #expect(throws: BackendConfigurationError.self) {
        _ = try BackendConfiguration.resolve(environment: ["HOME": "/home/u"], configFile: file)
      }
      #expect(error?.reason.contains("not a JSON object") == true, "\(String(describing: error))")
      #expect(error?.setting.hasSuffix("key ") == false, "\(String(describing: error))")
      #expect(error?.setting.contains(" key ") == false, "\(String(describing: error))")
    }
  }
}

/// Fresh-eyes round 7: `~/x` with an empty HOME expanded to `/x` (a state directory at the
/// file system's root), with HOME unset stayed a literal `~` directory, and with a
/// relative HOME went below the working directory. A `~` path needs an absolute HOME.
@Suite("Configuration: ~ needs an absolute HOME", .timeLimit(.minutes(1)))
struct TildeNeedsHomeTests {
  static let homes: [String?] = [nil, "", "rel", "rel/dir"]

  @Test("BAAS_HOME ~/x and ~ are refused naming HOME", arguments: homes, ["~/x", "~"])
  func refused(home: String?, path: String) throws {
    var environment = ["BAAS_HOME": path]
    if let home { environment["HOME"] = home }
    let error = #expect(throws: BackendConfigurationError.self) {
      _ = try BackendConfiguration.resolve(environment: environment)
    }
    #expect(error?.setting == "HOME", "\(String(describing: error))")
  }

  @Test("a config file named with ~/ is refused naming HOME when HOME is empty")
  func configPath() throws {
    let error = #expect(throws: BackendConfigurationError.self) {
      _ = try BackendConfiguration.resolve(environment: ["HOME": "", "BAAS_CONFIG": "~/c.json"])
    }
    #expect(error?.setting == "HOME", "\(String(describing: error))")
  }

  @Test("an absolute HOME expands ~")
  func absolute() throws {
    let configuration = try BackendConfiguration.resolve(
      environment: ["HOME": "/home/u", "BAAS_HOME": "~/x"])
    #expect(configuration.home == "/home/u/x")
  }
}
