import Foundation
import Testing

@testable import FirebaseUserBackend

/// `FirebaseEndpoints.url(for:)` now looks for `?` on the UTF-8 bytes. This pins the key
/// separator to the old test (Foundation's `contains("?")`) for paths and bases with and
/// without a query, next to non-ASCII text and a combining mark.
@Suite(.timeLimit(.minutes(1))) struct EndpointKeySeparatorTests {
  static let services: [FirebaseService] = [
    .secureToken, .identityToolkit("accounts:signUp"), .identityToolkit("accounts:lookup?a=1"),
    .identityToolkit("projects/p/accounts:query"), .identityToolkit("x?"),
    .identityToolkit("é?x=1"), .identityToolkit("a\u{301}?b=c"), .identityToolkit(""),
  ]

  static let bases: [(String, String)] = [
    ("https://identitytoolkit.googleapis.com/v1/", "https://securetoken.googleapis.com/v1/token"),
    ("http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/", "http://h/token?x=1"),
    ("http://h/v1/?tenant=t&", "http://h/token?"),
  ]

  @Test(arguments: services)
  func separatorIsAsBefore(service: FirebaseService) {
    for (identityToolkit, secureToken) in Self.bases {
      let endpoints = FirebaseEndpoints(
        identityToolkitBase: identityToolkit, secureToken: secureToken, apiKey: "k+/=",
        emulatorHost: nil)
      let base: String
      switch service {
      case .identityToolkit(let path): base = identityToolkit + path
      case .secureToken: base = secureToken
      }
      let separator = base.contains("?") ? "&" : "?"
      let expected = URL(string: base + separator + "key=k%2B%2F%3D")
      #expect(endpoints.url(for: service)?.absoluteString == expected?.absoluteString)
    }
  }

  /// A `?` followed by a combining mark is one `Character`: the old test (Foundation's
  /// `contains`, which respects composed character sequences) did not find it and put a
  /// second `?` inside the query; the byte test finds the `?` that starts the URL's query
  /// and appends with `&`. Only a path given by the code can meet this (the paths are
  /// constants); the new answer is the right one.
  @Test func aQuestionMarkGluedToAMarkIsFound() throws {
    let endpoints = FirebaseEndpoints(
      identityToolkitBase: "https://h/v1/", secureToken: "https://h/token", apiKey: "k",
      emulatorHost: nil)
    let base = "https://h/v1/a?\u{301}x=1"
    #expect(!base.contains("?"))
    let url = try #require(endpoints.url(for: .identityToolkit("a?\u{301}x=1")))
    #expect(url.absoluteString == "https://h/v1/a?%CC%81x=1&key=k")
    #expect(url.query(percentEncoded: true) == "%CC%81x=1&key=k")
  }
}
