import Foundation
import Testing
import UserBackends

/// Attack round 6, L6: a relative `home` in a config file was resolved against the working
/// directory, so the same `--config` run from another directory silently used (and
/// created) a second state directory and a second fake database. It is the file's now.
@Suite("Configuration: a relative home is the config file's", .timeLimit(.minutes(1)))
struct RelativeHomeTests {
  @Test(
    "the state directory does not depend on the working directory",
    arguments: ["relstate", "./relstate", "sub/../relstate", "relstate/"])
  func relativeToTheFile(home: String) throws {
    try withTemporaryDirectory { directory in
      let file = try writeConfig(#"{"backend":"fake","home":"\#(home)"}"#, in: directory)
      let configuration = try BackendConfiguration.resolve(
        environment: ["HOME": "/home/u"], configFile: file)
      let expected = directory.appendingPathComponent("relstate").standardizedFileURL.path
      #expect(configuration.home == expected)
      #expect(FileManager.default.currentDirectoryPath != directory.path)
    }
  }

  @Test func absoluteTildeAndVariableHomesAreKept() throws {
    try withTemporaryDirectory { directory in
      let absolute = try writeConfig(#"{"home":"/srv/baas"}"#, in: directory)
      #expect(
        try BackendConfiguration.resolve(environment: ["HOME": "/home/u"], configFile: absolute)
          .home == "/srv/baas")
      let tilde = try writeConfig(#"{"home":"~/state"}"#, in: directory)
      #expect(
        try BackendConfiguration.resolve(environment: ["HOME": "/home/u"], configFile: tilde)
          .home == "/home/u/state")
      // BAAS_HOME overrides the file's home and stays relative to the working directory.
      let relative = try writeConfig(#"{"home":"relstate"}"#, in: directory)
      let overridden = try BackendConfiguration.resolve(
        environment: ["HOME": "/home/u", "BAAS_HOME": "elsewhere"], configFile: relative)
      #expect(
        overridden.home
          == URL(fileURLWithPath: "elsewhere").standardizedFileURL.path)
    }
  }
}
