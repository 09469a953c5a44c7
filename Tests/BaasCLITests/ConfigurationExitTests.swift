import Foundation
import Testing

@Suite("baas exits 2 naming the setting for every configuration problem", .timeLimit(.minutes(2)))
struct ConfigurationExitTests {
  static let firebase = ["BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "AIzaTest-key"]

  @Test(
    "a project ID outside the rule is refused before any request",
    arguments: [String(repeating: "p", count: 300), "プロジェクト"])
  func projectID(projectID: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["signin", "--email", "a@example.com"],
      environment: Self.firebase.merging([
        "FIREBASE_PROJECT_ID": projectID, "BAAS_PASSWORD": "pw-123456",
        // Nothing listens here: a request would fail as a network error (exit 1).
        "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9",
      ]) { $1 })
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("FIREBASE_PROJECT_ID"), "\(result.allOutput)")
    #expect(!result.standardError.contains("network"))
  }

  @Test("BAAS_HOME naming a regular file", arguments: ["whoami", "token", "signout"])
  func homeIsAFile(command: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let file = baas.home.appendingPathComponent("not-a-directory")
    try Data("x".utf8).write(to: file)
    let result = try await baas.run([command], environment: ["BAAS_HOME": file.path])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("BAAS_HOME"), "\(result.allOutput)")
    #expect(!result.standardError.contains("notSignedIn"), "\(result.allOutput)")
  }

  @Test(
    "a malformed contract file is a usage error of baas verify",
    arguments: ["{ not json", #"{"name":"x"}"#, "[]"])
  func malformedContract(text: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = baas.home.appendingPathComponent("Contracts", isDirectory: true)
    try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: contracts.appendingPathComponent("broken.json"))
    let result = try await baas.run(
      ["verify", "--contracts", contracts.path, "--backends", "fake"])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("broken.json"), "\(result.allOutput)")
  }
}

@Suite("baas emulator checks --project-id like FIREBASE_PROJECT_ID", .timeLimit(.minutes(1)))
struct EmulatorProjectIDTests {
  @Test(
    "a project ID the clients would refuse is a usage error",
    arguments: [
      "p", "Demo-Project", "demo_project", "demo-project-", String(repeating: "d", count: 31),
    ])
  func refused(projectID: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["emulator", "--port", "0", "--project-id", projectID], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--project-id"), "\(result.allOutput)")
  }
}

@Suite("baas emulator checks --recent-login-seconds", .timeLimit(.minutes(1)))
struct EmulatorRecentLoginTests {
  @Test(
    "a window that is not a whole number of seconds in range is a usage error naming the flag",
    arguments: ["x", "-1", "1.5", "31536001", "", "+5", "٥", "0x10", " 5"])
  func refused(value: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["emulator", "--port", "0", "--recent-login-seconds", value], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--recent-login-seconds"), "\(result.allOutput)")
  }
}

@Suite("baas emulator checks --password-hash-cost", .timeLimit(.minutes(1)))
struct EmulatorPasswordHashCostTests {
  @Test(
    "a cost that is not a whole number of iterations in 1…10,000,000 is a usage error naming the flag",
    arguments: ["x", "0", "-1", "1.5", "10000001", "", "+1", "١", "0x10", "1e3"])
  func refused(value: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["emulator", "--port", "0", "--password-hash-cost", value], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--password-hash-cost"), "\(result.allOutput)")
  }
}

@Suite("baas emulator checks --port", .timeLimit(.minutes(1)))
struct EmulatorPortTests {
  @Test(
    "a port other than 0 or 1…65535 in plain digits without leading zeros is a usage error",
    arguments: ["+0", "x", "-1", "65536", "", "٠", "0x0", " 0", "0 ", "00", "0080", "09099"])
  func refused(value: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["emulator", "--port", value], timeout: 20)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--port"), "\(result.allOutput)")
  }
}
