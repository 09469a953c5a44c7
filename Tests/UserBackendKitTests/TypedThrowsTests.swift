import Foundation
import Testing
import UserBackendKit

/// Every operation of ``UserBackend`` is declared `throws(UserBackendError)`, so a caller
/// holding `any UserBackend` reads `error.code` in a plain `catch` with no cast, and a
/// conforming type cannot throw another error type: a witness declared `async throws`
/// (untyped) does not satisfy the requirement, so such a type does not compile. These
/// tests are that fact in code: each `catch` below uses `error.code` directly and switches
/// on it exhaustively (no `default`), which compiles only because the thrown type is
/// ``UserBackendError``; the assertions check that the error thrown is the one expected.
@Suite("typed throws through any UserBackend", .timeLimit(.minutes(1)))
struct TypedThrowsTests {
  /// A backend with only the core operations: every capability comes from the protocol
  /// extension's defaults, which throw `.unsupported` (typed as well).
  struct CoreOnlyBackend: UserBackend {
    var backendID: String { "core-only" }
    var capabilities: Set<Capability> { [.emailPassword] }
    func signUp(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
      _ = try CredentialValidation.validate(credential, forSignUp: true)
      throw UserBackendError(.accountAlreadyExists)
    }
    func signIn(_ credential: PasswordCredential) async throws(UserBackendError) -> AuthSession {
      throw UserBackendError(.invalidCredentials)
    }
    func currentUser() async throws(UserBackendError) -> User? { nil }
    func signOut() async throws(UserBackendError) {}
    func idToken(forceRefresh: Bool) async throws(UserBackendError) -> String {
      throw UserBackendError(.notSignedIn)
    }
  }

  /// The name of a code, by an exhaustive switch: a new case fails to compile here.
  static func name(_ code: UserBackendError.Code) -> String {
    switch code {
    case .invalidInput(let field, _): "invalidInput:\(field)"
    case .accountAlreadyExists: "accountAlreadyExists"
    case .invalidCredentials: "invalidCredentials"
    case .weakPassword: "weakPassword"
    case .invalidEmail: "invalidEmail"
    case .userDisabled: "userDisabled"
    case .notSignedIn: "notSignedIn"
    case .sessionExpired: "sessionExpired"
    case .requiresRecentLogin: "requiresRecentLogin"
    case .userMismatch: "userMismatch"
    case .permissionDenied: "permissionDenied"
    case .rateLimited: "rateLimited"
    case .unsupported(let capability): "unsupported:\(capability.rawValue)"
    case .network: "network"
    case .server: "server"
    case .malformedResponse: "malformedResponse"
    case .misconfigured: "misconfigured"
    }
  }

  let backend: any UserBackend = CoreOnlyBackend()

  @Test("core operations: the caught error is a UserBackendError without a cast")
  func coreOperations() async {
    var seen: [String] = []
    do {
      _ = try await backend.signUp(.email("ada@example.com", password: "123"))
    } catch {
      seen.append(Self.name(error.code))
    }
    do {
      _ = try await backend.signUp(.email("ada@example.com", password: "long enough"))
    } catch {
      seen.append(Self.name(error.code))
    }
    do {
      _ = try await backend.signIn(.email("ada@example.com", password: "wrong"))
    } catch {
      seen.append(Self.name(error.code))
    }
    do {
      _ = try await backend.idToken()
    } catch {
      seen.append(Self.name(error.code))
    }
    #expect(seen == ["weakPassword", "accountAlreadyExists", "invalidCredentials", "notSignedIn"])
  }

  @Test("capability defaults throw a typed .unsupported naming the capability")
  func capabilityDefaults() async {
    var seen: [String] = []
    do { _ = try await backend.signInAnonymously() } catch { seen.append(Self.name(error.code)) }
    do {
      _ = try await backend.startPhoneVerification(phoneNumber: "+819012345678")
    } catch {
      seen.append(Self.name(error.code))
    }
    do {
      _ = try await backend.startPhoneVerification(
        phoneNumber: "+819012345678", appVerification: nil)
    } catch {
      seen.append(Self.name(error.code))
    }
    do {
      _ = try await backend.signIn(verificationID: "v", code: "123456")
    } catch {
      seen.append(Self.name(error.code))
    }
    do {
      _ = try await backend.signIn(
        with: IdentityProviderCredential(provider: "apple.com", idToken: "x", rawNonce: nil))
    } catch {
      seen.append(Self.name(error.code))
    }
    do {
      try await backend.sendPasswordReset(email: "ada@example.com")
    } catch {
      seen.append(Self.name(error.code))
    }
    do { try await backend.deleteAccount() } catch { seen.append(Self.name(error.code)) }
    #expect(
      seen == [
        "unsupported:anonymousSignIn", "unsupported:phoneNumberSignIn",
        "unsupported:phoneNumberSignIn", "unsupported:phoneNumberSignIn",
        "unsupported:identityProviderSignIn", "unsupported:passwordReset",
        "unsupported:accountDeletion",
      ])
  }

  @Test("the session engine's failures are typed too: a failing store is misconfigured")
  func engineTyped() async {
    struct BrokenStore: SessionStore {
      struct Failure: Error {}
      func load() async throws -> PersistedAuthState { throw Failure() }
      func save(_ state: PersistedAuthState) async throws { throw Failure() }
      func clear() async throws { throw Failure() }
    }
    let engine = SessionEngine(store: BrokenStore())
    do {
      _ = try await engine.requireSession()
      Issue.record("a broken store was read")
    } catch {
      #expect(Self.name(error.code) == "misconfigured")
    }
  }
}
