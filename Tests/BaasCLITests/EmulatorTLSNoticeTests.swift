import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite(
  "baas against the emulator's port over https: fails at once, logged", .timeLimit(.minutes(5)))
struct EmulatorTLSNoticeTests {
  @Test("NCMB_BASE_URL=https://… to baas emulator: a TLS error (not a timeout); --verbose logs it")
  func httpsToPlainPort() async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home, arguments: ["--verbose"])
    var stopped = false
    defer { if !stopped { kill(emulator.process.processIdentifier, SIGKILL) } }
    let account = uniqueAccount()
    baas.environment = [
      "BAAS_BACKEND": "ncmb", "NCMB_BASE_URL": "https://127.0.0.1:\(emulator.port)",
      "NCMB_APPLICATION_KEY": emulator.applicationKey, "NCMB_CLIENT_KEY": emulator.clientKey,
    ]
    let signIn = try await baas.run(
      ["signin", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(signIn.status == 1, "\(signIn.allOutput)")
    let error = try #require(try signIn.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "network", "\(signIn.allOutput)")
    let message = error["message"] as? String ?? ""
    #expect(message.contains("TLS"), "\(message)")
    #expect(!message.contains("timed out"), "\(message)")

    let server = await emulator.stop()
    stopped = true
    let notices = server.standardError.split(separator: "\n")
      .filter { $0.contains("TLS handshake on the plain-HTTP port") }
    #expect(notices.count == 1, "\(server.standardError)")
    #expect(!server.standardError.contains(account.password))
  }
}
