#if canImport(CCurl)
  import BackendHTTP
  import Foundation
  import Testing

  /// A URL with a user name or password (`http://user:pass@host/`): libcurl would turn it
  /// into an `Authorization: Basic` field nobody asked for, so the transport refuses it
  /// before connecting, without quoting it.
  @Suite("CurlTransport: credentials in the URL", .timeLimit(.minutes(1)))
  struct CurlTransportUserInfoTests {
    @Test(
      "a URL with a user name or password is refused before any connection",
      arguments: ["user:SECRET@", "SECRET@", ":SECRET@", "user%3A:SECRET%40@"])
    func refused(userInfo: String) async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://\(userInfo)127.0.0.1:\(server.port)/echo"))
      await expectRefusedBeforeConnecting(server, hiding: ["SECRET"]) {
        _ = try await CurlTransport().send(HTTPRequest(method: .get, url: url, timeout: 20))
      }
    }

    @Test("a URL without credentials still goes out, with no Authorization field")
    func plainURL() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
      let response = try await CurlTransport().send(
        HTTPRequest(method: .get, url: url, timeout: 20))
      #expect(response.status == 201)
      #expect(!String(decoding: response.body, as: UTF8.self).contains("Authorization"))
    }
  }
#endif
