import Foundation
import Testing

/// Global options follow the command options' rules (a repeat is a usage error, an empty
/// path is named as such), the NCMB base URL follows the plain-HTTP rule, and commands echo
/// the canonical value the account uses, not the argument as typed.
@Suite("Global options, base URL rule and canonical echoes", .timeLimit(.minutes(2)))
struct GlobalOptionAndEchoTests {
  @Test(
    "a global option given twice is a usage error naming it",
    arguments: [
      (["--backend", "fake", "--backend", "ncmb", "whoami"], "--backend"),
      (["--backend=fake", "--backend", "fake", "whoami"], "--backend"),
      (["--config", "/tmp/a.json", "--config", "/tmp/b.json", "whoami"], "--config"),
      (["--backend", "fake", "whoami", "--backend", "ncmb"], "--backend"),
      (["--backend", "fake", "whoami", "--backend", "fake"], "--backend"),
      (["--config", "/tmp/a.json", "whoami", "--config=/tmp/a.json"], "--config"),
    ])
  func repeatedGlobalOption(arguments: [String], option: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(arguments)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("\(option) is given twice"), "\(result.allOutput)")
  }

  @Test(
    "an empty path option says it is empty, not that it is a directory",
    arguments: [
      ["--config", "", "whoami"], ["--config=", "whoami"], ["whoami", "--config", ""],
      ["cassette", "lint", ""], ["cassette", "import", "x.har", "--out", ""],
    ])
  func emptyPath(arguments: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(arguments)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("is empty"), "\(result.allOutput)")
    #expect(!result.standardError.contains("directory"), "\(result.allOutput)")
  }

  @Test(
    "a key given twice in the config file is an error naming the key, never a value",
    arguments: [
      (#"{"backend":"fake","backend":"ncmb"}"#, "backend"),
      (#"{"ncmb":{"clientKey":"horse-1","clientKey":"horse-2"}}"#, "clientKey"),
      (#"{"firebase":{"apiKey":"horse-1"},"firebase":{"apiKey":"horse-2"}}"#, "firebase"),
    ])
  func duplicateConfigKey(text: String, key: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let file = baas.home.appendingPathComponent("config.json")
    try Data(text.utf8).write(to: file)
    for arguments in [["--config", file.path, "whoami"], ["whoami"]] {
      let result = try await baas.run(arguments, environment: ["BAAS_CONFIG": file.path])
      #expect(result.status == 2, "\(result.allOutput)")
      #expect(result.standardError.contains("\"\(key)\" appears twice"), "\(result.allOutput)")
      #expect(result.standardError.contains("config.json"), "\(result.allOutput)")
      #expect(!result.allOutput.contains("horse"), "\(result.allOutput)")
    }
  }

  @Test(
    "plain HTTP to a public NCMB host is refused, naming NCMB_BASE_URL",
    arguments: ["http://mbaas.api.nifcloud.com", "http://8.8.8.8:9099/prefix"])
  func ncmbPlainHTTP(base: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["--backend", "ncmb", "signin", "--email", "a@example.com"],
      environment: [
        "NCMB_BASE_URL": base, "NCMB_APPLICATION_KEY": "app", "NCMB_CLIENT_KEY": "client",
        "BAAS_PASSWORD": "pw-horse-77",
      ])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("NCMB_BASE_URL"), "\(result.allOutput)")
    #expect(result.standardError.contains("plain HTTP"), "\(result.allOutput)")
  }

  @Test("phone start echoes the trimmed E.164 number", arguments: [true, false])
  func phoneStartEcho(json: Bool) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["phone", "start", "--phone-number", " +15555550100 "] + (json ? ["--json"] : []))
    #expect(result.status == 0, "\(result.allOutput)")
    if json {
      let verification = try #require(try result.json()["verification"] as? [String: Any])
      #expect(verification["phoneNumber"] as? String == "+15555550100")
    } else {
      #expect(
        result.standardOutput.contains("Verification code sent to +15555550100."),
        "\(result.allOutput)")
    }
  }

  @Test("reset-password names the address as the account stores it")
  func resetPasswordEcho() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let signup = try await baas.run(
      ["signup", "--email", "reset@example.com"], environment: ["BAAS_PASSWORD": "pw-horse-77"])
    #expect(signup.status == 0, "\(signup.allOutput)")
    let result = try await baas.run(["reset-password", "--email", "reset@EXAMPLE.com "])
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(
      result.standardOutput.contains("Password reset requested for reset@example.com."),
      "\(result.allOutput)")
  }
}
