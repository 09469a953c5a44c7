import AccountDatabase
import BackendEmulator
import BackendHTTP
import FirebaseUserBackend
import Foundation
import Testing
import UserBackendKit

/// F5 against the emulator: an adapter configured for project `demo-other` that reaches
/// an emulator serving `demo-e2e` (`baas emulator --project-id demo-e2e`) gets ID tokens
/// whose `aud` is `demo-e2e`. A sign-up is `.misconfigured(setting: "projectID")` naming
/// both projects, and the account the emulator created is deleted again, so no orphan
/// holds the address (before: `.malformedResponse`, and the account stayed).
@Suite("Emulator: an adapter configured for another project", .timeLimit(.minutes(1)))
struct ProjectMismatchEndToEndTests {
  static func misconfigured(_ rig: EmulatorRig) throws -> FirebaseUserBackend {
    try FirebaseUserBackend(
      configuration: FirebaseConfiguration(
        apiKey: "demo-api-key", projectID: "demo-other", emulatorHost: rig.host),
      transport: rig.transport, sessionStore: InMemorySessionStore(), clock: rig.clock)
  }

  @Test("a sign-up names both projects and leaves no account", arguments: ["email", "anonymous"])
  func signUp(kind: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try Self.misconfigured(rig)
    let error = await #expect(throws: UserBackendError.self) {
      if kind == "email" {
        _ = try await backend.signUp(.email("ada@example.com", password: "secret1"))
      } else {
        _ = try await backend.signInAnonymously()
      }
    }
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "projectID")
    #expect(reason.contains("\"demo-other\""))
    #expect(reason.contains("\"demo-e2e\""))
    #expect(reason.contains("deleted again"))
    #expect(try rig.store.userCount() == 0)
    #expect(try await backend.currentUser() == nil)
    // With the project ID fixed, the address is free for the sign-up.
    if kind == "email" {
      let session = try await rig.firebase().signUp(
        .email("ada@example.com", password: "secret1"))
      #expect(session.isNewUser)
    }
  }

  @Test func aSignInNamesBothProjectsAndKeepsTheAccount() async throws {
    let rig = try EmulatorRig(.inProcess)
    _ = try await rig.firebase().signUp(.email("ada@example.com", password: "secret1"))
    let backend = try Self.misconfigured(rig)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.email("ada@example.com", password: "secret1"))
    }
    guard case .misconfigured(let setting, let reason) = error?.code else {
      Issue.record("expected misconfigured, got \(String(describing: error))")
      return
    }
    #expect(setting == "projectID")
    #expect(reason.contains("\"demo-other\"") && reason.contains("\"demo-e2e\""))
    #expect(try rig.store.userCount() == 1)
  }

  /// The readiness answer names the project, so a client can check before it writes.
  @Test func theReadinessAnswerNamesTheProject() async throws {
    let emulator = BackendEmulator(store: try makeStore(), projectID: "demo-e2e")
    let ready = try await EmulatorTransport(emulator).send(
      HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1:9099/")!))
    let object = try JSONSerialization.jsonObject(with: ready.body) as? [String: Any]
    let answer = object?["authEmulator"] as? [String: Any]
    #expect(answer?["ready"] as? Bool == true)
    #expect(answer?["projectId"] as? String == "demo-e2e")
  }
}
