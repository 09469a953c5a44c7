import Foundation
import Testing

/// Setting errors read `<setting>: <reason>` everywhere (a reason such as "the port must
/// be …" is a sentence of its own), and every port the CLI reads follows the one rule.
@Suite("baas: setting messages and the port rule", .timeLimit(.minutes(3)))
struct SettingMessageAndPortTests {
  @Test(
    "token verify: a bad emulator-host port reads 'FIREBASE_AUTH_EMULATOR_HOST: the port …'",
    arguments: ["127.0.0.1:065", "127.0.0.1:", "127.0.0.1:99999"])
  func tokenVerifyEmulatorPort(host: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
    let result = try await baas.run(
      ["token", "verify", "--project-id", "demo-p"],
      environment: ["FIREBASE_AUTH_EMULATOR_HOST": host], input: header + ".e30.")
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(
      result.standardError.contains("FIREBASE_AUTH_EMULATOR_HOST: the port must be"),
      "\(result.allOutput)")
  }

  @Test(
    "config check and whoami: a bad emulator-host port is refused naming the variable",
    arguments: ["127.0.0.1:065", "127.0.0.1:"])
  func configurationEmulatorPort(host: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["whoami"],
      environment: [
        "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "k", "FIREBASE_PROJECT_ID": "demo-p",
        "FIREBASE_AUTH_EMULATOR_HOST": host,
      ])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(
      result.standardError.contains("FIREBASE_AUTH_EMULATOR_HOST (config key "),
      "\(result.allOutput)")
    #expect(result.standardError.contains("leading zeros"), "\(result.allOutput)")
  }

  @Test("emulator --port with a leading zero or empty is a usage error", arguments: ["065", ""])
  func emulatorPort(port: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["emulator", "--port", port])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("without leading"), "\(result.allOutput)")
  }

  @Test("a state directory that is a file under XDG_STATE_HOME is blamed on XDG_STATE_HOME")
  func xdgStateFile() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let state = baas.home.appendingPathComponent("xdg")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    try Data().write(to: state.appendingPathComponent("baas"))
    let executable = try #require(Baas.executable)
    let result = try await Baas.launch(
      executable, ["whoami"],
      environment: [
        "HOME": baas.home.path, "XDG_STATE_HOME": state.path, "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
      ], input: nil, timeout: 60)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("XDG_STATE_HOME"), "\(result.allOutput)")
    #expect(!result.standardError.contains("point BAAS_HOME"), "\(result.allOutput)")
  }
}

/// `baas ncmb sign URL`: the URL's port follows the one rule, as `NCMB_BASE_URL`'s does.
@Suite("baas ncmb sign: the URL's port", .timeLimit(.minutes(2)))
struct NCMBSignPortTests {
  @Test(
    "a leading-zero, empty or out-of-range port is a usage error, no header printed",
    arguments: [
      "https://mbaas.api.nifcloud.com:0443/2013-09-01/users",
      "https://mbaas.api.nifcloud.com:/2013-09-01/users",
      "https://mbaas.api.nifcloud.com:99999/2013-09-01/users",
    ])
  func badPort(url: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["ncmb", "sign", "GET", url, "--timestamp", "2013-12-02T02:44:35.452Z"],
      environment: NCMBSignOptionTests.keys)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("leading zeros"), "\(result.allOutput)")
    #expect(!result.standardOutput.contains("X-NCMB-Signature"))
  }
}
