import BackendEmulator
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

/// 10000-01-01T00:00:00Z itself is out of range on every path, and the last instant of
/// 9999 is in it: a `Date` is a `Double` of seconds since 2001, 2^-15 s apart in year
/// 9999, so the nearest `Date` to 9999-12-31T23:59:59.999999Z is 10000-01-01T00:00:00Z.
/// The range check compared against that rounded bound with `<=` and let year 10000 in
/// (the backends then stored it as 9999-12-31T23:59:59.999999Z). The latest in-range `Date`
/// is now the one just below 10000 (``DocumentValidation/latestTimestamp``), which stands
/// for 9999-12-31T23:59:59.999999Z.
@Suite("Timestamps: 10000-01-01T00:00:00Z is out of range everywhere", .timeLimit(.minutes(2)))
struct TimestampYear10000Tests {
  static let year10000 = Date(timeIntervalSince1970: 253_402_300_800)
  static let year0 = Date(timeIntervalSinceReferenceDate: (-63_113_904_000.0).nextDown)
  static let firstInstant = Date(timeIntervalSince1970: -62_135_596_800)

  @Test("the library's conversions refuse year 10000 and keep the last microsecond of 9999")
  func conversions() throws {
    #expect(DocumentTimestamp.microseconds(of: Self.year10000) == nil)
    #expect(DocumentTimestamp.rfc3339(Self.year10000) == nil)
    #expect(DocumentTimestamp.microseconds(of: Self.year0) == nil)
    #expect(DocumentTimestamp.rfc3339(Self.firstInstant) == "0001-01-01T00:00:00.000000Z")
    let last = DocumentTimestamp.date(microseconds: 253_402_300_799_999_999)
    #expect(last < Self.year10000)
    #expect(DocumentTimestamp.rfc3339(last) == "9999-12-31T23:59:59.999999Z")
    #expect(DocumentValidation.latestTimestamp < Self.year10000)
    #expect(
      DocumentTimestamp.rfc3339(DocumentValidation.latestTimestamp) == "9999-12-31T23:59:59.999999Z"
    )
    // Stored times (SQLite REAL seconds and INTEGER microseconds) land in range too.
    let stored = try #require(
      DocumentTimestamp.checkedDate(secondsSince1970: 253_402_300_799.999))
    #expect(stored < Self.year10000)
    let storedMicros = try #require(
      DocumentTimestamp.checkedDate(microseconds: 253_402_300_799_999_999))
    #expect(storedMicros < Self.year10000)
    #expect(DocumentTimestamp.checkedDate(secondsSince1970: 253_402_300_800) == nil)
    // Text: the last microsecond parses to an in-range Date; year 10000 never parses.
    let parsed = try #require(DocumentTimestamp.parse("9999-12-31T23:59:59.999999Z"))
    #expect(parsed < Self.year10000)
    #expect(DocumentTimestamp.parse("9999-12-31T23:00:00-01:00") == nil)
  }

  @Test(
    "a write of exactly 10000-01-01T00:00:00Z is refused, naming the field",
    arguments: IdentifierLayer.allCases)
  func writeRefused(_ layer: IdentifierLayer) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try layer.backend(rig)
    _ = try await backend.signUp(PasswordCredential(.email("y@example.com"), password: "secret1"))
    for date in [Self.year10000, Self.year0] {
      let code = await errorCode {
        try await backend.userDocuments.updateDocument(setting: ["t": .timestamp(date)])
      }
      guard case .invalidInput(let field, _) = code else {
        Issue.record("\(String(describing: code))")
        continue
      }
      #expect(field == "fields.t")
    }
    #expect(try await backend.userDocuments.document() == nil)
    // Both ends themselves are stored and read back as the same ends.
    let last = DocumentTimestamp.date(microseconds: 253_402_300_799_999_999)
    _ = try await backend.userDocuments.updateDocument(
      setting: ["last": .timestamp(last), "first": .timestamp(Self.firstInstant)])
    let read = try #require(try await backend.userDocuments.document())
    guard case .timestamp(let readLast) = read.fields["last"],
      case .timestamp(let readFirst) = read.fields["first"]
    else {
      Issue.record("\(read.fields)")
      return
    }
    #expect(readLast < Self.year10000)
    #expect(DocumentTimestamp.rfc3339(readLast)?.hasPrefix("9999-12-31T23:59:59.999") == true)
    #expect(readFirst == Self.firstInstant)
  }

  /// One request to `emulator` in process; the answer's JSON object.
  private func call(_ emulator: BackendEmulator, _ request: HTTPRequest) async throws -> (
    Int, [String: Any]
  ) {
    let response = try await EmulatorTransport(emulator).send(request)
    let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
    return (response.status, json ?? [:])
  }

  @Test("the emulator's wire texts: both ends are stored, year 10000 (after its offset) is not")
  func wireEnds() async throws {
    let store = try makeStore()
    let emulator = BackendEmulator(store: store)
    let firebase = FirebaseRequests(base: "http://127.0.0.1:9099")
    let (_, signedUp) = try await call(
      emulator,
      firebase.accounts(
        "signUp", ["email": "w@example.com", "password": "secret1", "returnSecureToken": true]))
    let uid = try #require(signedUp["localId"] as? String)
    let token = try #require(signedUp["idToken"] as? String)
    let root = "http://127.0.0.1:9099/v1/projects/demo-project/databases/(default)/documents"
    func firestore(_ method: HTTPMethod, _ path: String, _ body: [String: Any]?) -> HTTPRequest {
      HTTPRequest(
        method: method, url: URL(string: root + path)!,
        headerFields: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
        body: body.map(jsonData) ?? Data())
    }
    // Firestore timestampValue.
    let late = ["timestampValue": "9999-12-31T23:00:00-01:00"]
    let (refused, _) = try await call(
      emulator, firestore(.post, "/users?documentId=\(uid)", ["fields": ["t": late]]))
    #expect(refused == 400)
    let ends: [String: Any] = [
      "last": ["timestampValue": "9999-12-31T23:59:59.999999Z"],
      "first": ["timestampValue": "0001-01-01T00:00:00Z"],
    ]
    let (created, _) = try await call(
      emulator, firestore(.post, "/users?documentId=\(uid)", ["fields": ends]))
    #expect(created == 200)
    let (_, read) = try await call(emulator, firestore(.get, "/users/\(uid)", nil))
    let fields = read["fields"] as? [String: Any]
    #expect(
      (fields?["last"] as? [String: Any])?["timestampValue"] as? String
        == "9999-12-31T23:59:59.999999Z")
    #expect(
      (fields?["first"] as? [String: Any])?["timestampValue"] as? String
        == "0001-01-01T00:00:00.000000Z")
    // NCMB {"__type":"Date"} on the same account's user object.
    let ncmb = NCMBRequests()
    let (_, login) = try await call(
      emulator,
      ncmb.request(
        .post, "/2013-09-01/login", body: ["userName": "w@example.com", "password": "secret1"]))
    let session = try #require(login["sessionToken"] as? String)
    let date = { (iso: String) -> [String: Any] in ["__type": "Date", "iso": iso] }
    let (late10000, _) = try await call(
      emulator,
      ncmb.request(
        .put, "/2013-09-01/users/\(uid)", body: ["d": date("9999-12-31T23:59:59.999-01:00")],
        sessionToken: session))
    #expect(late10000 == 400)
    let (updated, _) = try await call(
      emulator,
      ncmb.request(
        .put, "/2013-09-01/users/\(uid)",
        body: ["d": date("9999-12-31T23:59:59.999Z"), "e": date("0001-01-01T00:00:00.000Z")],
        sessionToken: session))
    #expect(updated == 200)
    let (_, object) = try await call(
      emulator, ncmb.request(.get, "/2013-09-01/users/\(uid)", sessionToken: session))
    #expect((object["d"] as? [String: Any])?["iso"] as? String == "9999-12-31T23:59:59.999Z")
    #expect((object["e"] as? [String: Any])?["iso"] as? String == "0001-01-01T00:00:00.000Z")
  }
}
