import BackendHTTP
import Foundation
import UserBackendKit
import UserBackends

/// The warning for production Firebase Auth (no `FIREBASE_AUTH_EMULATOR_HOST`) with
/// `FIRESTORE_EMULATOR_HOST` set: the Firestore requests then carry the production ID
/// token in plain HTTP to the emulator host. Printed once per process (one command), on
/// standard error, naming the two settings and the host, never the token. A public host
/// never gets here: the configuration refuses it.
enum FirestoreTokenWarning {
  private static let printed = LockedValue(false)

  /// The warning line for `configuration`, or `nil` when the combination is not used.
  static func text(for configuration: BackendConfiguration) -> String? {
    guard configuration.backend == .firebase, configuration.firebase.emulatorHost == nil,
      let host = configuration.firebase.firestoreEmulatorHost
    else { return nil }
    let firestore = ConfigurationVariable.firestoreEmulatorHost
    let auth = ConfigurationVariable.firebaseEmulatorHost
    return "baas: warning: \(firestore) is set (\(TerminalText.safe(host))) but \(auth) is not: "
      + "the production ID token goes in plain HTTP to the Firestore emulator; set \(auth) "
      + "too, or unset \(firestore) to use production Firestore"
  }

  /// Prints the warning for `configuration` on standard error, at most once per process.
  static func warnOnce(_ configuration: BackendConfiguration) {
    guard let line = text(for: configuration) else { return }
    let first = printed.withLock { printed in
      defer { printed = true }
      return !printed
    }
    if first { Console.error(line) }
  }
}

extension Context {
  /// ``UserBackends/make(from:transport:)`` with this context's transport, after
  /// ``FirestoreTokenWarning``.
  func make(_ configuration: BackendConfiguration) async throws -> any UserBackend {
    FirestoreTokenWarning.warnOnce(configuration)
    return try await UserBackends.make(from: configuration, transport: transport)
  }
}
