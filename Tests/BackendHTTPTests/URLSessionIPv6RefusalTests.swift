import BackendHTTP
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this machine can listen on `::1` (some containers have no IPv6 loopback).
enum IPv6Loopback {
  static let isAvailable: Bool =
    (try? LoopbackServer(ipv6: true)).map { server in
      server.stop()
      return true
    } ?? false
}

#if canImport(FoundationNetworking)
  @Suite(
    "URLSessionTransport refuses IPv6 literal hosts on Linux, before connecting",
    .timeLimit(.minutes(1)))
  struct URLSessionIPv6RefusalTests {
    @Test(
      "a request to ::1 is invalidRequest naming the way out; no connection is made",
      .enabled(if: IPv6Loopback.isAvailable, "this machine cannot listen on ::1"))
    func loopback() async throws {
      let server = try LoopbackServer(ipv6: true)
      defer { server.stop() }
      let url = try #require(URL(string: "http://[::1]:\(server.port)/echo?key=SECRET"))
      await expectRefusedBeforeConnecting(server, hiding: ["SECRET", "::1"]) {
        do {
          _ = try await URLSessionTransport().send(HTTPRequest(method: .get, url: url, timeout: 20))
        } catch let error as HTTPTransportError {
          // The loader's own "unsupported URL" is also invalidRequest; this is the reason
          // that says why and what to use instead.
          #expect(error == .invalidRequest(reason: URLLoaderSupport.ipv6LiteralReason))
          throw error
        }
      }
    }

    @Test(
      "every IPv6 literal spelling is refused with the typed reason",
      arguments: [
        "http://[::1]:9/x", "https://[2001:db8::1]/v1/accounts:signUp?key=SECRET",
        "http://[0:0:0:0:0:0:0:1]:9099/", "http://[fe80::1%25lo]:9/",
        "http://[::ffff:127.0.0.1]:9/",
      ])
    func spellings(_ text: String) async throws {
      let url = try #require(URL(string: text))
      let transport = HTTPLogger.none.wrapping(URLSessionTransport(defaultTimeout: 20))
      let error = await #expect(throws: HTTPTransportError.self) {
        _ = try await transport.send(HTTPRequest(method: .post, url: url))
      }
      guard case .invalidRequest(let reason) = error else {
        Issue.record("expected invalidRequest, got \(String(describing: error))")
        return
      }
      #expect(reason == URLLoaderSupport.ipv6LiteralReason)
      for way in ["127.0.0.1", "localhost", "CurlTransport", "NetworkTransport.standard()"] {
        #expect(reason.contains(way), "\(reason)")
      }
      #expect(!reason.contains("SECRET"))
    }
  }
#endif
