import BackendHTTP
import Foundation
import NCMBSigning
import Testing
import UserBackendKit

@testable import NCMBUserBackend

/// `NCMBClient.request(for:sessionToken:)` now appends the API path and query to the base
/// URL as text. These pin the URL to the old `URLComponents` composition, re-implemented
/// here, for base URLs with and without paths, ports and trailing slashes, and for path
/// segments and queries that need escapes.
@Suite(.timeLimit(.minutes(1))) struct NCMBRequestURLTests {
  /// One endpoint: path segments below the API version and a query (GET only).
  struct Case: Sendable, CustomTestStringConvertible {
    var segments: [String]
    var query: [Pair] = []
    var testDescription: String { "\(segments) \(query.map { "\($0.name)=\($0.value ?? "-")" })" }

    struct Pair: Sendable {
      var name: String
      var value: String?
    }

    var items: [URLQueryItem] { query.map { URLQueryItem(name: $0.name, value: $0.value) } }
  }

  static let bases = [
    "http://127.0.0.1:1234", "http://127.0.0.1:1234/", "http://127.0.0.1:1234//",
    "https://h/base", "https://h/base/", "https://h:8443/a/b///", "https://mbaas.api.nifcloud.com",
    "https://mbaas.api.nifcloud.com/", "https://h/a%20b/", "https://H.Example.COM/X/",
    "https://h:443//x//y/", "http://u:p@h/base/",
  ]

  static let cases: [Case] = [
    Case(segments: ["login"]), Case(segments: ["users"]), Case(segments: ["users", "a b"]),
    Case(segments: ["users", "a/b"]), Case(segments: ["users", "100%"]),
    Case(segments: ["users", "%41"]), Case(segments: ["users", "émile"]),
    Case(segments: ["classes", "Item", "😀"]), Case(segments: ["users", ""]),
    Case(segments: ["users", "a?b#c"]), Case(segments: ["users", "."]),
    Case(segments: ["users", ".."]), Case(segments: ["users", "a;b=c"]),
    Case(segments: ["users", "a+b&c"]), Case(segments: ["users", "~-._"]),
    Case(segments: ["users"], query: [.init(name: "where", value: #"{"userName":"a b"}"#)]),
    Case(segments: ["users"], query: [.init(name: "a", value: nil)]),
    Case(
      segments: ["users"],
      query: [.init(name: "limit", value: "10"), .init(name: "order", value: "-createDate")]),
    Case(segments: ["login"], query: [.init(name: "ü", value: "é/😀")]),
    Case(segments: ["users", "x y"], query: [.init(name: "a b", value: "c&d=e#f?g")]),
    Case(segments: ["users"], query: [.init(name: "", value: "")]),
    Case(segments: ["users"], query: [.init(name: "k", value: "1"), .init(name: "k", value: "2")]),
  ]

  /// The old composition.
  static func oldURL(base: URL, segments: [String], query: [URLQueryItem]) -> URL? {
    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
      return nil
    }
    var basePath = components.percentEncodedPath
    while basePath.hasSuffix("/") { basePath.removeLast() }
    components.percentEncodedPath =
      basePath + "/"
      + ([NCMBConfiguration.apiVersion] + segments).map(NCMBSignature.percentEncode)
      .joined(separator: "/")
    let encoded = NCMBSignature.encodeQuery(query)
    components.percentEncodedQuery = encoded.isEmpty ? nil : encoded
    return components.url
  }

  @Test(arguments: bases, cases)
  func urlEqualsTheComponentsComposition(base: String, endpoint: Case) throws {
    let baseURL = try #require(URL(string: base))
    let client = NCMBClient(
      configuration: Fixture.configuration(baseURL: baseURL), transport: StubTransport(),
      clock: ManualClock(Fixture.now))
    let request = try client.request(
      for: NCMBEndpoint(
        method: .get, pathSegments: endpoint.segments, query: endpoint.items, name: "test"),
      sessionToken: nil)
    let old = try #require(
      Self.oldURL(base: baseURL, segments: endpoint.segments, query: endpoint.items))
    #expect(request.url.absoluteString == old.absoluteString)
    #expect(request.url.baseURL == nil)
    #expect(request.url.host == old.host)
    #expect(request.url.port == old.port)
    // What is signed is read from the URL: the same path and query as before.
    let oldRequest = HTTPRequest(method: .get, url: old)
    #expect(request.rawPath == oldRequest.rawPath)
    #expect(request.rawQuery == oldRequest.rawQuery)
    #expect(
      request.headerFields[NCMBSignature.Header.signature]
        == NCMBSignature.sign(
          request: oldRequest, applicationKey: Fixture.applicationKey,
          clientKey: Fixture.clientKey, timestamp: Fixture.timestamp,
          fqdn: baseURL.host?.lowercased() ?? ""))  // the service signs its name lower-case
  }

  /// A base URL made relative to another is sent to its resolved address, which is also
  /// the host the signature names (before, the request URL was the relative part alone).
  @Test func aRelativeBaseURLIsResolved() throws {
    let baseURL = try #require(URL(string: "v1/", relativeTo: URL(string: "https://h/api/")))
    try Fixture.configuration(baseURL: baseURL).validate()
    let client = NCMBClient(
      configuration: Fixture.configuration(baseURL: baseURL), transport: StubTransport(),
      clock: ManualClock(Fixture.now))
    let request = try client.request(
      for: NCMBEndpoint(method: .post, pathSegments: ["login"], name: "login"),
      sessionToken: nil)
    #expect(request.url.absoluteString == "https://h/api/v1/2013-09-01/login")
    #expect(request.url.baseURL == nil)
  }

  /// A base with a query or fragment (which `validate()` refuses) never has the API path
  /// appended inside it: every request is refused as a bad base URL.
  @Test(arguments: ["http://h/?", "http://h/#", "http://h/x?a=1", "http://h/x#f"])
  func aBaseWithAQueryOrFragmentIsRefused(base: String) throws {
    let baseURL = try #require(URL(string: base))
    #expect(throws: UserBackendError.self) {
      try Fixture.configuration(baseURL: baseURL).validate()
    }
    let client = NCMBClient(
      configuration: Fixture.configuration(baseURL: baseURL), transport: StubTransport(),
      clock: ManualClock(Fixture.now))
    let error = #expect(throws: UserBackendError.self) {
      try client.request(
        for: NCMBEndpoint(method: .post, pathSegments: ["login"], name: "login"),
        sessionToken: nil)
    }
    #expect(error?.code == .misconfigured(setting: "baseURL", reason: "is not a valid URL"))
  }

  /// A port no TCP connection can use is refused before any request.
  @Test(
    arguments: [
      "http://h:0/", "http://h:65536/", "http://h:99999/", "https://h:123456/x",
      "http://h:18446744073709551617/", "http://h:/", "http://u:p@h:99999/",
    ])
  func anUnusablePortIsRefused(base: String) throws {
    let baseURL = try #require(URL(string: base))
    let error = #expect(throws: UserBackendError.self) {
      try Fixture.configuration(baseURL: baseURL).validate()
    }
    #expect(
      error?.code == .misconfigured(setting: "baseURL", reason: URLLoaderSupport.portReason))
  }

  // (A user name or password is refused on its own: NCMBBaseURLCredentialsTests.)
  // (Plain http only to loopback: NCMBConfiguration.plainHTTPProblem, tested in
  // ServerSelectionNamespaceTests.)
  @Test(arguments: [
    "https://h:1/", "https://h:65535/", "https://h:443/x", "http://127.0.0.1:8080/",
  ])
  func aUsablePortIsAccepted(base: String) throws {
    try Fixture.configuration(baseURL: try #require(URL(string: base))).validate()
  }
}
