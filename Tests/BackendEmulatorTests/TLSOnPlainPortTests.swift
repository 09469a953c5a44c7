import AccountDatabase
import BackendEmulator
import BackendHTTP
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import Testing
import UserBackendKit

/// An emulator on 127.0.0.1 that would wait ten minutes for a request head: a client
/// that still waits for an answer after talking TLS to it fails by the suite's time limit,
/// not by its own (long) timeout.
/// `notices` collects the server's lines for connections closed without an answer.
private func withPatientEmulator(
  notices: LockedValue<[String]> = LockedValue([]), _ body: (_ port: Int) async throws -> Void
) async throws {
  let store = try makeStore()
  let limits = EmulatorServer.Limits(idleTimeout: .seconds(600), requestTimeout: .seconds(600))
  let server = EmulatorServer(
    emulator: BackendEmulator(store: store, projectID: "demo-tls"), port: 0, limits: limits,
    notices: { line in notices.withLock { $0.append(line) } })
  let port = try server.start()
  do {
    try await body(port)
  } catch {
    await stopOffPool(server)
    throw error
  }
  await stopOffPool(server)
}

/// The network transports a client may use.
enum NetworkTransportKind: String, CaseIterable, Sendable {
  case urlSession
  #if canImport(CCurl)
    case curl
  #endif

  func make(timeout: TimeInterval) -> any HTTPTransport {
    switch self {
    case .urlSession: URLSessionTransport(defaultTimeout: timeout)
    #if canImport(CCurl)
      case .curl: CurlTransport(defaultTimeout: timeout)
    #endif
    }
  }
}

/// `https://` to the emulator's plain-HTTP port: the emulator closes the connection when the
/// first byte is a TLS handshake record, so the client fails at once with a typed error
/// instead of waiting its whole timeout (here 600 s: the suite's limit ends a waiting test).
@Suite("A TLS client on the emulator's plain-HTTP port fails at once", .timeLimit(.minutes(1)))
struct TLSOnPlainPortTests {
  @Test(
    "each network transport fails with a connection error, not a timeout",
    arguments: NetworkTransportKind.allCases)
  func transport(kind: NetworkTransportKind) async throws {
    try await withPatientEmulator { port in
      let url = try #require(
        URL(string: "https://127.0.0.1:\(port)/identitytoolkit.googleapis.com/v1/accounts:lookup"))
      let error = await #expect(throws: HTTPTransportError.self) {
        _ = try await kind.make(timeout: 600).send(
          HTTPRequest(method: .post, url: url, body: Data("{}".utf8)))
      }
      guard case .connectionFailed(let reason) = error else {
        Issue.record("expected connectionFailed, got \(String(describing: error))")
        return
      }
      // libcurl names the TLS failure; FoundationNetworking reports it as URLError -1
      // (unknown), which is all URLSessionTransport can map.
      if kind != .urlSession { #expect(reason.contains("TLS"), "\(reason)") }
    }
  }

  @Test("FirebaseUserBackend over https to the plain port: .network, not a timeout")
  func firebase() async throws {
    try await withPatientEmulator { port in
      let backend = try FirebaseUserBackend(
        configuration: FirebaseConfiguration(
          apiKey: "demo-api-key", projectID: "demo-tls",
          identityToolkitBaseURL: URL(
            string: "https://127.0.0.1:\(port)/identitytoolkit.googleapis.com/v1/"),
          secureTokenURL: URL(
            string: "https://127.0.0.1:\(port)/securetoken.googleapis.com/v1/token")),
        transport: NetworkTransport.standard(defaultTimeout: 600),
        sessionStore: InMemorySessionStore())
      try await expectFastNetworkFailure {
        _ = try await backend.signIn(.email("tls@example.com", password: "secret1"))
      }
    }
  }

  @Test("NCMBUserBackend over https to the plain port: .network, not a timeout")
  func ncmb() async throws {
    try await withPatientEmulator { port in
      let backend = try NCMBUserBackend(
        configuration: NCMBConfiguration(
          applicationKey: NCMBDemoKeys.applicationKey, clientKey: NCMBDemoKeys.clientKey,
          baseURL: try #require(URL(string: "https://127.0.0.1:\(port)")), requestTimeout: 600),
        transport: NetworkTransport.standard(defaultTimeout: 600),
        sessionStore: InMemorySessionStore())
      try await expectFastNetworkFailure {
        _ = try await backend.signIn(.username("tls-user", password: "secret1"))
      }
    }
  }

  private func expectFastNetworkFailure(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
  ) async throws {
    let error = try await #require(throws: UserBackendError.self, sourceLocation: sourceLocation) {
      try await body()
    }
    guard case .network(let reason) = error.code else {
      Issue.record("expected .network, got \(error)", sourceLocation: sourceLocation)
      return
    }
    #expect(reason.contains("TLS"), "\(reason)", sourceLocation: sourceLocation)
    #expect(!reason.contains("timed out"), "\(reason)", sourceLocation: sourceLocation)
  }
}

