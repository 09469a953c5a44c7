import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

/// A document within the 1 MiB document limit can be several times larger as JSON (a
/// control character is one byte stored and six on the wire), so the emulator's body
/// limit is each service's own request limit, not 1 MiB: 10 MiB on the Google APIs, 16 MiB
/// on NCMB. A larger body is refused in the protocol's own error envelope, which the
/// adapters map to a typed error (not `malformedResponse`).
@Suite(
  "Emulator: request body limits per protocol, refused in its envelope", .timeLimit(.minutes(2)))
struct EmulatorBodyLimitTests {
  /// 200,000 bytes of U+0001 in two fields: 200 KB stored, about 1.2 MB of JSON.
  static let escaped: [String: DocumentValue] = [
    "f1": .string("a" + String(repeating: "\u{1}", count: 100_000)),
    "f2": .string("b" + String(repeating: "\u{1}", count: 100_000)),
  ]

  @Test(
    "a document whose JSON passes 1 MiB is stored over HTTP",
    arguments: [DocumentBackendKind.firebase, .ncmb])
  func escapedDocumentIsStored(kind: DocumentBackendKind) async throws {
    let rig = try EmulatorRig(.loopback)
    let backend: any UserBackend = kind == .ncmb ? try rig.ncmb() : try rig.firebase()
    _ = try await backend.signUp(
      kind == .ncmb
        ? .username("big", password: "secret1") : .email("big@example.com", password: "secret1"))
    let stored = try await backend.userDocuments.updateDocument(
      setting: Self.escaped, removing: [])
    #expect(stored.fields["f1"] == Self.escaped["f1"])
    #expect(stored.fields["f2"] == Self.escaped["f2"])
    await rig.stop()
  }

  @Test func aFirestoreWriteOverTenMiBIsAnInvalidInputNamingFields() async throws {
    // 690 names of 1,499 bytes, nearly all control characters: about 1,036,000 bytes
    // stored (under 1 MiB), but each name is about 9 KB of JSON in `fields` and again in
    // `updateMask`: more than 10 MiB on the wire, which Firestore refuses too.
    var fields: [String: DocumentValue] = [:]
    for index in 0..<690 {
      let prefix = String(format: "%03d", index)
      fields[prefix + String(repeating: "\u{1}", count: 1_496)] = .null
    }
    #expect(DocumentValidation.documentSize(userID: "u", fields: fields) <= 1_048_576)
    let rig = try EmulatorRig(.loopback)
    let backend = try rig.firebase()
    _ = try await backend.signUp(.email("wide@example.com", password: "secret1"))
    var caught: UserBackendError?
    do {
      _ = try await backend.userDocuments.updateDocument(setting: fields, removing: [])
    } catch {
      caught = error
    }
    await rig.stop()
    let error = try #require(caught, "a request over 10 MiB was accepted")
    guard case .invalidInput(let field, let reason) = error.code else {
      Issue.record("expected invalidInput, got \(error)")
      return
    }
    #expect(field == "fields")
    #expect(reason.contains("10485760"))
  }

  @Test func overTheLimitEachProtocolAnswersInItsOwnEnvelope() async throws {
    let server = EmulatorServer(emulator: BackendEmulator(store: try makeStore()), port: 0)
    let port = try server.start()
    defer { stopInBackground(server) }
    let google = 10_485_760  // BackendEmulator.googleMaximumBodyBytes
    for path in [
      "/v1/projects/demo-project/databases/(default)/documents:commit",
      "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k",
    ] {
      let response = try await rawExchange(
        port: port,
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(google + 1)\r\n\r\n")
      let error = response.json["error"] as? [String: Any]
      #expect(response.status == 400, "\(path)")
      #expect(error?["status"] as? String == "INVALID_ARGUMENT", "\(path)")
      #expect(
        error?["message"] as? String
          == "Request payload size exceeds the limit: 10485760 bytes.", "\(path)")
    }
    let ncmb = try await rawExchange(
      port: port,
      "PUT /2013-09-01/users/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(16_777_216 + 1)\r\n\r\n")
    #expect(ncmb.status == 413)
    #expect(ncmb.json["code"] as? String == "E413002")
    #expect(ncmb.json["error"] as? String == "Request entity too large.")
    // Between the old 1 MiB and the NCMB limit, a body is read and handled: here an
    // unsigned request, refused by the NCMB rules, not by size.
    let body = "{\"f\":\"" + String(repeating: "x", count: 2_000_000) + "\"}"
    let read = try await rawExchange(
      port: port,
      "PUT /2013-09-01/users/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    #expect(read.status != 413)
    #expect((read.json["code"] as? String)?.hasPrefix("E413") == false)
  }
}
