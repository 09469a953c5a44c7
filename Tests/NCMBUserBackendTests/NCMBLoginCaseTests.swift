import BackendHTTP
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// Issue 21 item 9: NCMB user names are case-sensitive; sign-in tries the canonical user
/// name, then the address as typed (as `userName`, then as `mailAddress`), each only after
/// `E401002`.
@Suite("NCMB sign-in with user names in another case", .timeLimit(.minutes(1)))
struct NCMBLoginCaseTests {
  static let refused = Fixture.response(
    401, #"{"code":"E401002","error":"Authentication error with ID/PASS incorrect."}"#)
  static let ada = Fixture.response(
    200,
    #"{"objectId":"ada1","userName":"Ada@Example.com","mailAddress":"Ada@Example.com","#
      + #""sessionToken":"t-ada","authData":null}"#)

  /// The identifying field and value of each login request (JSON body or GET query).
  static func identities(_ requests: [HTTPRequest]) throws -> [[String]] {
    try requests.map { request in
      var fields: [String: String]
      if request.method == .get {
        fields = Dictionary(
          FormURLEncoding.pairs(request.rawQuery ?? "", plusIsSpace: false),
          uniquingKeysWith: { first, _ in first })
      } else {
        fields = try #require(
          try JSONSerialization.jsonObject(with: request.body) as? [String: String])
      }
      #expect(request.url.path.hasSuffix("/login"))
      #expect(fields["password"] == "secret1")
      fields["password"] = nil
      return fields.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }
  }

  @Test(
    "each request is sent only after E401002, in order",
    arguments: [
      // typed, answers before success, expected requests
      (
        "Ada@Example.com", 1,
        [["userName", "ada@example.com"], ["userName", "Ada@Example.com"]]
      ),
      (
        "Ada@Example.com", 2,
        [
          ["userName", "ada@example.com"], ["userName", "Ada@Example.com"],
          ["mailAddress", "Ada@Example.com"],
        ]
      ),
      (
        "ada@example.com", 1,
        [["userName", "ada@example.com"], ["mailAddress", "ada@example.com"]]
      ),
      ("ada@example.com", 0, [["userName", "ada@example.com"]]),
    ] as [(String, Int, [[String]])], [false, true])
  func order(_ scenario: (String, Int, [[String]]), legacyGET: Bool) async throws {
    let (typed, refusals, expected) = scenario
    let transport = StubTransport(Array(repeating: Self.refused, count: refusals) + [Self.ada])
    let backend = try Fixture.backend(
      transport, configuration: Fixture.configuration(legacyGETLogin: legacyGET))
    let session = try await backend.signIn(.email(typed, password: "secret1"))
    #expect(session.user.id == "ada1")
    #expect(try Self.identities(transport.requests) == expected)
  }

  @Test("all refused: invalidCredentials after three requests; other errors stop at once")
  func refusals() async throws {
    let transport = StubTransport([Self.refused, Self.refused, Self.refused])
    let backend = try Fixture.backend(transport)
    let error = try await #require(throws: UserBackendError.self) {
      _ = try await backend.signIn(.email("Ada@Example.com", password: "secret1"))
    }
    #expect(error.code == .invalidCredentials)
    #expect(transport.requests.count == 3)

    let outage = StubTransport([
      Fixture.response(500, #"{"code":"E500001","error":"System error."}"#)
    ])
    let failing = try Fixture.backend(outage)
    await #expect(throws: UserBackendError.self) {
      _ = try await failing.signIn(.email("Ada@Example.com", password: "secret1"))
    }
    #expect(outage.requests.count == 1)
  }

  @Test("a user name is sent once, exactly as typed (trimmed)")
  func userName() async throws {
    let transport = StubTransport([Self.refused])
    let backend = try Fixture.backend(transport)
    await #expect(throws: UserBackendError.self) {
      _ = try await backend.signIn(.username(" Ada ", password: "secret1"))
    }
    #expect(try Self.identities(transport.requests) == [["userName", "Ada"]])
  }
}
