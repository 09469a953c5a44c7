import Foundation

/// One user-account backend: Firebase Authentication, an NCMB-style server, the local
/// fake, or a third-party implementation checked by `UserBackendContracts`.
///
/// Every implementation is `Sendable` and safe to call from any task. Every operation is
/// declared `throws(UserBackendError)`: a caller reads `error.code` without a cast, and
/// an implementation cannot throw another error type (it maps foreign errors, such as
/// a transport's or a store's, at its boundary). Every operation validates plainly bad input (empty or malformed email, empty password) before any
/// network call and throws ``UserBackendError`` with `code == .invalidInput(field:reason:)`
/// or `.invalidEmail`.
///
/// Sessions live in the ``SessionStore`` given at construction, so ``currentUser()``
/// survives a process restart. Operations a backend does not offer throw
/// `UserBackendError(.unsupported(capability:))`; check ``capabilities`` first.
///
/// ## Topics
///
/// ### Core operations
/// - ``signUp(_:)``
/// - ``signIn(_:)``
/// - ``currentUser()``
/// - ``signOut()``
/// - ``idToken(forceRefresh:)``
///
/// ### Capabilities
/// - ``capabilities``
/// - ``signInAnonymously()``
/// - ``startPhoneVerification(phoneNumber:)``
/// - ``startPhoneVerification(phoneNumber:appVerification:)``
/// - ``signIn(verificationID:code:)``
/// - ``signIn(with:)``
/// - ``sendPasswordReset(email:)``
/// - ``deleteAccount()``
/// - ``authStateChanges``
///
/// ### Account management
/// - ``reload()``
/// - ``updateProfile(displayName:photoURL:)``
/// - ``updatePassword(_:)``
/// - ``updateEmail(_:)``
/// - ``sendEmailVerification()``
/// - ``applyEmailVerification(code:)``
/// - ``confirmPasswordReset(code:newPassword:)``
/// - ``reauthenticate(_:)``
/// - ``linkPassword(_:)``
///
/// ### The user's document
/// - ``userDocuments``
public protocol UserBackend: Sendable {
  /// A short, stable identifier of the implementation: `"fake"`, `"firebase"`, `"ncmb"`.
  var backendID: String { get }

  /// What this backend supports beyond the core operations.
  var capabilities: Set<Capability> { get }

  /// Creates an account and signs it in, as both services do.
  ///
  /// - Returns: the new session; `isNewUser` is `true`.
  /// - Throws: ``UserBackendError`` with `.invalidInput`, `.invalidEmail`, `.weakPassword`,
  ///   `.accountAlreadyExists`, `.unsupported` (identifier kind not accepted), `.network`,
  ///   `.server`, `.malformedResponse`.
  func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession

  /// Signs in with a password; replaces any previously signed-in user.
  ///
  /// - Throws: ``UserBackendError`` with `.invalidInput`, `.invalidEmail`,
  ///   `.invalidCredentials` (unknown account and wrong password alike), `.userDisabled`,
  ///   `.rateLimited`, `.network`, `.server`, `.malformedResponse`.
  func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession

  /// The signed-in user restored from the session store, or `nil` when nobody is signed in.
  /// Makes no network call.
  func currentUser() async throws(UserBackendError) -> User?

  /// Signs out. Local first: the stored session is cleared even when a server call
  /// fails. Signing out when nobody is signed in is not an error.
  func signOut() async throws(UserBackendError)

  /// The bearer credential the backend issues (Firebase ID token, NCMB session token),
  /// refreshed first when it is expired or `forceRefresh` is `true`.
  ///
  /// Concurrent callers share one refresh request. The session is cleared only when the
  /// server definitively rejects it (then `.sessionExpired` is thrown), never on a
  /// network error or cancellation.
  /// - Throws: ``UserBackendError`` with `.notSignedIn`, `.sessionExpired`, `.network`.
  func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String

  /// Signs in as a new anonymous (guest) user. Capability ``Capability/anonymousSignIn``.
  func signInAnonymously() async throws(UserBackendError) -> AuthSession

  /// Sends a verification code by SMS to an E.164 number (`+819012345678`) and returns
  /// the verification ID, which is also kept in the session store so the flow survives
  /// a restart. Capability ``Capability/phoneNumberSignIn``.
  func startPhoneVerification(phoneNumber: String) async throws(UserBackendError) -> String

