import BackendHTTP
import Foundation
import Testing

/// An answer head no HTTP server sends is an invalid response named for what it is, on
/// every network transport: a status outside 100–599 (libcurl and URLSession pass any
/// three digits on) and `Transfer-Encoding` with `Content-Length` (RFC 9112 §6.3: the
/// loaders let the coding win; the message "ought to be handled as an error").
@Suite("Network transports: answer heads with no one reading", .timeLimit(.minutes(2)))
struct AnswerHeadTests {
  func failure(_ kind: TransportKind, answer: String) async throws -> HTTPTransportError? {
    let server = try LoopbackServer(answer: Array(answer.utf8))
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/x"))
    do {
      _ = try await kind.make().send(HTTPRequest(method: .get, url: url, timeout: 20))
      return nil
    } catch let error as HTTPTransportError {
      return error
    }
  }

  @Test(
    "a status outside 100–599 is an invalid response naming the status",
    arguments: TransportKind.allCases, [600, 999])
  func statusOutOfRange(kind: TransportKind, status: Int) async throws {
    let answer = "HTTP/1.1 \(status) Odd\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
    let error = try #require(try await failure(kind, answer: answer))
    #expect(error.caseName == "invalidResponse", "\(error)")
    #expect(error.description.contains("\(status)"), "\(error)")
  }

  @Test(
    "Transfer-Encoding with Content-Length is a framing error", arguments: TransportKind.allCases)
  func codingAndLength(kind: TransportKind) async throws {
    let answer =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
      + "Content-Length: 5\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n"
    let error = try #require(try await failure(kind, answer: answer))
    #expect(error.caseName == "invalidResponse", "\(error)")
    #expect(error.description.contains("Transfer-Encoding"), "\(error)")
  }

  @Test("a chunked answer alone, and 599, are read", arguments: TransportKind.allCases)
  func validHeadsPass(kind: TransportKind) async throws {
    let chunked =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n"
    #expect(try await failure(kind, answer: chunked) == nil)
    let highest = "HTTP/1.1 599 Odd\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
    #expect(try await failure(kind, answer: highest) == nil)
  }
}
