import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// Collects logged records.
final class RecordSink: Sendable {
  private let records = LockedValue<[HTTPExchangeRecord]>([])
  var logger: HTTPLogger { HTTPLogger { record in self.records.withLock { $0.append(record) } } }
  var lines: [String] { records.withLock { $0.map(\.description) } }
}

/// A transport answering every request with `status`, or failing.
struct FixedTransport: HTTPTransport {
  var status = 200
  var failure: HTTPTransportError?
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let failure { throw failure }
    return HTTPResponse(status: status, body: Data(#"{"idToken":"eyJhbGciOi.x.y"}"#.utf8))
  }
}

@Suite("Logging middleware", .timeLimit(.minutes(1)))
struct LoggingMiddlewareTests {
  static let apiKey = "AIzaSyLOGGINGtestKEY0123456789abcdefghi"
  static let sessionToken = "Xk3pLOGGINGsessionTOKEN99"
  static let password = "logging horse battery"

  /// `METHOD URL STATUS Nms` with every query value redacted.
  static func isLine(_ line: String) -> Bool {
    line.wholeMatch(of: /(GET|POST|PUT|DELETE) https?:\/\/\S+ (\d{3}|failed \(.+\)) \d+ms/)
      != nil
  }

  @Test("one line per exchange: method, redacted URL, status, milliseconds; no secret")
  func lineShape() async throws {
    let sink = RecordSink()
    let transport = sink.logger.wrapping(FixedTransport(status: 201))
    let url = try #require(
      URL(
        string:
          "https://user:pw@identitytoolkit.googleapis.com/v1/accounts:signUp?key=\(Self.apiKey)&password=\(Self.password.replacingOccurrences(of: " ", with: "%20"))#frag"
      ))
    let response = try await transport.send(
      HTTPRequest(
        method: .post, url: url,
        headerFields: [
          "X-NCMB-Apps-Session-Token": Self.sessionToken, "Content-Type": "application/json",
        ],
        body: Data(#"{"password":"\#(Self.password)"}"#.utf8)))
    #expect(response.status == 201)
    let lines = sink.lines
    #expect(lines.count == 1)
    let line = try #require(lines.first)
    #expect(Self.isLine(line), "\(line)")
    #expect(
      line.hasPrefix(
        "POST https://identitytoolkit.googleapis.com/v1/accounts:signUp?key=<redacted>&password=<redacted> 201 "
      ), "\(line)")
    for secret in [Self.apiKey, Self.sessionToken, Self.password, "logging", "pw@", "eyJ"] {
      #expect(!line.contains(secret))
    }
  }

  @Test("a failed exchange is logged and the error passes through")
  func failure() async throws {
    let sink = RecordSink()
    let transport = sink.logger.wrapping(FixedTransport(failure: .timedOut))
    await #expect(throws: HTTPTransportError.timedOut) {
      _ = try await transport.send(
        HTTPRequest(
          method: .get,
          url: URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/login?password=x1y2z3")!))
    }
    let line = try #require(sink.lines.first)
    #expect(Self.isLine(line), "\(line)")
    #expect(line.contains("failed (the request timed out)"))
    #expect(!line.contains("x1y2z3"))
  }

  @Test("HTTPLogger.none logs nothing and changes nothing")
  func none() async throws {
    let response = try await HTTPLogger.none.wrapping(FixedTransport(status: 204)).send(
      HTTPRequest(method: .get, url: URL(string: "https://example.com/")!))
    #expect(response.status == 204)
  }
}

@Suite("Logged URLs", .timeLimit(.minutes(1)))
struct LoggedURLTests {
  @Test(
    "every query value is redacted; names, host, port and path stay",
    arguments: [
      (
        "https://mbaas.api.nifcloud.com/2013-09-01/login?userName=ada&password=p%40ss",
        "https://mbaas.api.nifcloud.com/2013-09-01/login?userName=<redacted>&password=<redacted>"
      ),
      (
        "http://[::1]:9099/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k",
        "http://[::1]:9099/identitytoolkit.googleapis.com/v1/accounts:lookup?key=<redacted>"
      ),
      (
        "https://securetoken.googleapis.com/v1/token", "https://securetoken.googleapis.com/v1/token"
      ),
      // A bare item or a path parameter cannot be told from a secret: redacted whole.
      ("https://example.com/a?flag&x=", "https://example.com/a?<redacted>&x=<redacted>"),
      ("https://example.com/a;key=s3cr3t/b?x=1", "https://example.com/a;<redacted>/b?x=<redacted>"),
      ("https://example.com/a;p=1;s3cr3t", "https://example.com/a;<redacted>"),
      ("https://example.com/a?s3cr3t", "https://example.com/a?<redacted>"),
    ])
  func redactedURL(_ input: String, _ expected: String) throws {
    #expect(HTTPExchangeRecord.redact(try #require(URL(string: input))) == expected)
  }
}
