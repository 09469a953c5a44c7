import Foundation
import UserBackendKit

/// The operation names a contract step can use (the step's `"op"`).
public enum OperationName: String, Sendable, Hashable, Codable, CaseIterable {
  /// `UserBackend.signUp(_:)`; input ``CredentialInput``.
  case signUp
  /// `UserBackend.signIn(_:)`; input ``CredentialInput``.
  case signIn
  /// `UserBackend.currentUser()`; no input.
  case currentUser
  /// `UserBackend.signOut()`; no input.
  case signOut
  /// `UserBackend.idToken(forceRefresh:)`; input `{"forceRefresh": Bool}` (optional).
  case idToken
  /// A new backend over the same session store; no input.
  case restart
  /// Moves the environment's clock; input `{"seconds": Number}`.
  case advanceClock
  /// Runs operations at once; input ``ConcurrentInput``.
  case concurrent
  /// `UserBackend.signInAnonymously()`; no input.
  case signInAnonymously
  /// `UserBackend.startPhoneVerification(phoneNumber:)`; input `{"phoneNumber": String}`.
  case startPhoneVerification
  /// `UserBackend.signIn(verificationID:code:)`; input ``PhoneSignInInput``.
  case signInWithPhone
  /// `UserBackend.signIn(with:)`; input ``IdentityProviderInput``.
  case signInWithIdentityProvider
  /// `UserBackend.sendPasswordReset(email:)`; input `{"email": String}`.
  case sendPasswordReset
  /// `UserBackend.deleteAccount()`; no input.
  case deleteAccount
  /// Subscribes to `UserBackend.authStateChanges`; no input. Label the step to refer to
  /// the subscription from an ``expectEvents`` step.
  case authStateChanges
  /// Waits for the events of a subscription; input `{"subscription": "label"}`
  /// (optional: the latest subscription); expectation `{"events": [...]}`.
  case expectEvents
  /// `UserBackend.reload()`; no input; the fresh user.
  case reload
  /// `UserBackend.updateProfile(displayName:photoURL:)`; input ``ProfileInput``.
  case updateProfile
  /// `UserBackend.updatePassword(_:)`; input `{"password": String}`.
  case updatePassword
  /// `UserBackend.updateEmail(_:)`; input `{"email": String}`; the updated user.
  case updateEmail
  /// `UserBackend.sendEmailVerification()`; no input.
  case sendEmailVerification
  /// `UserBackend.applyEmailVerification(code:)` with the code the environment reports
  /// for the email; input ``OutOfBandInput``.
  case applyEmailVerification
  /// `UserBackend.confirmPasswordReset(code:newPassword:)` with the code the environment
  /// reports for the email; input ``PasswordResetInput``.
  case confirmPasswordReset
  /// `UserBackend.reauthenticate(_:)`; input ``CredentialInput``; a session.
  case reauthenticate
  /// `UserBackend.linkPassword(_:)`; input ``CredentialInput``; a session.
  case linkPassword
  /// `UserDocumentStore.document(userID:)`; input ``DocumentTarget`` (optional).
  case getDocument
  /// `UserDocumentStore.createDocument(userID:fields:)`; input ``DocumentCreateInput``.
  case createDocument
  /// `UserDocumentStore.updateDocument(userID:setting:removing:)`; input
  /// ``DocumentUpdateInput``.
  case updateDocument
  /// `UserDocumentStore.deleteDocument(userID:)`; input ``DocumentTarget`` (optional).
  case deleteDocument
  /// `UserDocumentStore.ensureDocument(for:displayName:)` for the signed-in user; input
  /// `{"displayName": String}` (optional, default `"anonymous"`).
  case ensureDocument
  /// A second device signed in as the same user: a new backend instance over a copy of
  /// the current session (its tokens), named by the step's label; no input. A later step
  /// with `"device": "label"` runs on it, so a contract can present an old credential
  /// after the first device signed out, changed the password or deleted the account.
  case addDevice
  /// Reads a user's document straight from the server, past the adapter and its checks:
  /// the environment sends the wire protocol's read with the signed-in user's bearer token
  /// (``ContractEnvironment/rawDocumentRead(userID:bearerToken:)``); input
  /// ``DocumentTarget`` (optional); expectation `{"server": "refused"}` or
  /// `{"server": "served"}`. Needs ``Contract/rawServerRequests`` in `requires`.
  case rawGetDocument
}