  /// ``startPhoneVerification(phoneNumber:)`` with the app-verification proof production
  /// Firebase requires before it sends an SMS (an iOS receipt and secret, a reCAPTCHA
  /// token or a Play Integrity token). Backends that need none ignore it; the default
  /// implementation forwards to ``startPhoneVerification(phoneNumber:)``.
  /// - Throws: ``UserBackendError``, as ``startPhoneVerification(phoneNumber:)``, and
  ///   `.invalidInput(field: "appVerification")` when the proof is missing, malformed or
  ///   rejected.
  func startPhoneVerification(phoneNumber: String, appVerification: AppVerificationProof?)
    async throws(UserBackendError) -> String

  /// Completes phone sign-in with the verification ID and the SMS code.
  /// Capability ``Capability/phoneNumberSignIn``.
  func signIn(verificationID: String, code: String) async throws(UserBackendError) -> AuthSession

  /// Signs in with an OpenID ID token from an identity provider (Sign in with Apple).
  /// `isNewUser` tells sign-up from sign-in. Capability ``Capability/identityProviderSignIn``.
  func signIn(with credential: IdentityProviderCredential) async throws(UserBackendError)
    -> AuthSession

  /// Asks the backend to send a password-reset message. Capability ``Capability/passwordReset``.
  func sendPasswordReset(email: String) async throws(UserBackendError)

  /// Deletes the signed-in account and clears the session.
  /// Capability ``Capability/accountDeletion``.
  func deleteAccount() async throws(UserBackendError)

  /// Sign-in state: yields the current state first, then every sign-in, sign-out,
  /// token refresh and forced sign-out. Capability ``Capability/authStateChanges``.
  var authStateChanges: AsyncStream<AuthStateChange> { get }

  /// The signed-in user fresh from the server (an email changed or verified elsewhere
  /// shows here); the stored session's user is replaced with it.
  /// Capability ``Capability/userReload``.
  /// - Throws: ``UserBackendError`` with `.notSignedIn`, `.sessionExpired`, `.network`,
  ///   `.server`, `.malformedResponse`.
  func reload() async throws(UserBackendError) -> User

  /// Changes the display name and the photo URL. `nil` leaves a field unchanged; an empty
  /// string removes it. A photo URL must be an absolute `http` or `https` URL.
  /// Capability ``Capability/profileUpdate``.
  /// - Returns: the updated user (also stored in the session).
  /// - Throws: ``UserBackendError`` with `.invalidInput(field: "displayName" or
  ///   "photoURL")`, `.notSignedIn`, `.sessionExpired`, `.network`, `.server`.
  func updateProfile(displayName: String?, photoURL: String?) async throws(UserBackendError)
    -> User

  /// Changes the signed-in user's password. A sensitive change: it may need a recent
  /// sign-in. Where the service issues new tokens (Firebase), the session keeps them.
  /// Capability ``Capability/passwordUpdate``.
  /// - Throws: ``UserBackendError`` with `.invalidInput(field: "password")`,
  ///   `.weakPassword`, `.requiresRecentLogin`, `.notSignedIn`, `.sessionExpired`,
  ///   `.network`, `.server`.
  func updatePassword(_ newPassword: String) async throws(UserBackendError)

  /// Changes the signed-in user's email address (canonicalised as at sign-up). A
  /// sensitive change: it may need a recent sign-in. Capability ``Capability/emailUpdate``.
  /// - Returns: the updated user (also stored in the session).
  /// - Throws: ``UserBackendError`` with `.invalidEmail`, `.invalidInput(field: "email")`,
  ///   `.accountAlreadyExists`, `.requiresRecentLogin`, `.notSignedIn`,
  ///   `.sessionExpired`, `.network`, `.server`.
  func updateEmail(_ newEmail: String) async throws(UserBackendError) -> User

  /// Asks the backend to send a verification message to the signed-in user's email
  /// address. Capability ``Capability/emailVerification``.
  /// - Throws: ``UserBackendError`` with `.notSignedIn`, `.invalidInput(field: "email")`
  ///   (the user has no email address), `.rateLimited`, `.network`, `.server`.
  func sendEmailVerification() async throws(UserBackendError)

  /// Completes email verification with the out-of-band code the verification message
  /// carried (Firebase `oobCode`; the emulator and the fake list the codes they sent).
  /// Needs no signed-in user. Capability ``Capability/emailVerification``.
  /// - Throws: ``UserBackendError`` with `.invalidInput(field: "code")` (empty, unknown,
  ///   used or expired code), `.network`, `.server`.
  func applyEmailVerification(code: String) async throws(UserBackendError)

