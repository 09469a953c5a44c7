import Foundation

// The defaults of the account-management and document requirements: a backend that does
// not offer one throws `.unsupported` naming its capability.
extension UserBackend {
  /// Default: throws `.unsupported(capability: .userReload)`.
  public func reload() async throws(UserBackendError) -> User {
    throw UserBackendError(.unsupported(capability: .userReload))
  }
  /// Default: throws `.unsupported(capability: .profileUpdate)`.
  public func updateProfile(displayName: String?, photoURL: String?) async throws(UserBackendError)
    -> User
  {
    throw UserBackendError(.unsupported(capability: .profileUpdate))
  }
  /// Default: throws `.unsupported(capability: .passwordUpdate)`.
  public func updatePassword(_ newPassword: String) async throws(UserBackendError) {
    throw UserBackendError(.unsupported(capability: .passwordUpdate))
  }
  /// Default: throws `.unsupported(capability: .emailUpdate)`.
  public func updateEmail(_ newEmail: String) async throws(UserBackendError) -> User {
    throw UserBackendError(.unsupported(capability: .emailUpdate))
  }
  /// Default: throws `.unsupported(capability: .emailVerification)`.
  public func sendEmailVerification() async throws(UserBackendError) {
    throw UserBackendError(.unsupported(capability: .emailVerification))
  }
  /// Default: throws `.unsupported(capability: .emailVerification)`.
  public func applyEmailVerification(code: String) async throws(UserBackendError) {
    throw UserBackendError(.unsupported(capability: .emailVerification))
  }
  /// Default: throws `.unsupported(capability: .passwordResetCompletion)`.
  public func confirmPasswordReset(code: String, newPassword: String)
    async throws(UserBackendError)
  {
    throw UserBackendError(.unsupported(capability: .passwordResetCompletion))
  }
  /// Default: throws `.unsupported(capability: .reauthentication)`.
  public func reauthenticate(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    throw UserBackendError(.unsupported(capability: .reauthentication))
  }
  /// Default: throws `.unsupported(capability: .anonymousUpgrade)`.
  public func linkPassword(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession
  {
    throw UserBackendError(.unsupported(capability: .anonymousUpgrade))
  }
  /// Default: a store whose every operation throws
  /// `.unsupported(capability: .userDocuments)`.
  public var userDocuments: any UserDocumentStore { UnsupportedUserDocumentStore() }
}
