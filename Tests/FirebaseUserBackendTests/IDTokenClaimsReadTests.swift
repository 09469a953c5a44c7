import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

/// `FirebaseIDTokenClaims.read` reads the payload with the package's strict JSON reader.
/// These pin it, member by member, to an independent reading of the same claims
/// (`JSONSerialization`, then the casts the adapter once made) wherever the payload has one
/// reading, and to a refusal of the whole token wherever it has not.
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

  /// An independent reading of the members the adapter reads, each leniently
  /// (`JSONDecoder`, a mistyped member absent: the adapter's reader before the strict one);
  /// `nil` when the payload is not a JSON object.
  struct OracleClaims: Decodable {
    struct Firebase: Decodable {
      var provider: String?
      enum CodingKeys: String, CodingKey { case provider = "sign_in_provider" }
      init(from decoder: any Decoder) throws {
        provider = try? decoder.container(keyedBy: CodingKeys.self)
          .decodeIfPresent(String.self, forKey: .provider)
      }
    }
    var read: Read
    enum CodingKeys: String, CodingKey {
      case sub, exp, iat, email, name, firebase
      case phone = "phone_number"
    }
    init(from decoder: any Decoder) throws {
      let members = try decoder.container(keyedBy: CodingKeys.self)
      read = Read(
        sub: try? members.decodeIfPresent(String.self, forKey: .sub),
        exp: try? members.decodeIfPresent(Double.self, forKey: .exp),
        iat: try? members.decodeIfPresent(Double.self, forKey: .iat),
        email: try? members.decodeIfPresent(String.self, forKey: .email),
        phoneNumber: try? members.decodeIfPresent(String.self, forKey: .phone),
        name: try? members.decodeIfPresent(String.self, forKey: .name),
        signInProvider: (try? members.decodeIfPresent(Firebase.self, forKey: .firebase))?
          .provider)
    }
  }

  static func oracleRead(_ idToken: String) -> Read? {
    let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Base64URL.decode(parts[1]) else { return nil }
    return (try? JSONDecoder().decode(OracleClaims.self, from: payload))?.read
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
    let expected = try #require(Self.oracleRead(token))
    #expect(Self.newRead(token) == expected)
    // A signature does not change what is read.
    #expect(Self.newRead(token + "c2lnbmF0dXJl") == expected)
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
    #expect(new == Self.oracleRead(token))
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
    #expect(Self.oracleRead(token) == nil)
    #expect(FirebaseIDTokenClaims.read(token) == nil)
  }

  /// A JSON `true` is not a number of seconds (a bridged `NSNumber` would read it as 1): it
  /// reads as absent, as any other mistyped claim. A Boolean `exp` is a malformed token,
  /// not an expiry at 1970.
  @Test(arguments: ["exp", "iat"])
  func aBooleanTimeReadsAsAbsent(claim: String) throws {
    var claims: [String: Any] = ["sub": "u", "exp": 10, "iat": 5]
    claims[claim] = true
    let token = JSONWebToken.unsigned(claims: claims)
    let new = try #require(Self.newRead(token))
    #expect((claim == "exp" ? new.exp : new.iat) == nil)
    #expect(new.sub == "u")
  }

  /// The payload is read without the header: a token whose header is not a base64url JSON
  /// object still gives its claims (a full parse gives `nil`). The adapter reads only its
  /// own ID token's claims, never the header.
  @Test(arguments: ["!!!", "WzFd", "bnVsbA", "", "é"])
  func theHeaderIsNotRead(header: String) throws {
    let valid = JSONWebToken.unsigned(claims: ["sub": "u", "exp": 10, "iat": 5])
    let token = header + valid.drop { $0 != "." }
    #expect((try? JSONWebToken(parsing: token)) == nil)
    let new = try #require(Self.newRead(token))
    #expect(new.sub == "u")
    #expect(new.exp == 10)
  }

  /// A payload without one reading is refused whole, whichever member is at fault, read
  /// by the adapter or not: a name given twice (`JSONDecoder` kept the first, so a second
  /// `sub` went unseen), a lone surrogate, a number no double holds, a leading zero,
  /// invalid UTF-8. The server-side verifier and the emulator refuse the same tokens.
  @Test(
    arguments: [
      Data(#"{"sub":"u","exp":10,"iat":5,"sub":"v"}"#.utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"exp":99999999999}"#.utf8),
      Data(
        #"{"sub":"u","exp":10,"iat":5,"firebase":{"sign_in_provider":"a","sign_in_provider":"b"}}"#
          .utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"x":"\ud800"}"#.utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"x":1e999}"#.utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"x":01}"#.utf8),
      Data(#"{"sub":"u","exp":10,"iat":5,"x":""#.utf8) + Data([0xFF, 0xFE]) + Data(#""}"#.utf8),
      Data(#"{"sub":"u","name":"\ud800","exp":1e400,"iat":5}"#.utf8),
      Data([0xEF, 0xBB, 0xBF]) + Data(#"{"sub":"u","exp":10,"iat":5}"#.utf8),
    ])
  func aPayloadWithoutOneReadingReadsAsNil(payload: Data) {
    let token = "e30." + Base64URL.encode(payload) + "."
    #expect(Self.newRead(token) == nil)
  }
}
