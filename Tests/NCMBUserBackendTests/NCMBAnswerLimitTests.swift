import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// Server-sent strings over their limits (a session token over 16 KiB, identifiers over the
/// client's own input limits) are `.malformedResponse` naming the field on every path that
/// stores a session or a user; the stored session stays as it was. (Profile fields over
/// the limits are dropped instead: NCMBProfileAnswerLimitTests.)
@Suite("NCMB: over-long answer values are never stored", .timeLimit(.minutes(1)))
struct NCMBAnswerLimitTests {
  static let longToken = String(repeating: "s", count: AnswerLimits.maximumTokenBytes + 1)

  /// An answer member that is over its limit, and the field the error must name.
  static let oversized: [(field: String, members: String)] = [
    ("bearer token", #""sessionToken":"\#(longToken)","userName":"alice""#),
    (
      "username",
      #""sessionToken":"\#(Fixture.sessionToken)","userName":"\#(String(repeating: "u", count: 256))""#
    ),
    (
      "email",
      #""sessionToken":"\#(Fixture.sessionToken)","userName":"alice","mailAddress":"\#(String(repeating: "e", count: 250))@x.io""#
    ),
  ]

  static func answer(_ members: String, objectId: String = "epaKcaYZqsREdSMY") -> String {
    #"{"objectId":"\#(objectId)",\#(members),"createDate":"2013-08-28T11:27:16.446Z","authData":null}"#
  }

  static func expectMalformed(
    _ result: Result<some Sendable, UserBackendError>, naming field: String
  ) {
    guard case .failure(let error) = result, case .malformedResponse(let reason) = error.code else {
      Issue.record("expected malformedResponse, got \(result)")
      return
    }
    #expect(reason.contains(field), "\(reason)")
    #expect(!reason.contains(String(repeating: "s", count: 64)), "the value is quoted")
  }

  @Test(
    "a sign-in answer with an over-long value stores nothing",
    arguments: NCMBUserIDTrustTests.SignIn.allCases, 0..<3)
  func signIn(_ flow: NCMBUserIDTrustTests.SignIn, index: Int) async throws {
    let (field, members) = Self.oversized[index]
    let store = InMemorySessionStore()
    let backend = try Fixture.backend(
      StubTransport(status: 201, json: Self.answer(members)), store: store)
    let result = await documentOutcome { () async throws(UserBackendError) in
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
    Self.expectMalformed(result, naming: field)
    #expect(try await store.load().session == nil)
  }

  @Test(
    "a reauthentication answer with an over-long value keeps the stored session",
    arguments: 0..<3)
  func reauthenticate(_ index: Int) async throws {
    let (field, members) = Self.oversized[index]
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let backend = try Fixture.backend(
      StubTransport(status: 200, json: Self.answer(members)), store: store)
    let result = await documentOutcome { () async throws(UserBackendError) in
      _ = try await backend.reauthenticate(.username("alice", password: "password-1"))
    }
    Self.expectMalformed(result, naming: field)
    #expect(try await store.load() == before)
  }

  @Test(
    "a reload answer with an over-long identifier keeps the stored user",
    arguments: [
      ("username", #""userName":"\#(String(repeating: "u", count: 256))""#)
    ])
  func reload(_ field: String, member: String) async throws {
    let store = Fixture.signedInStore()
    let before = try await store.load()
    let body = #"{"objectId":"epaKcaYZqsREdSMY",\#(member)}"#
    let backend = try Fixture.backend(StubTransport(status: 200, json: body), store: store)
    let result = await documentOutcome { () async throws(UserBackendError) in
      _ = try await backend.reload()
    }
    Self.expectMalformed(result, naming: field)
    #expect(try await store.load() == before)
  }
}
