import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("Secure Token and Identity Toolkit answer shapes", .timeLimit(.minutes(1)))
struct TokenAnswerShapeTests {
  static func tokenBody(_ idTokenFields: String, expires: String) -> String {
    """
    {"expires_in":\(expires),"token_type":"Bearer","refresh_token":"AMf-rotated-refresh",\
    \(idTokenFields)"user_id":"uid-1","project_id":"1234567890"}
    """
  }

  @Test(
    "a refresh answer carrying the ID token as access_token, id_token or both",
    arguments: [
      ("access_token", #""3600""#), ("access_token", "3600"), ("id_token", "3600"),
      ("id_token", #""3600""#), ("both", "3600.0"), ("both", #"" 3600 ""#),
    ])
  func refreshAnswer(field: String, expires: String) async throws {
    let clock = ManualClock(Fixture.start)
    let fresh = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600), serial: 7)
    let fields =
      switch field {
      case "both": #""id_token":"\#(fresh)","access_token":"\#(fresh)","#
      default: #""\#(field)":"\#(fresh)","#
      }
    let server = StubTransport(json: Self.tokenBody(fields, expires: expires))
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    #expect(try await backend.idToken(forceRefresh: true) == fresh)
    #expect(try await store.load().session?.refreshToken == "AMf-rotated-refresh")
  }

  @Test(
    "a refresh answer without any ID token, or with an unusable lifetime, is malformedResponse",
    arguments: [
      #""expires_in":"3600","refresh_token":"r","user_id":"u"}"#,
      #""expires_in":"3600","refresh_token":"r","id_token":"","access_token":""}"#,
      #""expires_in":"soon","refresh_token":"r","id_token":"t"}"#,
      #""expires_in":"nan","refresh_token":"r","id_token":"t"}"#,
      #""expires_in":-5,"refresh_token":"r","id_token":"t"}"#,
    ])
  func refreshAnswerUnusable(tail: String) async throws {
    let clock = ManualClock(Fixture.start)
    let server = StubTransport(json: "{" + tail)
    let store = Fixture.signedInStore(clock: clock)
    let backend = try Fixture.backend(server, store: store, clock: clock)
    let error = await #expect(throws: UserBackendError.self) {
      _ = try await backend.idToken(forceRefresh: true)
    }
    guard case .malformedResponse = error?.code else {
      Issue.record("expected malformedResponse, got \(String(describing: error))")
      return
    }
    #expect(try await store.load().session != nil, "a bad answer must not clear the session")
  }

  @Test(
    "Identity Toolkit expiresIn as a string or a number",
    arguments: [#""3600""#, "3600", "3600.0"])
  func identityToolkitExpiresIn(expires: String) async throws {
    let token = Fixture.idToken(exp: Fixture.start.addingTimeInterval(3600))
    let body = """
      {"localId":"uid-1","email":"alice@example.com","idToken":"\(token)",\
      "refreshToken":"AMf-r","expiresIn":\(expires)}
      """
    let backend = try Fixture.backend(StubTransport(json: body))
    let session = try await backend.signIn(.email("alice@example.com", password: "s3cret-pw"))
    #expect(session.bearerToken == token)
  }
}
