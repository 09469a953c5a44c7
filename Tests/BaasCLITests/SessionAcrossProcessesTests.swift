import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `baas` instance set up for `backend`, with an emulator for firebase and ncmb.
private func environment(for backend: String, emulator: RunningEmulator?) -> [String: String] {
  var environment = ["BAAS_BACKEND": backend]
  if let emulator {
    environment["FIREBASE_API_KEY"] = "test-api-key"
    environment["FIREBASE_PROJECT_ID"] = "demo-project"
    environment["FIREBASE_AUTH_EMULATOR_HOST"] = "127.0.0.1:\(emulator.port)"
    environment["NCMB_BASE_URL"] = "http://127.0.0.1:\(emulator.port)"
    environment["NCMB_APPLICATION_KEY"] = emulator.applicationKey
    environment["NCMB_CLIENT_KEY"] = emulator.clientKey
  }
  return environment
}

/// A running emulator, unless `skip`.
private func startEmulator(unless skip: Bool, in home: URL) async throws -> RunningEmulator? {
  if skip { return nil }
  return try await RunningEmulator.start(in: home)
}

/// Marks the stored session of `backend` in `home` as expired an hour ago.
private func expireSession(in home: URL, backend: String) throws {
  let name = try #require(
    try FileManager.default.contentsOfDirectory(atPath: home.path).first {
      $0.hasPrefix(backend) && $0.hasSuffix(".session.json")
    }, "no session file")
  let file = home.appendingPathComponent(name)
  var state = try #require(
    try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
  var session = try #require(state["session"] as? [String: Any])
  session["expiresAt"] = Date().timeIntervalSince1970 - 3600
  state["session"] = session
  try JSONSerialization.data(withJSONObject: state).write(to: file)
}

@Suite("baas: one session file, several processes", .timeLimit(.minutes(2)))
struct SessionAcrossProcessesTests {
  @Test(
    "an unusable BAAS_HOME is misconfigured with exit status 2 on every backend",
    arguments: ["fake", "firebase", "ncmb"])
  func unusableHome(backend: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await startEmulator(unless: backend == "fake", in: baas.home)
    var stopped = false
    defer {
      // Only a child that is still running: an exited one's PID may belong to another.
      if let emulator, !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = environment(for: backend, emulator: emulator)
    let account = uniqueAccount()
    let result = try await baas.run(
      ["--backend", backend, "signup", "--email", account.email, "--json"],
      environment: ["BAAS_HOME": "/proc/nonexistent", "BAAS_PASSWORD": account.password])
    #expect(result.status == 2, "\(result.allOutput)")
    let error = try #require(try result.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "misconfigured")
    let message = try #require(error["message"] as? String)
    #expect(message.contains("BAAS_HOME"), "\(message)")
    #expect(message.contains("/proc/nonexistent"), "\(message)")
    #expect(!result.allOutput.contains(account.password))
    // The state directory was checked before any request: the server created nothing, so
    // the same sign-up with a usable BAAS_HOME succeeds (it was EMAIL_EXISTS / E409001).
    let retry = try await baas.run(
      ["--backend", backend, "signup", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(retry.status == 0, "\(retry.allOutput)")
    if let emulator {
      _ = await emulator.stop()
      stopped = true
    }
  }

  @Test(
    "parallel baas token and token --refresh on an expired session all succeed and keep it",
    arguments: ["fake", "firebase"])
  func parallelRefresh(backend: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await startEmulator(unless: backend == "fake", in: baas.home)
    var stopped = false
    defer {
      // Only a child that is still running: an exited one's PID may belong to another.
      if let emulator, !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = environment(for: backend, emulator: emulator)
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")

    for arguments in [["token"], ["token", "--refresh"]] {
      try expireSession(in: baas.home, backend: backend)
      let runner = baas
      let results = try await withThrowingTaskGroup(of: BaasResult.self) { group in
        for _ in 0..<6 { group.addTask { try await runner.run(arguments) } }
        return try await group.reduce(into: [BaasResult]()) { $0.append($1) }
      }
      for result in results {
        #expect(result.status == 0, "baas \(arguments.joined(separator: " ")): \(result.allOutput)")
        #expect(!result.standardOutput.isEmpty)
      }
      let whoami = try await baas.run(["whoami", "--json"])
      #expect(whoami.status == 0, "signed out by the parallel refreshes: \(whoami.allOutput)")
    }
    let again = try await baas.run(["token", "--refresh"])
    #expect(again.status == 0, "\(again.allOutput)")
    if let emulator {
      _ = await emulator.stop()
      stopped = true
    }
  }
}
