import BackendHTTP
import Foundation
import Testing
import UserBackendContracts
import UserBackendKit
import UserBackendTesting

/// Rewrites the JSON object body of each request before the emulator sees it (a server
/// that reads its input wrongly). Bodies that are not a JSON object pass unchanged.
struct BodyRewritingTransport: HTTPTransport {
  let wrapped: any HTTPTransport
  let rewrite: @Sendable (HTTPRequest, inout [String: Any]) -> Void

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var request = request
    if var object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] {
      rewrite(request, &object)
      request.body = try JSONSerialization.data(withJSONObject: object)
    }
    return try await wrapped.send(request)
  }
}

/// The password of the latest sign-up a server saw.
final class LatestSignUpPassword: Sendable {
  private let value = LockedValue<String?>(nil)
  func set(_ password: String) { value.withLock { $0 = password } }
  func get() -> String? { value.withLock { $0 } }
}

/// Broken account handling on the wire, and the contract that must catch each: the
/// emulator behind a transport that makes it ignore a password or email change, or accept
/// any password at sign-in. Each passes on the sound emulator and fails on the broken one.
@Suite(.timeLimit(.minutes(2))) struct BrokenAccountServerTests {
  /// A password update that changes nothing: the new password is dropped from the
  /// request (Firebase `accounts:update`, NCMB `PUT users/{objectId}`), so the server
  /// answers success and keeps the old password.
  static func ignoresPasswordChanges(_ wrapped: any HTTPTransport) -> any HTTPTransport {
    BodyRewritingTransport(wrapped: wrapped) { request, object in
      let path = request.url.path
      guard
        path.hasSuffix("accounts:update") || (request.method == .put && path.contains("/users/"))
      else { return }
      object["password"] = nil
    }
  }

  /// An email change that changes nothing: the new address is dropped from the update
  /// (Firebase `email`; NCMB `mailAddress` and the `userName` that mirrors it), so the
  /// server answers success, keeps the old address and checks no duplicate.
  static func ignoresEmailChanges(_ wrapped: any HTTPTransport) -> any HTTPTransport {
    BodyRewritingTransport(wrapped: wrapped) { request, object in
      let path = request.url.path
      guard
        path.hasSuffix("accounts:update") || (request.method == .put && path.contains("/users/"))
      else { return }
      for key in ["email", "mailAddress", "userName"] { object[key] = nil }
    }
  }

  /// A sign-in that accepts any password: the password of the latest sign-up replaces the
  /// one sent (Firebase `accounts:signInWithPassword`, NCMB `POST login`).
  static func acceptsAnyPassword(_ wrapped: any HTTPTransport) -> any HTTPTransport {
    let latest = LatestSignUpPassword()
    return BodyRewritingTransport(wrapped: wrapped) { request, object in
      let path = request.url.path
      if path.hasSuffix("accounts:signUp") || (request.method == .post && path.hasSuffix("/users")),
        let password = object["password"] as? String
      {
        latest.set(password)
      } else if path.hasSuffix("accounts:signInWithPassword") || path.hasSuffix("/login"),
        object["password"] != nil, let password = latest.get()
      {
        object["password"] = password
      }
    }
  }

  static let servers: [BrokenServer] = WireBackend.allCases.flatMap { backend in
    [
      BrokenServer(
        name: "a server that ignores password changes", backend: backend,
        contract: "update-password-then-sign-in", step: 7,
        fault: { ignoresPasswordChanges($0) }),
      BrokenServer(
        name: "a server that ignores email changes", backend: backend,
        contract: "update-email-visible-after-reload", step: 4,
        fault: { ignoresEmailChanges($0) }),
      BrokenServer(
        name: "a server that accepts any password", backend: backend,
        contract: "sign-in-wrong-password", step: 3, fault: { acceptsAnyPassword($0) }),
    ]
  }

  @Test(arguments: servers)
  func theBrokenServerFailsTheContract(_ server: BrokenServer) async throws {
    let contract = try loadContract(server.contract)
    let sound = await ContractRunner.run(contract, on: EmulatorHarness(backend: server.backend))
    #expect(sound.outcome == .passed, "\(sound.outcome)")

    var broken = EmulatorHarness(backend: server.backend)
    broken.serverFault = server.fault
    let result = await ContractRunner.run(contract, on: broken)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("\(server.name) was not caught: \(result.outcome)")
      return
    }
    #expect(failure.step == server.step, "\(failure)")
  }
}
