import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// `FirebaseIDTokenClaims.read` now decodes the payload with `JSONDecoder`. These pin it
/// to the old untyped reading (a full `JSONWebToken` parse, then `stringClaim` and
/// `numericClaim`), re-implemented here, member by member.
@Suite(.timeLimit(.minutes(1))) struct IDTokenClaimsReadTests {
  /// The members the adapter reads, as plain values.
  struct Read: Equatable, CustomStringConvertible {
    var sub: String?
    var exp: Double?
    var iat: Double?
    var email: String?
    var phoneNumber: String?
    var name: String?
    var signInProvider: String?

    init(
      sub: String?, exp: Double?, iat: Double?, email: String?, phoneNumber: String?,
      name: String?, signInProvider: String?
    ) {
      self.sub = sub
      self.exp = exp
      self.iat = iat
      self.email = email
      self.phoneNumber = phoneNumber
      self.name = name
      self.signInProvider = signInProvider
    }

    /// The members of the adapter's claims (`firebase` read as the adapter reads it,
    /// `claims.firebase?.signInProvider`).
    init(_ claims: FirebaseIDTokenClaims) {
      self.init(
        sub: claims.sub, exp: claims.exp, iat: claims.iat, email: claims.email,
        phoneNumber: claims.phoneNumber, name: claims.name,
        signInProvider: claims.firebase?.signInProvider)
    }

    var description: String {
      "sub=\(sub ?? "-") exp=\(exp.map { "\($0)" } ?? "-") iat=\(iat.map { "\($0)" } ?? "-") "
        + "email=\(email ?? "-") phone=\(phoneNumber ?? "-") name=\(name ?? "-") "
        + "provider=\(signInProvider ?? "-")"
    }
  }

  /// The old `read`: a full parse, then the untyped claim tables.
  static func oldRead(_ idToken: String) -> Read? {
    guard let token = try? JSONWebToken(parsing: idToken) else { return nil }
    return Read(
      sub: token.stringClaim("sub"), exp: token.numericClaim("exp"),
      iat: token.numericClaim("iat"), email: token.stringClaim("email"),
      phoneNumber: token.stringClaim("phone_number"), name: token.stringClaim("name"),
      signInProvider: token.stringClaim("sign_in_provider", in: "firebase"))
  }

  static func newRead(_ idToken: String) -> Read? {
    FirebaseIDTokenClaims.read(idToken).map(Read.init)
  }

  /// Claims shaped as Firebase issues them, one per sign-in kind.
  static var realistic: [[String: Any]] {
    [
      [
        "iss": "https://securetoken.google.com/demo", "aud": "demo", "auth_time": 1_767_225_590,
        "user_id": "uid-1", "sub": "uid-1", "iat": 1_767_225_600, "exp": 1_767_229_200,
        "email": "alice@example.com", "email_verified": false,
        "firebase": [
          "identities": ["email": ["alice@example.com"]], "sign_in_provider": "password",
        ],
      ],
      [
        "sub": "anon-7", "user_id": "anon-7", "iat": 1_767_225_600, "exp": 1_767_229_200,
        "provider_id": "anonymous",
        "firebase": ["identities": [String: Any](), "sign_in_provider": "anonymous"],
      ],
      [
        "sub": "p-1", "iat": 1_767_225_600, "exp": 1_767_229_200, "phone_number": "+15555550100",
        "firebase": ["identities": ["phone": ["+15555550100"]], "sign_in_provider": "phone"],
      ],
      [
        "sub": "a-1", "iat": 1_767_225_600, "exp": 1_767_229_200, "name": "Zoë Ünal 😀",
        "picture": "https://example.com/p.png", "email": "zoe@xn--bcher-kva.example",
        "firebase": [
          "identities": ["apple.com": ["001234.abcd"], "email": ["zoe@xn--bcher-kva.example"]],
          "sign_in_provider": "apple.com", "sign_in_second_factor": "phone",
        ],
      ],
      [
        "sub": "c-1", "iat": 1_767_225_600.25, "exp": 1.7672292005e9, "role": "admin",
        "firebase": ["sign_in_provider": "custom", "tenant": "t-1"],
      ],
      ["sub": "bare", "iat": 0, "exp": 253_402_300_799],
      ["sub": "no-provider", "firebase": ["identities": [String: Any]()]],
      ["sub": "negative", "iat": -1, "exp": -0.5, "name": "", "email": ""],
      [String: Any](),
    ]
  }

  @Test(arguments: realistic.indices)
  func realisticTokensReadAsBefore(index: Int) throws {
    let token = JSONWebToken.unsigned(claims: Self.realistic[index])
    let old = try #require(Self.oldRead(token))
    #expect(Self.newRead(token) == old)
    // A signature does not change what is read.
    #expect(Self.newRead(token + "c2lnbmF0dXJl") == old)
  }

  /// Claims with every member the adapter reads.
  static var complete: [String: Any] {
    [
      "sub": "a-1", "iat": 1_767_225_600, "exp": 1_767_229_200, "name": "Zoë Ünal 😀",
      "email": "zoe@example.com", "phone_number": "+15555550100", "aud": "demo",
      "firebase": ["identities": ["phone": ["+15555550100"]], "sign_in_provider": "phone"],
    ]
  }

  /// One member of the wrong type (the value as JSON text) reads as absent; every other
  /// member still reads.
  @Test(arguments: [
    ("name", "5"), ("name", #"["x"]"#), ("name", #"{"a":"b"}"#), ("name", "false"),
    ("exp", #""x""#), ("exp", #""1767229200""#), ("exp", #"{"n":1}"#), ("iat", #""1""#),
    ("iat", "[1]"), ("sub", "7"), ("sub", #"["u"]"#), ("email", "1.5"),
    ("email", #"["a@b.c"]"#), ("phone_number", "15555550100"), ("phone_number", #"["+1"]"#),
    ("firebase", #""str""#), ("firebase", "3"), ("firebase", #"["phone"]"#),
    ("firebase", #"{"sign_in_provider":3}"#), ("firebase", #"{"sign_in_provider":["phone"]}"#),
    ("firebase", #"{"sign_in_provider":null}"#), ("firebase", "{}"), ("name", "null"),
    ("exp", "null"), ("firebase", "null"),
  ])
  func aMistypedClaimReadsAsAbsent(claim: String, json: String) throws {
    var claims = Self.complete
    claims[claim] = try JSONSerialization.jsonObject(
      with: Data(json.utf8), options: .fragmentsAllowed)
    let token = JSONWebToken.unsigned(claims: claims)
    let new = try #require(Self.newRead(token))
    #expect(new == Self.oldRead(token))
    var expected = Read(
      sub: "a-1", exp: 1_767_229_200, iat: 1_767_225_600, email: "zoe@example.com",
      phoneNumber: "+15555550100", name: "Zoë Ünal 😀", signInProvider: "phone")
    switch claim {
    case "name": expected.name = nil
    case "exp": expected.exp = nil
    case "iat": expected.iat = nil
    case "sub": expected.sub = nil
    case "email": expected.email = nil
    case "phone_number": expected.phoneNumber = nil
    default: expected.signInProvider = nil
    }
    #expect(new == expected)
  }

  @Test(arguments: [
    "e30.WzFd.", "e30.IkEi.", "e30.bnVsbA.", "e30.MQ.", "e30.dHJ1ZQ.", "e30..", "e30.!!!.",
    "e30.e30", "e30", "", "e30.e30.e30.e30", "e30.\u{301}e30.",
  ])
  func aPayloadThatIsNotAJSONObjectReadsAsNil(token: String) {
    #expect(Self.oldRead(token) == nil)
    #expect(FirebaseIDTokenClaims.read(token) == nil)
  }

  /// A JSON `true` is not a number of seconds. The untyped tables read it as `1` (the
  /// bridged `NSNumber`); the decoder reads it as absent, as any other mistyped claim.
  /// Divergence kept on purpose: a Boolean `exp` is a malformed token, not an expiry at 1970.
  @Test(arguments: ["exp", "iat"])
  func aBooleanTimeReadsAsAbsent(claim: String) throws {
    var claims: [String: Any] = ["sub": "u", "exp": 10, "iat": 5]
    claims[claim] = true
    let token = JSONWebToken.unsigned(claims: claims)
    let old = try #require(Self.oldRead(token))
    let new = try #require(Self.newRead(token))
    #expect((claim == "exp" ? old.exp : old.iat) == 1)
    #expect((claim == "exp" ? new.exp : new.iat) == nil)
    #expect(new.sub == "u")
  }

  /// The payload is read without the header: a token whose header is not a base64url JSON
  /// object still gives its claims (the old full parse gave `nil`). The adapter reads
  /// only its own ID token's claims, never the header.
  @Test(arguments: ["!!!", "WzFd", "bnVsbA", "", "é"])
  func theHeaderIsNotRead(header: String) throws {
    let valid = JSONWebToken.unsigned(claims: ["sub": "u", "exp": 10, "iat": 5])
    let token = header + valid.drop { $0 != "." }
    #expect(Self.oldRead(token) == nil)
    let new = try #require(Self.newRead(token))
    #expect(new.sub == "u")
    #expect(new.exp == 10)
  }

  /// `JSONDecoder` validates only the members it decodes, where `JSONSerialization`
  /// refused the whole payload: a member the adapter does not read may hold text that is
  /// not valid JSON, and the claims it does read still come through (documented on
  /// `FirebaseIDTokenClaims.read`; these claims only fill gaps in the server's answer).
  @Test(
    arguments: [
      Data(#"{"sub":"u","exp":10,"iat":5,"x":"\ud800"}"#.utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"x":1e999}"#.utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"x":01}"#.utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"x":""#.utf8) + Data([0xFF, 0xFE]) + Data(#""}"#.utf8),
    ])
  func membersTheAdapterDoesNotReadAreNotValidated(payload: Data) throws {
    let token = "e30." + Base64URL.encode(payload) + "."
    #expect(Self.oldRead(token) == nil)
    let read = try #require(Self.newRead(token))
    #expect(read.sub == "u")
    #expect(read.exp == 10)
    #expect(read.iat == 5)
  }

  /// A member the adapter reads that is not valid JSON reads as absent, the others stay.
  @Test func aReadMemberThatIsNotValidJSONReadsAsAbsent() throws {
    let payload = Data(#"{"sub":"u","name":"\ud800","exp":1e400,"iat":5}"#.utf8)
    let read = try #require(Self.newRead("e30." + Base64URL.encode(payload) + "."))
    #expect(read.sub == "u")
    #expect(read.name == nil)
    #expect(read.exp == nil)
    #expect(read.iat == 5)
  }
}
