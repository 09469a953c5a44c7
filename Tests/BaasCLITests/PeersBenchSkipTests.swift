import Foundation
import Testing

/// `baas bench --only peers` without a Python that has pyrebase4 and NCMB: the group is
/// skipped with the reason (not a miss, exit 0). Nothing here asserts on time.
@Suite(
  "baas bench --only peers is skipped, with the reason, without the peers' Python",
  .timeLimit(.minutes(2)))
struct PeersBenchSkipTests {
  @Test("no Python at BAAS_PEERS_PYTHON: skipped naming the variable and scripts/peers-venv")
  func noPython() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let missing = baas.home.appendingPathComponent("no-such-python").path
    let result = try await baas.run(
      ["bench", "--quick", "--only", "peers"], environment: ["BAAS_PEERS_PYTHON": missing],
      timeout: 60)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(
      result.standardOutput.contains("skipped: no Python at \(missing)"), "\(result.allOutput)")
    #expect(result.standardOutput.contains("BAAS_PEERS_PYTHON"), "\(result.allOutput)")
    #expect(result.standardOutput.contains("scripts/peers-venv"), "\(result.allOutput)")
    #expect(result.standardOutput.contains("0 target(s) missed"), "\(result.allOutput)")
  }

  @Test("--json carries the reason in the group's skipped field")
  func json() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["bench", "--quick", "--json", "--only", "peers"],
      environment: ["BAAS_PEERS_PYTHON": "/nonexistent/python"], timeout: 60)
    #expect(result.status == 0, "\(result.allOutput)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let groups = try #require(object["groups"] as? [[String: Any]])
    #expect(groups.count == 1)
    #expect(groups.first?["id"] as? String == "peers")
    let reason = try #require(groups.first?["skipped"] as? String)
    #expect(reason.contains("/nonexistent/python"))
    #expect(object["missedTargets"] as? Int == 0)
  }

  @Test(
    "a Python without the packages: skipped naming the missing package",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
  func pythonWithoutPackages() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["bench", "--quick", "--only", "peers"],
      environment: ["BAAS_PEERS_PYTHON": "/usr/bin/python3"], timeout: 60)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(
      result.standardOutput.contains("skipped: /usr/bin/python3: missing pyrebase4"),
      "\(result.allOutput)")
  }
}
