import BackendHTTP
import Foundation
import Testing

/// `HTTPRequest.rawPath` and `rawQuery` now answer from the URL's own parse for an
/// absolute URL. These pin them to what they read before, for every URL shape:
/// `URLComponents(url:resolvingAgainstBaseURL: false)`'s `percentEncodedPath` (empty read
/// as `/`) and `percentEncodedQuery`.
@Suite(.timeLimit(.minutes(1))) struct RawPathAndQueryTests {
  /// A URL, relative to `base` when there is one.
  struct Shape: Sendable, CustomTestStringConvertible {
    var text: String
    var base: String?
    var testDescription: String { base.map { "\(text) relative to \($0)" } ?? text }

    func url() throws -> URL {
      let base = try base.map { try #require(URL(string: $0)) }
      return try #require(URL(string: text, relativeTo: base))
    }
  }

  static let absolute: [String] = [
    "http://h", "http://h/", "http://h?", "http://h?#f", "http://h#f", "http://h/#", "http://h/?",
    "http://h#", "http://h:8", "http://h:8?x", "http://h:8/", "HTTP://H/X?Y=Z",
    "http://u:p@h:8/a;b/c;d?q=1#f", "http://user@h/x", "http://u:p%40x@h/", "http://[::1]:8/x?y",
    "http://[2001:db8::1]/", "http://[fe80::1%25en0]/z", "http://h/a%20b/../c//d/./e",
    "http://h//double//slash//", "http://h/a;p=1?x", "http://h/;p", "http://h/p?q=a%26b&c=%3D#f",
    "http://h/a/%2F/b", "http://h/%41%7e", "http://h/?q=%7E~", "http://h/a+b?c+d",
    "http://h/..", "http://h/./", "http://h/a/..", "http://h?a?b", "http://h/?a=1&&b=&c",
    "http://h/%zz", "http://h/é?ü=1", "http://h/a b?c d", "http://h/x?y#z?w", "http://h/x#y#z",
    "https://mbaas.api.nifcloud.com/2013-09-01/users/a%20b%2Fc?where=%7B%7D",
    "https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
    "file:///tmp/x", "file:/tmp/x", "mailto:a@b.c", "urn:isbn:123", "data:,x?y",
  ]

  static let relative: [(String, String)] = [
    ("a/b?x=1", "http://h/base/"), ("/abs?y", "http://h/base/"), ("?only", "http://h/base/"),
    ("#frag", "http://h/base/?q"), ("../up", "http://h/a/b/"), ("//other/host?z", "http://h/"),
    ("x;p", "http://h/dir/"), ("./", "http://h/a/b"), (".", "http://h/a/b?q"),
    ("a%20b", "https://h:8443/a/"), ("c", "http://h"), ("?", "http://h/p"),
    ("http://abs/x?y", "http://h/"),
  ]

  static let shapes: [Shape] =
    absolute.map { Shape(text: $0, base: nil) } + relative.map { Shape(text: $0, base: $1) }

  @Test(arguments: shapes)
  func rawPathAndQueryEqualTheComponentsReading(shape: Shape) throws {
    let url = try shape.url()
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let path = components?.percentEncodedPath ?? ""
    let request = HTTPRequest(method: .get, url: url)
    #expect(request.rawPath == (path.isEmpty ? "/" : path))
    #expect(request.rawQuery == components?.percentEncodedQuery)
  }

  /// The reading itself, for the shapes the signature depends on.
  @Test func theReadingOfTheNamedShapes() throws {
    let read = { (text: String) throws -> (String, String?) in
      let request = HTTPRequest(method: .get, url: try #require(URL(string: text)))
      return (request.rawPath, request.rawQuery)
    }
    #expect(try read("http://h") == ("/", nil))
    #expect(try read("http://h?") == ("/", ""))
    #expect(try read("http://h?#f") == ("/", ""))
    #expect(try read("http://h/a%2Fb/..//c?x=%41&y") == ("/a%2Fb/..//c", "x=%41&y"))
    #expect(try read("http://[::1]:8/x;p?q") == ("/x;p", "q"))
    let relative = try #require(URL(string: "a/b?x", relativeTo: URL(string: "http://h/base/")))
    #expect(HTTPRequest(method: .get, url: relative).rawPath == "a/b")
  }
}
