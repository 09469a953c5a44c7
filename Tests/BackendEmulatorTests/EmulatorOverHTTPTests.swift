import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

/// Writes a value request as HTTP/1.1 bytes for the raw client (Host from the URL).
func wireText(_ request: HTTPRequest) -> [UInt8] {
  let target = request.rawPath + (request.rawQuery.map { "?" + $0 } ?? "")
  let host = request.url.host.map { $0 + (request.url.port.map { ":\($0)" } ?? "") } ?? "h"
  var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
  for field in request.headerFields where field.name.lowercased() != "host" {
    head += "\(field.name): \(field.value)\r\n"
  }
  head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
  return Array(head.utf8) + Array(request.body)
}

/// Sends `request` over a fresh loopback connection.
func send(_ request: HTTPRequest, port: Int) async throws -> RawResponse {
  let bytes = wireText(request)
  return try await blocking {
    let connection = try RawConnection(port: port, receiveTimeoutSeconds: 30)
    try connection.send(bytes)
    return try connection.readResponse()
  }
}

@Suite("BackendEmulator over HTTP", .timeLimit(.minutes(2)))
struct EmulatorOverHTTPTests {
  @Test("50 concurrent Firebase sign-ups of one email: one 200, 49 EMAIL_EXISTS, one row")
  func concurrentFirebaseSignUps() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    let server = EmulatorServer(emulator: emulator, port: 0)
    let port = try server.start()
    defer { server.stop() }
    let requests = FirebaseRequests(base: "http://127.0.0.1:\(port)")
    let request = requests.accounts(
      "signUp", ["email": "race@example.com", "password": "secret1", "returnSecureToken": true])
    let responses = try await withThrowingTaskGroup(of: RawResponse.self) { group in
      for _ in 0..<50 { group.addTask { try await send(request, port: port) } }
      return try await group.reduce(into: [RawResponse]()) { $0.append($1) }
    }
    #expect(responses.count == 50)
    #expect(responses.filter { $0.status == 200 }.count == 1)
    let messages = responses.filter { $0.status != 200 }.map {
      ($0.json["error"] as? [String: Any])?["message"] as? String
    }
    #expect(messages.count == 49)
    #expect(messages.allSatisfy { $0 == "EMAIL_EXISTS" })
    #expect(try store.userCount() == 1)
  }

  @Test("50 concurrent NCMB sign-ups of one user name: one 201, 49 E409001, one row")
  func concurrentNCMBSignUps() async throws {
    let store = try makeStore()
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    defer { server.stop() }
    let request = NCMBRequests(base: "http://127.0.0.1:\(port)").request(
      .post, "/2013-09-01/users", body: ["userName": "racer", "password": "secret1"])
    let responses = try await withThrowingTaskGroup(of: RawResponse.self) { group in
      for _ in 0..<50 { group.addTask { try await send(request, port: port) } }
      return try await group.reduce(into: [RawResponse]()) { $0.append($1) }
    }
    #expect(responses.filter { $0.status == 201 }.count == 1)
    let conflicts = responses.filter { $0.status == 409 }
    #expect(conflicts.count == 49)
    #expect(conflicts.allSatisfy { $0.json["code"] as? String == "E409001" })
    #expect(try store.userCount() == 1)
  }

  @Test("an account survives a server restart on the same data file")
  func restartOnSameFile() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("emulator.sqlite").path
    let signUp = { (port: Int) in
      FirebaseRequests(base: "http://127.0.0.1:\(port)").accounts(
        "signUp", ["email": "keep@example.com", "password": "secret1"])
    }
    let signIn = { (port: Int) in
      FirebaseRequests(base: "http://127.0.0.1:\(port)").accounts(
        "signInWithPassword", ["email": "keep@example.com", "password": "secret1"])
    }
    let first = EmulatorServer(emulator: BackendEmulator(store: try makeStore(path: path)), port: 0)
    let firstPort = try first.start()
    let created = try await send(signUp(firstPort), port: firstPort)
    await stopOffPool(first)
    #expect(created.status == 200)

    let second = EmulatorServer(
      emulator: BackendEmulator(store: try makeStore(path: path)), port: 0)
    let secondPort = try second.start()
    let signedIn = try await send(signIn(secondPort), port: secondPort)
    await stopOffPool(second)
    #expect(signedIn.status == 200)
    #expect(signedIn.json["localId"] as? String == created.json["localId"] as? String)
  }

  @Test("an acknowledged sign-up is already committed: another connection to the file sees it")
  func acknowledgedMeansCommitted() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("emulator.sqlite").path
    let server = EmulatorServer(
      emulator: BackendEmulator(store: try makeStore(path: path)), port: 0)
    let port = try server.start()
    defer { server.stop() }
    let response = try await send(
      NCMBRequests(base: "http://127.0.0.1:\(port)").request(
        .post, "/2013-09-01/users", body: ["userName": "durable", "password": "secret1"]),
      port: port)
    #expect(response.status == 201)
    // Without stopping the server or closing its store (as after kill -9), a second,
    // independent connection to the file already has the row.
    let observer = try makeStore(path: path)
    #expect(try observer.user(username: "durable")?.id == response.json["objectId"] as? String)
  }

  @Test("both protocols and the emulator-only endpoints share one port")
  func oneServerBothProtocols() async throws {
    let store = try makeStore()
    let server = EmulatorServer(emulator: BackendEmulator(store: store), port: 0)
    let port = try server.start()
    defer { server.stop() }
    let base = "http://127.0.0.1:\(port)"
    let phone = try await send(
      FirebaseRequests(base: base).accounts(
        "sendVerificationCode", ["phoneNumber": "+15555550100"]),
      port: port)
    let sessionInfo = try #require(phone.json["sessionInfo"] as? String)
    let codes = try await send(
      HTTPRequest(
        method: .get,
        url: URL(string: "\(base)/emulator/v1/projects/demo-project/verificationCodes")!),
      port: port)
    let listed = try #require(codes.json["verificationCodes"] as? [[String: Any]])
    #expect(listed.contains { $0["sessionInfo"] as? String == sessionInfo })
    let ncmb = try await send(
      NCMBRequests(base: base).request(
        .post, "/2013-09-01/users", body: ["userName": "n", "password": "secret1"]),
      port: port)
    #expect(ncmb.status == 201)
    let wiped = try await send(
      HTTPRequest(
        method: .delete, url: URL(string: "\(base)/emulator/v1/projects/demo-project/accounts")!),
      port: port)
    #expect(wiped.status == 200)
    #expect(try store.userCount() == 0)
  }

  @Test("a CORS preflight is answered without authentication; answers allow any origin")
  func cors() async throws {
    let emulator = BackendEmulator(store: try makeStore())
    var preflight = HTTPRequest(
      method: .options,
      url: URL(string: "http://127.0.0.1:9099/2013-09-01/users")!)
    preflight.headerFields["Access-Control-Request-Headers"] = "x-ncmb-signature"
    let answer = await emulator.handle(preflight)
    #expect(answer.status == 204)
    #expect(answer.headerFields["Access-Control-Allow-Headers"] == "x-ncmb-signature")
    let signUp = await emulator.handle(
      FirebaseRequests().accounts("signUp", ["email": "c@example.com", "password": "secret1"]))
    #expect(signUp.status == 200)
    #expect(signUp.headerFields["Access-Control-Allow-Origin"] == "*")
  }

  @Test("EmulatorTransport hands requests to the emulator and honours cancellation")
  func transport() async throws {
    let store = try makeStore()
    let transport = EmulatorTransport(BackendEmulator(store: store))
    let request = FirebaseRequests().accounts(
      "signUp", ["email": "t@example.com", "password": "secret1"])
    #expect(try await transport.send(request).status == 200)
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await transport.send(request)
    }
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(try store.userCount() == 1)
  }
}