/// What a step does, with its input already typed.
public enum ContractOperation: Sendable, Hashable {
  /// Sign up with a password credential.
  case signUp(CredentialInput)
  /// Sign in with a password credential.
  case signIn(CredentialInput)
  /// Read the current user.
  case currentUser
  /// Sign out.
  case signOut
  /// Get the bearer token.
  case idToken(forceRefresh: Bool)
  /// Recreate the backend over the same session store.
  case restart
  /// Advance the controllable clock by a number of seconds.
  case advanceClock(seconds: TimeInterval)
  /// Run operations concurrently.
  case concurrent(ConcurrentInput)
  /// Anonymous sign-in.
  case signInAnonymously
  /// Send an SMS code to a phone number (E.164).
  case startPhoneVerification(phoneNumber: String)
  /// Complete phone sign-in with the code the environment reports.
  case signInWithPhone(PhoneSignInInput)
  /// Sign in with an identity provider's (unsigned, test) ID token.
  case signInWithIdentityProvider(IdentityProviderInput)
  /// Request a password reset email.
  case sendPasswordReset(email: String)
  /// Delete the signed-in account.
  case deleteAccount
  /// Subscribe to auth state changes.
  case authStateChanges
  /// Wait for and check a subscription's events; `nil` means the latest subscription.
  case expectEvents(subscription: String?)
  /// The signed-in user fresh from the server.
  case reload
  /// Change the display name and / or the photo URL.
  case updateProfile(ProfileInput)
  /// Change the password (never printed).
  case updatePassword(password: String)
  /// Change the email address.
  case updateEmail(email: String)
  /// Ask for an email verification message.
  case sendEmailVerification
  /// Complete email verification with the environment's code.
  case applyEmailVerification(OutOfBandInput)
  /// Complete a password reset with the environment's code.
  case confirmPasswordReset(PasswordResetInput)
  /// Sign the signed-in user in again.
  case reauthenticate(CredentialInput)
  /// Link a password credential to the signed-in guest.
  case linkPassword(CredentialInput)
  /// Read a user's document (the signed-in user's, or the user of a labelled step).
  case getDocument(DocumentTarget)
  /// Create a document only if absent.
  case createDocument(DocumentCreateInput)
  /// Merge fields into a document.
  case updateDocument(DocumentUpdateInput)
  /// Delete a document.
  case deleteDocument(DocumentTarget)
  /// The source app's "ensure the document exists" flow.
  case ensureDocument(displayName: String?)
  /// A second device: a new backend over a copy of the current session.
  case addDevice
  /// Read a user's document with a request of the environment's own, not the adapter's.
  case rawGetDocument(DocumentTarget)

  /// The operation's name as written in contract files.
  public var name: OperationName {
    switch self {
    case .signUp: .signUp
    case .signIn: .signIn
    case .currentUser: .currentUser
    case .signOut: .signOut
    case .idToken: .idToken
    case .restart: .restart
    case .advanceClock: .advanceClock
    case .concurrent: .concurrent
    case .signInAnonymously: .signInAnonymously
    case .startPhoneVerification: .startPhoneVerification
    case .signInWithPhone: .signInWithPhone
    case .signInWithIdentityProvider: .signInWithIdentityProvider
    case .sendPasswordReset: .sendPasswordReset
    case .deleteAccount: .deleteAccount
    case .authStateChanges: .authStateChanges
    case .expectEvents: .expectEvents
    case .reload: .reload
    case .updateProfile: .updateProfile
    case .updatePassword: .updatePassword
    case .updateEmail: .updateEmail
    case .sendEmailVerification: .sendEmailVerification
    case .applyEmailVerification: .applyEmailVerification
    case .confirmPasswordReset: .confirmPasswordReset
    case .reauthenticate: .reauthenticate
    case .linkPassword: .linkPassword
    case .getDocument: .getDocument
    case .createDocument: .createDocument
    case .updateDocument: .updateDocument
    case .deleteDocument: .deleteDocument
    case .ensureDocument: .ensureDocument
    case .addDevice: .addDevice
    case .rawGetDocument: .rawGetDocument
    }
  }
}

/// Input of `signUp` / `signIn`: exactly one of `email` or `username`, and `password`.
/// Strings may contain `{{variables}}`.
public struct CredentialInput: Sendable, Hashable, Codable {
  /// The email identifier (may carry surrounding spaces or other letter case on purpose).
  public var email: String?
  /// The user-name identifier.
  public var username: String?
  /// The password, verbatim (never trimmed). Never printed in reports.
  public var password: String

  /// An input value.
  public init(email: String? = nil, username: String? = nil, password: String) {
    self.email = email
    self.username = username
    self.password = password
  }

  /// Decodes and checks that exactly one identifier is given.
  /// - Throws: a format error naming the key.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["email", "username", "password"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    email = try container.decodeIfPresent(String.self, forKey: .email)
    username = try container.decodeIfPresent(String.self, forKey: .username)
    password = try container.decode(String.self, forKey: .password)
    guard (email == nil) != (username == nil) else {
      throw ContractFormatError.invalid(decoder, nil, "give exactly one of email or username")
    }
  }
}

/// Input of `concurrent`: `{"copies": N, "step": {...}}` runs N copies of one operation;
/// `{"steps": [{...}, ...]}` runs a list. Inner steps have `op` and `input` only.
/// `"devices": true` runs each operation on its own backend instance over a copy of the
/// current session, like several devices signed in as the same user.
public struct ConcurrentInput: Sendable, Hashable, Codable {
  /// The operations, already expanded (N copies appear N times).
  public var operations: [ContractOperation]
  /// `true`: one backend (device) per operation; `false`: all on the step's backend.
  public var devices: Bool

  /// An input running `operations` at once.
  public init(operations: [ContractOperation], devices: Bool = false) {
    self.operations = operations
    self.devices = devices
  }

