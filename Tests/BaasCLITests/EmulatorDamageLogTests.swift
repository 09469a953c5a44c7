import Foundation
import Testing
import UserBackendKit

@testable import AccountDatabase

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `baas emulator --data FILE` with a damaged row answers 500 for the requests that read
/// it and says on standard error where the damage is: the file, `table.column` and the
/// row's user ID, never the stored value.
@Suite(
  "baas emulator: damaged --data is logged with file, table.column and row", .timeLimit(.minutes(3))
)
struct EmulatorDamageLogTests {
  @Test(
    "a sign-in that reads a damaged users row logs the damage on standard error",
    arguments: [
      ("created_at", "'not-a-time-4711'", "users.created_at"),
      ("password_iterations", "4711000000", "users.password_iterations"),
      ("password_iterations", "-4711", "users.password_iterations"),
    ])
  func damagedUserRow(column: String, value: String, named: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let file = baas.home.appendingPathComponent("users.sqlite").path
    let account = uniqueAccount()
    let uid: String
    do {
      let store = try UserStore(path: file, passwordHashIterations: 1)
      uid = try store.createUser(NewUser(email: account.email, password: account.password)).id
      _ = try store.locked { db in
        try db.run(
          "UPDATE users SET \(column) = \(value) WHERE id = ?", [.text(uid)])
      }
    }
    let emulator = try await RunningEmulator.start(in: baas.home, arguments: ["--data", file])
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = [
      "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
      "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
    ]
    let signIn = try await baas.run(
      ["signin", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(signIn.status == 1, "\(signIn.allOutput)")
    let result = await emulator.stop()
    stopped = true
    let log = result.standardError
    let line = log.split(separator: "\n").first { $0.contains(named) }
    #expect(line != nil, "\(log)")
    #expect(line?.contains(file) == true, "\(log)")
    #expect(line?.contains(uid) == true, "\(log)")
    #expect(!log.contains("4711"), "the stored value is not logged: \(log)")
    #expect(!log.contains(account.password), "\(log)")
  }

  @Test("a document read over damaged documents.fields logs the damage on standard error")
  func damagedDocument() async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let file = baas.home.appendingPathComponent("users.sqlite").path
    let account = uniqueAccount()
    let uid: String
    do {
      let store = try UserStore(path: file, passwordHashIterations: 1)
      uid = try store.createUser(NewUser(email: account.email, password: account.password)).id
      _ = try store.updateDocument(userID: uid, setting: ["n": .integer(1)], removing: [])
      _ = try store.locked { db in
        try db.run(
          "UPDATE documents SET fields = 'secret-4711' WHERE user_id = ?", [.text(uid)])
      }
    }
    let emulator = try await RunningEmulator.start(in: baas.home, arguments: ["--data", file])
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = [
      "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
      "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
    ]
    let signIn = try await baas.run(
      ["signin", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(signIn.status == 0, "\(signIn.allOutput)")
    let read = try await baas.run(["doc", "get"])
    #expect(read.status == 1, "\(read.allOutput)")
    let result = await emulator.stop()
    stopped = true
    let log = result.standardError
    let line = log.split(separator: "\n").first { $0.contains("documents.fields") }
    #expect(line?.contains(file) == true, "\(log)")
    #expect(line?.contains(uid) == true, "\(log)")
    #expect(!log.contains("secret-4711"), "\(log)")
  }
}