/// Bytes no HTTP/1.x request line can hold end the connection when they arrive, not after
/// ``EmulatorServer/Limits/requestTimeout`` (600 s here).
@Suite("Bytes that cannot start a request end the connection at once", .timeLimit(.minutes(1)))
struct NonHTTPFirstBytesTests {
  /// Sends `bytes` (no head end) on a fresh connection and reads the answer.
  private func exchange(port: Int, _ bytes: [UInt8]) async throws -> RawResponse {
    try await blocking {
      let connection = try RawConnection(port: port)
      try connection.send(bytes)
      return try connection.readResponse()
    }
  }

  @Test(
    "a TLS ClientHello's first bytes: closed without an answer, one notice line",
    arguments: [[0x16], [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]])
  func tlsHandshake(bytes: [UInt8]) async throws {
    let notices = LockedValue<[String]>([])
    try await withPatientEmulator(notices: notices) { port in
      let closed = try await blocking {
        let connection = try RawConnection(port: port)
        try connection.send(bytes)
        return connection.isClosedByServer()
      }
      #expect(closed)
    }
    let lines = notices.withLock { $0 }
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("TLS handshake on the plain-HTTP port") == true, "\(lines)")
    #expect(lines.first?.contains("http://") == true)
  }

  @Test(
    "a byte no request line can hold: 400 naming the part, then close",
    arguments: [
      ([0x00], "malformed method"),
      ([0x00, 0x00, 0x00, 0x00], "malformed method"),
      ([0xFF, 0xFE, 0x47], "malformed method"),
      ([0x80, 0x2E, 0x01], "malformed method"),
      (Array(" GET".utf8), "malformed method"),
      (Array("G\u{1}ET".utf8), "malformed method"),
      (Array("GET /a\u{0}b".utf8), "malformed request target"),
      (Array("GET /\u{7F}".utf8), "malformed request target"),
      (Array("GET /a\rb".utf8), "malformed request target"),
      (Array("GET / HTTP/1.1\u{0}".utf8), "malformed HTTP version"),
      (Array("GET / HTTP/1.1 x".utf8), "malformed request line"),
      (Array("GET\n".utf8), "bare LF in the request head"),
    ] as [([UInt8], String)])
  func binaryByte(bytes: [UInt8], reason: String) async throws {
    let notices = LockedValue<[String]>([])
    try await withPatientEmulator(notices: notices) { port in
      let response = try await exchange(port: port, bytes)
      #expect(response.status == 400)
      #expect(response.bodyText == reason + "\n")
    }
    #expect(notices.withLock { $0 }.isEmpty, "answered: no notice")
  }

  @Test(
    "a request arriving in pieces is still served (no piece alone is refused)",
    arguments: [
      ["\r", "\nGET /emulator/v1/projects/demo-tls/oobCodes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"],
      ["G", "ET /emulator/v1/projects/demo-tls/oobCodes HTTP/1.1\r", "\nHost: 127.0.0.1\r\n\r\n"],
      ["GET /emulator/v1/projects/demo-tls/oobCodes ", "HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"],
    ])
  func pieces(_ pieces: [String]) async throws {
    try await withPatientEmulator { port in
      let response = try await blocking {
        let connection = try RawConnection(port: port)
        for piece in pieces {
          try connection.send(piece)
          usleep(50_000)
        }
        return try connection.readResponse()
      }
      #expect(response.status == 200, "\(response.bodyText)")
    }
  }
}