  private enum CodingKeys: String, CodingKey { case copies, step, steps, devices }

  /// Decodes either form.
  /// - Throws: a format error when neither or both forms are given, or `copies` < 1.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["copies", "step", "steps", "devices"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    devices = try container.decodeIfPresent(Bool.self, forKey: .devices) ?? false
    if let step = try container.decodeIfPresent(InnerStep.self, forKey: .step) {
      let copies = try container.decodeIfPresent(Int.self, forKey: .copies) ?? 1
      guard copies >= 1, copies <= 1000, !container.contains(.steps) else {
        throw ContractFormatError.invalid(
          decoder, nil, "give copies (1...1000) with step, or steps alone")
      }
      operations = Array(repeating: step.operation, count: copies)
    } else if let steps = try container.decodeIfPresent([InnerStep].self, forKey: .steps),
      !steps.isEmpty, !container.contains(.copies)
    {
      operations = steps.map(\.operation)
    } else {
      throw ContractFormatError.invalid(decoder, nil, "give step (with copies) or steps")
    }
  }

  /// Encodes as the `steps` form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(operations.map(InnerStep.init), forKey: .steps)
    if devices { try container.encode(true, forKey: .devices) }
  }

  /// A step inside `concurrent`: an operation and its input, nothing else.
  private struct InnerStep: Codable {
    var operation: ContractOperation
    init(_ operation: ContractOperation) { self.operation = operation }
    init(from decoder: any Decoder) throws {
      try ContractFormatError.checkKeys(decoder, allowed: ["op", "input"])
      operation = try ContractOperation.decodeOperation(from: decoder)
      let forbidden: Set<OperationName> = [
        .restart, .advanceClock, .concurrent, .authStateChanges, .expectEvents, .addDevice,
      ]
      if forbidden.contains(operation.name) {
        throw ContractFormatError.invalid(
          decoder, "op", "\(operation.name.rawValue) cannot run inside concurrent")
      }
    }
    func encode(to encoder: any Encoder) throws { try operation.encodeOperation(to: encoder) }
  }
}

/// Input of `signInWithPhone`: which `startPhoneVerification` step (by label; default the
/// latest) and whether to send a deliberately wrong code. The right code comes from
/// `ContractEnvironment.phoneVerificationCode(for:)`.
public struct PhoneSignInInput: Sendable, Hashable, Codable {
  /// The label of the `startPhoneVerification` step, or `nil` for the latest one.
  public var verification: String?
  /// `true`: send a code that differs from the right one in every digit.
  public var wrongCode: Bool

  /// An input value.
  public init(verification: String? = nil, wrongCode: Bool = false) {
    self.verification = verification
    self.wrongCode = wrongCode
  }

  /// Decodes; both keys are optional.
  /// - Throws: a format error on unknown keys.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(decoder, allowed: ["verification", "wrongCode"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    verification = try container.decodeIfPresent(String.self, forKey: .verification)
    wrongCode = try container.decodeIfPresent(Bool.self, forKey: .wrongCode) ?? false
  }
}

/// Input of `signInWithIdentityProvider`. The runner builds an **unsigned** test ID token
/// (`alg: none`) from `claims`, adding `nonce` = SHA-256 hex of `rawNonce` (of a different
/// value when `wrongNonce`), and `iat` / `exp` (now, now + 600 s) unless given.
public struct IdentityProviderInput: Sendable, Hashable, Codable {
  /// The provider ID, e.g. `"apple.com"`.
  public var provider: String
  /// The ID token's claims (`iss`, `aud`, `sub`, `email`, ...); strings may hold variables.
  public var claims: [String: JSONValue]
  /// The raw nonce sent alongside the token, or `nil` for none.
  public var rawNonce: String?
  /// `true`: the token's `nonce` claim does not match `rawNonce`.
  public var wrongNonce: Bool

  /// An input value.
  public init(
    provider: String, claims: [String: JSONValue], rawNonce: String?, wrongNonce: Bool = false
  ) {
    self.provider = provider
    self.claims = claims
    self.rawNonce = rawNonce
    self.wrongNonce = wrongNonce
  }

  /// Decodes; `provider` and `claims` are required, `claims.sub` must be present.
  /// - Throws: a format error naming the key.
  public init(from decoder: any Decoder) throws {
    try ContractFormatError.checkKeys(
      decoder, allowed: ["provider", "claims", "rawNonce", "wrongNonce"])
    let container = try decoder.container(keyedBy: CodingKeys.self)
    provider = try container.decode(String.self, forKey: .provider)
    claims = try container.decode([String: JSONValue].self, forKey: .claims)
    rawNonce = try container.decodeIfPresent(String.self, forKey: .rawNonce)
    wrongNonce = try container.decodeIfPresent(Bool.self, forKey: .wrongNonce) ?? false
    guard claims["sub"] != nil else {
      throw ContractFormatError.invalid(decoder, "claims", "the sub claim is required")
    }
    if wrongNonce && rawNonce == nil {
      throw ContractFormatError.invalid(decoder, "wrongNonce", "needs a rawNonce")
    }
  }
}
