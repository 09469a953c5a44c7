import BackendHTTP
import Foundation
import Testing

@testable import HTTPReplay

/// The names ``CredentialFieldNames`` calls credentials (and ``CredentialNamesInText``
/// looks for in unreadable bodies). Found by review: `baas cassette lint` reported
/// Google's `x-goog-authuser` (the signed-in account's index, `0`) as an unredacted
/// credential, because any name containing `auth` matched; `author`, `authority` and
/// the HTTP/2 pseudo-header `:authority` of every browser export too. Names with the word
/// `key` (`clientKey`, `X-Client-Key`, `subscription-key`) and `pwd`, `passcode`,
/// `passphrase` did not match at all.
@Suite("Credential names: no harmless auth words, no missed keys", .timeLimit(.minutes(1)))
struct CredentialNameRuleTests {
  static let credentials = [
    "Authorization", "authorization", "AUTHORIZATION", "aUtHoRiZaTiOn", "Proxy-Authorization",
    "X-Authorization", "authorisation", "auth", "Auth", "x-auth", "X-Auth-Token", "authToken",
    "auth_key", "authKey", "authcode", "oauth_verifier", "authenticity_token",
    "WWW-Authenticate", "x-goog-api-key", "X-Goog-Api-Key", "X-NCMB-Apps-Session-Token",
    "x-ncmb-apps-session-token", "X-NCMB-Application-Key", "apiKey", "api_key", "API-KEY",
    "key", "KEY", "clientKey", "client_key", "X-Client-Key", "accessKey", "privateKey",
    "subscription-key", "Ocp-Apim-Subscription-Key", "APIKey", "password", "Passwd",
    "pwd", "new_pwd", "pass", "passcode", "passphrase", "sig", "signature", "code", "otp",
    "pin", "oobCode", "sessionInfo", "client_secret", "refresh_token", "credential",
  ]
  static let harmless = [
    "x-goog-authuser", "X-Goog-AuthUser", "authuser", "author", "Author", "authors",
    "authority", ":authority", "Authority", "co-author", "monkey", "keyword", "Content-Type",
    "email", "displayName", "returnSecureUrl",
    "errorCode", "turkey", "passenger", "bypass",
  ]

  @Test("credential names match, in any case", arguments: credentials)
  func credential(name: String) {
    #expect(CredentialFieldNames.rule(for: name) != nil, "\(name)")
  }

  @Test("harmless names do not", arguments: harmless)
  func harmlessName(name: String) {
    #expect(CredentialFieldNames.rule(for: name) == nil, "\(name)")
  }

  @Test("lint passes Google's x-goog-authuser header and authuser query parameter")
  func lintAuthUser() throws {
    let data = try HARBuilder.cassette([
      HARBuilder.entry(
        url: "https://firestore.googleapis.com/v1/projects/p/databases/(default)?authuser=0",
        requestHeaders: [("Content-Type", "application/json"), ("x-goog-authuser", "0")])
    ])
    let findings = CassetteLinter.lint(data: data, file: "x.har")
    #expect(findings.isEmpty, "\(findings)")
  }

  @Test("lint still reports a credential header or parameter in the clear")
  func lintStillCatches() throws {
    for (header, query) in [
      ("x-goog-api-key", "clientKey"), ("X-NCMB-Apps-Session-Token", "pwd"),
      ("AUTHORIZATION", "auth"),
    ] {
      let data = try HARBuilder.cassette([
        HARBuilder.entry(
          url: "https://api.example.com/x?\(query)=Plain-Value-123",
          requestHeaders: [("Content-Type", "application/json"), (header, "Plain-Value-456")])
      ])
      let findings = CassetteLinter.lint(data: data, file: "x.har")
      #expect(findings.contains { $0.location.contains("(\(header))") }, "\(findings)")
      #expect(findings.contains { $0.location.contains("url (query).\(query)") }, "\(findings)")
    }
  }

  @Test("an unreadable body naming only harmless auth words passes lint")
  func textBody() throws {
    let data = try HARBuilder.cassette([
      HARBuilder.entry(
        responseHeaders: [("Content-Type", "text/html")],
        content: [
          "size": 0, "mimeType": "text/html",
          "text": #"<meta name="author" content="Ada"><p>Authority: x-goog-authuser</p>"#,
        ])
    ])
    #expect(CassetteLinter.lint(data: data, file: "x.har").isEmpty)
  }
}
