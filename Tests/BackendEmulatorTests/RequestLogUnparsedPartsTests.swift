import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// The emulator's request log (`GET /emulator/v1/projects/P/requests`, the web page) and its
/// `--verbose` records redact what they cannot read as `name=value`: a bare query item
/// (`?SECRET`) and a path parameter (`/x;key=SECRET`) could be anything, so neither is shown.
@Suite("The emulator's request logs redact what they cannot parse", .timeLimit(.minutes(1)))
struct RequestLogUnparsedPartsTests {
  static let secret = "UNPARSED-s3cr3t-4711"

  static let targets = [
    "/x;key=\(secret)",
    "/x?\(secret)",
    "/x?a=1&\(secret)",
    "/identitytoolkit.googleapis.com/v1/accounts:lookup;jsessionid=\(secret)?key=k",
    "/2013-09-01/users;\(secret)/abc",
    "/x;p=1;\(secret)",
  ]

  @Test("neither the request list nor the verbose records show the secret", arguments: targets)
  func hidden(_ target: String) async throws {
    let records = LockedValue<[String]>([])
    let emulator = BackendEmulator(
      store: try makeStore(),
      logger: HTTPLogger { record in records.withLock { $0.append(record.description) } })
    var request = HTTPRequest(
      method: .get, url: try #require(URL(string: "http://127.0.0.1:9099" + target)))
    request.headerFields["Host"] = "127.0.0.1:9099"
    _ = await emulator.handle(request)
    var listRequest = HTTPRequest(
      method: .get,
      url: try #require(
        URL(string: "http://127.0.0.1:9099/emulator/v1/projects/demo-project/requests")))
    listRequest.headerFields["Host"] = "127.0.0.1:9099"
    let listed = await emulator.handle(listRequest)
    let text = String(decoding: listed.body, as: UTF8.self)
    #expect(!text.contains(Self.secret), "the request list shows it")
    #expect(text.contains("<redacted>"))
    let logged = records.withLock { $0 }
    #expect(!logged.isEmpty)
    #expect(!logged.contains { $0.contains(Self.secret) }, "a verbose record shows it")
    #expect(emulator.requestLog.entries.allSatisfy { !$0.path.contains(Self.secret) })
  }
}
