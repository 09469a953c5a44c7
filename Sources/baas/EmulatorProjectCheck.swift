import BackendHTTP
import Foundation
import UserBackendKit
import UserBackends

/// Before a command that creates an account or stores a new session (`signup`, `signin`),
/// with the Firebase backend on an Auth emulator and a project ID configured: asks the
/// emulator which project it serves, so a mismatch is reported before anything is written.
///
/// The adapter itself refuses an ID token of another project
/// (`.misconfigured(setting: "projectID")`) and deletes an account it has just created for
/// one; this check makes the common case (`baas emulator --project-id X` with
/// `FIREBASE_PROJECT_ID` Y) fail before the server creates the account at all. It costs
/// one loopback `GET /`: `baas emulator` answers `{"authEmulator":{"ready":true,
/// "projectId":"X"}}`. An emulator that does not name its project (the Firebase Auth
/// Emulator), or cannot be reached, is left to the operation and the adapter's check.
enum EmulatorProjectCheck {
  /// The longest the probe waits, in seconds: it is loopback or the local network.
  static let timeout: TimeInterval = 5

  /// Throws when the configured emulator serves another project than the configured one.
  /// - Throws: ``UserBackendKit/UserBackendError`` `.misconfigured(setting: "projectID")`
  ///   naming both projects. Never for a probe that fails or an answer without a project.
  static func check(_ configuration: BackendConfiguration, transport: any HTTPTransport)
    async throws(UserBackendError)
  {
    guard configuration.backend == .firebase,
      let host = configuration.firebase.emulatorHost,
      let projectID = configuration.firebase.projectID,
      let url = URL(string: "http://\(host)/")
    else { return }
    guard
      let response = try? await transport.send(
        HTTPRequest(method: .get, url: url, timeout: timeout)),
      response.status == 200,
      let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
      let emulator = object["authEmulator"] as? [String: Any],
      let served = emulator["projectId"] as? String,
      FirebaseProjectID.problem(with: served) == nil, served != projectID
    else { return }
    throw UserBackendError(
      .misconfigured(
        setting: "projectID",
        reason: "the configured project is \"\(projectID)\", but the Auth emulator at \(host) "
          + "serves project \"\(served)\" (baas emulator --project-id \(served)); its ID "
          + "tokens would not be for the configured project. Set the project ID to "
          + "\"\(served)\", or start the emulator with --project-id \(projectID). Nothing "
          + "was sent to create or sign in an account."))
  }
}

extension Context {
  /// ``EmulatorProjectCheck/check(_:transport:)`` through this context's transport (logged
  /// with `--verbose`), else a network transport reading at most 64 KiB.
  func checkEmulatorProject(_ configuration: BackendConfiguration) async throws(UserBackendError) {
    try await EmulatorProjectCheck.check(
      configuration,
      transport: transport ?? NetworkTransport.standard(maximumResponseBodyBytes: 65_536))
  }

  /// ``makeBackendForSignIn(offering:)``, then ``checkEmulatorProject(_:)``.
  /// - Throws: as ``makeBackendForSignIn(offering:)``; `.misconfigured(setting:
  ///   "projectID")` when the emulator serves another project.
  func makeCheckedBackendForSignIn(offering capabilities: [Capability]) async throws
    -> any UserBackend
  {
    let backend = try await makeBackendForSignIn(offering: capabilities)
    try await checkEmulatorProject(configuration())
    return backend
  }
}
