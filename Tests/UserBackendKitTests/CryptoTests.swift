import Foundation
import Testing
import UserBackendKit

/// Lower-case hex of `data`.
func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

@Suite(.timeLimit(.minutes(2))) struct CryptoTests {
  @Test(arguments: [
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
  ])
  func sha256KnownAnswers(input: String, expected: String) {
    #expect(hex(Crypto.sha256(Data(input.utf8))) == expected)
    #expect(Crypto.sha256Hex(input) == expected)
  }

  /// RFC 4231 test case 1.
  @Test func hmacRFC4231Case1() {
    let mac = Crypto.hmacSHA256(
      key: Data(repeating: 0x0b, count: 20), message: Data("Hi There".utf8))
    #expect(hex(mac) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
  }

  /// RFC 4231 test case 2.
  @Test func hmacRFC4231Case2() {
    let mac = Crypto.hmacSHA256(
      key: Data("Jefe".utf8), message: Data("what do ya want for nothing?".utf8))
    #expect(hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
  }

  @Test(arguments: [
    (1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
    (2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
  ])
  func pbkdf2KnownAnswers(iterations: Int, expected: String) {
    let key = Crypto.pbkdf2SHA256(
      password: Data("password".utf8), salt: Data("salt".utf8), iterations: iterations)
    #expect(hex(key) == expected)
  }

  @Test func pbkdf2HonoursTheRequestedLength() {
    let key = Crypto.pbkdf2SHA256(
      password: Data("password".utf8), salt: Data("salt".utf8), iterations: 1, length: 16)
    #expect(hex(key) == "120fb6cffcf8b32c43e7225256c4f837")
  }

  @Test func randomBytesHaveTheRequestedCountAndDiffer() {
    let first = Crypto.randomBytes(32)
    let second = Crypto.randomBytes(32)
    #expect(first.count == 32)
    #expect(first != second)
    #expect(Crypto.randomBytes(0).isEmpty)
  }

  @Test func constantTimeEqualsComparesContentAndLength() {
    #expect(Crypto.constantTimeEquals(Data([1, 2, 3]), Data([1, 2, 3])))
    #expect(!Crypto.constantTimeEquals(Data([1, 2, 3]), Data([1, 2, 4])))
    #expect(!Crypto.constantTimeEquals(Data([1, 2, 3]), Data([1, 2])))
    #expect(Crypto.constantTimeEquals(Data(), Data()))
  }
}

@Suite(.timeLimit(.minutes(2))) struct JSONWebTokenTests {
  @Test func unsignedTokenRoundTrips() throws {
    let token = JSONWebToken.unsigned(claims: ["sub": "u1", "exp": 1_700_000_000])
    #expect(token.hasSuffix("."))
    let parsed = try JSONWebToken(parsing: token)
    #expect(parsed.stringClaim("sub") == "u1")
    #expect(parsed.expiresAt == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(parsed.signature.isEmpty)
    #expect(parsed.stringClaim("missing") == nil)
  }

  @Test func objectClaimMembersAndTypes() throws {
    let token = JSONWebToken.unsigned(claims: [
      "firebase": ["sign_in_provider": "password", "identities": ["email": ["a@b.c"]]],
      "email": "a@b.c", "iat": 12, "email_verified": false,
    ])
    let parsed = try JSONWebToken(parsing: token)
    #expect(parsed.stringClaim("sign_in_provider", in: "firebase") == "password")
    #expect(parsed.stringClaim("identities", in: "firebase") == nil)
    #expect(parsed.stringClaim("sign_in_provider", in: "email") == nil)
    #expect(parsed.numericClaim("iat") == 12)
    #expect(parsed.stringClaim("iat") == nil)
    #expect(parsed.numericClaim("email") == nil)
  }

  @Test(arguments: [
    ("a.b", JSONWebToken.ParseError.wrongSegmentCount(2)),
    ("a.b.c.d", .wrongSegmentCount(4)),
    ("!!!.e30.", .badEncoding(segment: "header")),
    ("e30.!!!.", .badEncoding(segment: "payload")),
    ("WzFd.e30.", .notJSONObject(segment: "header")),
    ("e30.WzFd.", .notJSONObject(segment: "payload")),
  ])
  func parseErrors(token: String, expected: JSONWebToken.ParseError) {
    #expect(throws: expected) { try JSONWebToken(parsing: token) }
  }

  @Test func base64URLUsesTheURLAlphabetWithoutPadding() {
    let data = Data([0xfb, 0xff, 0xfe])
    #expect(Base64URL.encode(data) == "-__-")
    #expect(Base64URL.decode("-__-") == data)
    #expect(Base64URL.encode(Data([0x61])) == "YQ")
    #expect(Base64URL.decode("YQ") == Data([0x61]))
    #expect(Base64URL.decode("Y") == nil)
  }
}