  /// Completes a password reset with the out-of-band code the reset message carried and a
  /// new password. Needs no signed-in user; sessions of the account issued before stay
  /// valid only where the service keeps them. Capability
  /// ``Capability/passwordResetCompletion``.
  /// - Throws: ``UserBackendError`` with `.invalidInput(field: "code")` (empty, unknown,
  ///   used or expired code), `.invalidInput(field: "password")`, `.weakPassword`,
  ///   `.network`, `.server`.
  func confirmPasswordReset(code: String, newPassword: String) async throws(UserBackendError)

  /// Signs the signed-in user in again with a password credential, which makes the
  /// session recent for sensitive changes. The user ID stays the same.
  /// Capability ``Capability/reauthentication``.
  /// - Returns: the new session.
  /// - Throws: ``UserBackendError`` with `.invalidCredentials`, `.userMismatch` (the
  ///   credential is another account's), `.notSignedIn`, `.network`, `.server`.
  func reauthenticate(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession

  /// Links a password credential to the signed-in anonymous (guest) user: the user ID
  /// stays, `isAnonymous` becomes `false`, and the account can sign in with the password
  /// afterwards. Capability ``Capability/anonymousUpgrade``.
  /// - Returns: the new session; `isNewUser` is `false`.
  /// - Throws: ``UserBackendError`` with `.invalidInput`, `.invalidEmail`,
  ///   `.weakPassword`, `.accountAlreadyExists` (the identifier belongs to another
  ///   account), `.invalidInput(field: "credential")` (the user is not anonymous),
  ///   `.notSignedIn`, `.network`, `.server`.
  func linkPassword(_ credential: PasswordCredential) async throws(UserBackendError)
    -> AuthSession

  /// The signed-in user's own document (Firestore `users/{uid}`, the NCMB user object's
  /// own fields, the fake's store). Capability ``Capability/userDocuments``; without it,
  /// every operation of the store throws `.unsupported(capability: .userDocuments)`.
  var userDocuments: any UserDocumentStore { get }
}

extension UserBackend {
  /// The bearer token, refreshed only when expired.
  public func idToken() async throws(UserBackendError) -> String {
    try await idToken(forceRefresh: false)
  }

  /// Default: throws `.unsupported(capability: .anonymousSignIn)`.
  public func signInAnonymously() async throws(UserBackendError) -> AuthSession {
    throw UserBackendError(.unsupported(capability: .anonymousSignIn))
  }
  /// Default: throws `.unsupported(capability: .phoneNumberSignIn)`.
  public func startPhoneVerification(phoneNumber: String) async throws(UserBackendError) -> String {
    throw UserBackendError(.unsupported(capability: .phoneNumberSignIn))
  }
  /// Default: ignores the proof and calls ``startPhoneVerification(phoneNumber:)``.
  public func startPhoneVerification(
    phoneNumber: String, appVerification: AppVerificationProof?
  ) async throws(UserBackendError) -> String {
    try await startPhoneVerification(phoneNumber: phoneNumber)
  }
  /// Default: throws `.unsupported(capability: .phoneNumberSignIn)`.
  public func signIn(verificationID: String, code: String) async throws(UserBackendError)
    -> AuthSession
  {
    throw UserBackendError(.unsupported(capability: .phoneNumberSignIn))
  }
  /// Default: throws `.unsupported(capability: .identityProviderSignIn)`.
  public func signIn(with credential: IdentityProviderCredential) async throws(UserBackendError)
    -> AuthSession
  {
    throw UserBackendError(.unsupported(capability: .identityProviderSignIn))
  }
  /// Default: throws `.unsupported(capability: .passwordReset)`.
  public func sendPasswordReset(email: String) async throws(UserBackendError) {
    throw UserBackendError(.unsupported(capability: .passwordReset))
  }
  /// Default: throws `.unsupported(capability: .accountDeletion)`.
  public func deleteAccount() async throws(UserBackendError) {
    throw UserBackendError(.unsupported(capability: .accountDeletion))
  }
  /// Default: a stream that finishes at once.
  public var authStateChanges: AsyncStream<AuthStateChange> {
    AsyncStream { $0.finish() }
  }
}
