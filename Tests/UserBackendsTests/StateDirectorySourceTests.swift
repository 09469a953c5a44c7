import Foundation
import Testing
import UserBackends

/// The refusal of a state directory that is a file (or lies below one) names the setting
/// that chose the directory: `XDG_STATE_HOME` or `HOME` for the defaults, never a
/// `BAAS_HOME` that is not set; a relative `XDG_STATE_HOME` is ignored (XDG Base Directory
/// specification).
@Suite("State directory: the refusal names the deciding setting", .timeLimit(.minutes(1)))
struct StateDirectorySourceTests {
  func refusal(_ environment: [String: String], configFile: String? = nil) throws
    -> BackendConfigurationError
  {
    try #require(throws: BackendConfigurationError.self) {
      try BackendConfiguration.resolve(environment: environment, configFile: configFile)
    }
  }

  @Test("XDG_STATE_HOME/baas is a file: the error names XDG_STATE_HOME, not BAAS_HOME")
  func xdgDecides() throws {
    try withTemporaryDirectory { directory in
      try Data().write(to: directory.appendingPathComponent("baas"))
      let error = try refusal(["XDG_STATE_HOME": directory.path, "HOME": "/nonexistent"])
      #expect(error.kind == .invalidSetting)
      #expect(error.setting == "XDG_STATE_HOME", "\(error)")
      #expect(error.reason.contains("XDG_STATE_HOME"), "\(error)")
      #expect(error.reason.contains("BAAS_HOME is not set"), "\(error)")
      #expect(!error.setting.contains("BAAS_HOME"))
    }
  }

  @Test("XDG_STATE_HOME itself is a file: the parent is named, and XDG_STATE_HOME")
  func xdgParentIsFile() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("state")
      try Data().write(to: file)
      let error = try refusal(["XDG_STATE_HOME": file.path])
      #expect(error.setting == "XDG_STATE_HOME", "\(error)")
      #expect(error.reason.contains("\(file.path) (in \(file.path)/baas)"), "\(error)")
    }
  }

  @Test("~/.local is a file: the error names HOME")
  func homeDecides() throws {
    try withTemporaryDirectory { directory in
      try Data().write(to: directory.appendingPathComponent(".local"))
      let error = try refusal(["HOME": directory.path])
      #expect(error.setting == "HOME", "\(error)")
      #expect(error.reason.contains("(in \(directory.path)/.local/state/baas)"), "\(error)")
    }
  }

  @Test("BAAS_HOME below a file: the error names BAAS_HOME, as before")
  func baasHomeDecides() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("f")
      try Data().write(to: file)
      let error = try refusal(["BAAS_HOME": file.path + "/a/b", "XDG_STATE_HOME": "/x"])
      #expect(error.setting.hasPrefix("BAAS_HOME"), "\(error)")
      #expect(error.reason.contains("point BAAS_HOME at a directory"), "\(error)")
      #expect(error.reason.contains("\(file.path) (in \(file.path)/a/b)"), "\(error)")
    }
  }

  @Test("the config file's home below a file names the config key")
  func configKeyDecides() throws {
    try withTemporaryDirectory { directory in
      try Data().write(to: directory.appendingPathComponent("f"))
      let path = try writeConfig(#"{"home": "f/state"}"#, in: directory)
      let error = try refusal(["HOME": "/nonexistent"], configFile: path)
      #expect(error.setting.contains("home"), "\(error)")
      #expect(error.reason.contains("config file's home"), "\(error)")
    }
  }

  @Test(
    "a relative XDG_STATE_HOME is ignored: the default under HOME applies",
    arguments: ["state", "./state", "../state", "~/state", ""])
  func relativeXDGIgnored(state: String) throws {
    let configuration = try BackendConfiguration.resolve(
      environment: ["XDG_STATE_HOME": state, "HOME": "/home/u"])
    #expect(configuration.home == "/home/u/.local/state/baas")
  }
}
