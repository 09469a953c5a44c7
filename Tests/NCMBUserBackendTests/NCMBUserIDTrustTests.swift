import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// User IDs that cannot name one user: sign-in answers carrying one are
/// `.malformedResponse` with nothing stored; calls that would put one into a URL path are
/// refused before any request.
@Suite("NCMB: unusable user IDs", .timeLimit(.minutes(1)))
struct NCMBUserIDTrustTests {
  /// IDs no NCMB server issues (its objectIds are letters and digits; compatible servers
  /// issue UUIDs).
  static let unusableAnswers = [
    "", ".", "..", "a/../x?y#z", "a/b", "a?b", "a#b", "a%2Fb", "a\\b", "a\u{0}b", "a\nb",
    "a b", "ü", String(repeating: "u", count: 129),
  ]

  /// The flows that store a new session from a `users` / `login` answer.
  enum SignIn: String, CaseIterable, CustomTestStringConvertible {
    case signUp, password, anonymous, apple
    var testDescription: String { rawValue }
  }

  @Test(
    "a sign-in answering an unusable objectId is malformedResponse; nothing is stored",
    arguments: SignIn.allCases, unusableAnswers)
  func signIn(_ flow: SignIn, objectId: String) async throws {
    let quoted = String(decoding: try JSONEncoder().encode(objectId), as: UTF8.self)
    let server = StubTransport(
      status: 201,
      json: #"{"objectId":\#(quoted),"userName":"alice","sessionToken":"\#(Fixture.sessionToken)","#
        + #""createDate":"2013-08-28T11:27:16.446Z","authData":null}"#)
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(server, store: store)

    let outcome = await documentOutcome { () async throws(UserBackendError) in
      let credential = PasswordCredential.username("alice", password: "password-1")
      switch flow {
      case .signUp: _ = try await backend.signUp(credential)
      case .password: _ = try await backend.signIn(credential)
      case .anonymous: _ = try await backend.signInAnonymously()
      case .apple:
        _ = try await backend.signIn(
          with: IdentityProviderCredential(
            provider: "apple.com",
            idToken: JSONWebToken.unsigned(claims: ["sub": "001234.abcd", "aud": "com.example"]),
            rawNonce: nil, authorizationCode: "code"))
      }
    }
    guard case .malformedResponse = outcome.errorCode else {
      Issue.record("expected malformedResponse, got \(String(describing: outcome.errorCode))")
      return
    }
    #expect(try await store.load().session == nil)
    #expect(!"\(outcome)".contains(Fixture.sessionToken))
  }

  /// Input no user ID can be: the one rule both adapters and the CLI share.
  static let unusableInput = [
    "", ".", "..", "a/b", "a?b", "a#b", "a%2Fb", "a\\b", "a\u{0}b", "a\nb", "a\u{7F}b",
    String(repeating: "u", count: 129),
  ]

  @Test(
    "a document call for an unusable userID is invalidInput(userID) before any request",
    arguments: ["get", "create", "set", "delete"], unusableInput)
  func documentInput(_ operation: String, userID: String) async throws {
    let server = NCMBObjectServer()
    let store = try server.backend().userDocuments
    let outcome = await documentOutcome { () async throws(UserBackendError) in
      switch operation {
      case "get": _ = try await store.document(userID: userID)
      case "create": _ = try await store.createDocument(userID: userID, fields: ["a": .null])
      case "set":
        _ = try await store.updateDocument(userID: userID, setting: ["a": .null], removing: [])
      default: try await store.deleteDocument(userID: userID)
      }
    }
    guard case .invalidInput(let field, _) = outcome.errorCode else {
      Issue.record("expected invalidInput, got \(String(describing: outcome.errorCode))")
      return
    }
    #expect(field == "userID")
    #expect(server.requests.isEmpty)
  }

  @Test(
    "a stored session whose user ID is unusable sends no request to users/{objectId}",
    arguments: ["", "..", "."], ["reload", "update", "delete", "document"])
  func storedUserID(_ userID: String, operation: String) async throws {
    let server = StubTransport(status: 200, json: Fixture.loginJSON)
    let store = InMemorySessionStore(
      PersistedAuthState(
        session: AuthSession(
          user: User(id: userID, username: "alice", providers: ["password"]),
          bearerToken: Fixture.sessionToken, refreshToken: nil, expiresAt: nil,
          isNewUser: false)))
    let backend = try Fixture.backend(server, store: store)
    let outcome = await documentOutcome { () async throws(UserBackendError) in
      switch operation {
      case "reload": _ = try await backend.reload()
      case "update": try await backend.updatePassword("new-password-1")
      case "delete": try await backend.deleteAccount()
      default: _ = try await backend.userDocuments.document(userID: nil)
      }
    }
    #expect(outcome.errorCode != nil)
    #expect(server.requests.isEmpty, "\(server.requests.map(\.url))")
  }
}
