import AccountDatabase
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// What `JSONSerialization` would lose in a request body is refused naming the field, on
/// both wire protocols: two names of one object that are the same text in other bytes
/// (canonically equivalent: Firestore and NCMB keep both, a Swift dictionary one), and a
/// number a double cannot hold (`1e-400` read as 0, `1e400`). A merge naming a stored field
/// in other bytes is refused naming the stored one, never applied to it.
@Suite("Emulator: lossy JSON is refused naming the field", .timeLimit(.minutes(1)))
struct EmulatorLossyJSONTests {
  static let nfc = "caf\u{E9}"
  static let nfd = "cafe\u{301}"

  private struct Firestore {
    let store: UserStore
    let handler: FirestoreHandler
    let uid: String
    static let plain = CharacterSet(
      charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    init() throws {
      store = try makeStore()
      handler = FirestoreHandler(store: store, projectID: "demo-project")
      uid = try store.createUser(
        NewUser(email: "ann@example.com", username: nil, password: "secret1")
      ).id
    }

    func patch(_ body: String, mask: [String]? = nil) async -> HTTPResponse {
      var query = ""
      if let mask {
        query =
          "?"
          + mask.map {
            "updateMask.fieldPaths="
              + ($0.addingPercentEncoding(withAllowedCharacters: Self.plain) ?? $0)
          }.joined(separator: "&")
      }
      let url =
        "http://127.0.0.1:8080/v1/projects/demo-project/databases/(default)/documents/users/"
        + uid + query
      return await handler.handle(
        HTTPRequest(
          method: .patch, url: URL(string: url)!,
          headerFields: ["Authorization": "Bearer owner", "Content-Type": "application/json"],
          body: Data(body.utf8)))
    }
  }

  private func error(_ response: HTTPResponse) -> (status: String, message: String) {
    let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
    let error = object?["error"] as? [String: Any]
    return (error?["status"] as? String ?? "", error?["message"] as? String ?? "")
  }

  static let equivalentNameBodies: [(body: String, field: String)] = [
    (
      #"{"fields":{"\#(nfc)":{"integerValue":"1"},"\#(nfd)":{"integerValue":"2"}}}"#,
      "fields.\(nfd)"
    ),
    (
      #"{"fields":{"m":{"mapValue":{"fields":{"\#(nfd)":{"integerValue":"1"},"\#(nfc)":{"integerValue":"2"}}}}}}"#,
      "fields.m.\(nfc)"
    ),
    (
      #"{"fields":{"a":{"arrayValue":{"values":[{"mapValue":{"fields":{"\#(nfc)":{"nullValue":null},"caf\u00e9":{"nullValue":null}}}}]}}}}"#,
      "fields.a[0].\(nfc)"
    ),
  ]

  @Test("Firestore: names equal but for their bytes are INVALID_ARGUMENT, at every level")
  func firestoreEquivalentNames() async throws {
    let firestore = try Firestore()
    for (body, field) in Self.equivalentNameBodies {
      let answer = await firestore.patch(body)
      #expect(answer.status == 400, "\(field)")
      let (status, message) = error(answer)
      #expect(status == "INVALID_ARGUMENT")
      #expect(message.contains("'\(field)'"), "\(message)")
    }
    #expect(try firestore.store.document(userID: firestore.uid) == nil, "nothing stored")
  }

  static let outOfRange: [(body: String, field: String)] = [
    (#"{"fields":{"x":{"doubleValue":1e-400}}}"#, "fields.x"),
    (#"{"fields":{"x":{"doubleValue":-1e-400}}}"#, "fields.x"),
    (#"{"fields":{"x":{"doubleValue":1e400}}}"#, "fields.x"),
    (#"{"fields":{"x":{"doubleValue":-1e400}}}"#, "fields.x"),
    (#"{"fields":{"x":{"doubleValue":"1e-400"}}}"#, "fields.x"),
    (#"{"fields":{"x":{"doubleValue":"-1e-400"}}}"#, "fields.x"),
    (#"{"fields":{"m":{"mapValue":{"fields":{"y":{"doubleValue":1.5e-999}}}}}}"#, "fields.m.y"),
    (
      #"{"fields":{"a":{"arrayValue":{"values":[{"doubleValue":1},{"doubleValue":9e-500}]}}}}"#,
      "fields.a[1]"
    ),
    (#"{"fields":{"x":{"integerValue":1e400}}}"#, "fields.x"),
    (#"{"fields":{"x":{"integerValue":"9223372036854775808"}}}"#, "fields.x"),
    (#"{"fields":{"x":{"integerValue":"-9223372036854775809"}}}"#, "fields.x"),
    (#"{"fields":{"x":{"integerValue":9223372036854775808}}}"#, "fields.x"),
  ]

  @Test("Firestore: a number out of range is INVALID_ARGUMENT naming the field")
  func firestoreNumbersOutOfRange() async throws {
    let firestore = try Firestore()
    for (body, field) in Self.outOfRange {
      let answer = await firestore.patch(body)
      #expect(answer.status == 400, "\(body)")
      let (status, message) = error(answer)
      #expect(status == "INVALID_ARGUMENT", "\(body)")
      #expect(message.contains("'\(field)'"), "\(body): \(message)")
    }
    #expect(try firestore.store.document(userID: firestore.uid) == nil, "nothing stored")
  }

  @Test("Firestore: the numbers at the ends of the range are kept")
  func firestoreNumbersInRange() async throws {
    let firestore = try Firestore()
    let answer = await firestore.patch(
      #"{"fields":{"tiny":{"doubleValue":4.9406564584124654e-324},"zero":{"doubleValue":0e-400},"#
        + #""big":{"doubleValue":1.7976931348623157e308},"max":{"integerValue":9223372036854775807},"#
        + #""min":{"integerValue":"-9223372036854775808"}}}"#)
    #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
    let fields = try #require(try firestore.store.document(userID: firestore.uid)).fields
    #expect(fields["tiny"] == .double(.leastNonzeroMagnitude))
    #expect(fields["zero"] == .double(0))
    #expect(fields["big"] == .double(.greatestFiniteMagnitude))
    #expect(fields["max"] == .integer(.max))
    #expect(fields["min"] == .integer(.min))
  }

  @Test("a merge naming a stored field in other bytes is refused naming the stored field")
  func mergeIntoOtherBytes() async throws {
    let firestore = try Firestore()
    let created = await firestore.patch(#"{"fields":{"\#(Self.nfd)":{"integerValue":"1"}}}"#)
    #expect(created.status == 200)
    for mask in [[Self.nfc], [Self.nfc + ".x"]] {
      let answer = await firestore.patch(
        #"{"fields":{"\#(Self.nfc)":{"mapValue":{"fields":{"x":{"integerValue":"2"}}}}}}"#,
        mask: mask.map { "`\($0)`".replacingOccurrences(of: ".x`", with: "`.x") })
      #expect(answer.status == 400, "\(mask)")
      let (status, message) = error(answer)
      #expect(status == "INVALID_ARGUMENT")
      #expect(message.contains("U+0065 U+0301"), "names the stored field: \(message)")
    }
    // Removing in the other bytes is refused too; in the stored bytes it works.
    let removeOther = await firestore.patch("{}", mask: ["`\(Self.nfc)`"])
    #expect(removeOther.status == 400)
    let fields = try #require(try firestore.store.document(userID: firestore.uid)).fields
    #expect(fields.count == 1)
    #expect(fields.keys.first.map { Array($0.utf8) } == Array(Self.nfd.utf8), "bytes kept")
    #expect(fields[Self.nfd] == .integer(1))
    let removeStored = await firestore.patch("{}", mask: ["`\(Self.nfd)`"])
    #expect(removeStored.status == 200)
    #expect(try firestore.store.document(userID: firestore.uid)?.fields.isEmpty == true)
  }

  private struct NCMB {
    let store: UserStore
    let handler: NCMBHandler
    let requests = NCMBRequests()
    let id: String
    let token: String

    init() async throws {
      store = try makeStore()
      handler = NCMBHandler(store: store)
      let signUp = await handler.handle(
        requests.request(
          .post, "/2013-09-01/users", body: ["userName": "ann", "password": "secret1"]))
      id = try #require(signUp.json["objectId"] as? String)
      token = try #require(signUp.json["sessionToken"] as? String)
    }

    func put(_ body: String) async -> HTTPResponse {
      var request = requests.request(.put, "/2013-09-01/users/\(id)", sessionToken: token)
      request.body = Data(body.utf8)
      return await handler.handle(request)
    }
  }

  @Test(
    "NCMB: names equal but for their bytes, and numbers out of range, are E400002 naming the field",
    arguments: [
      (#"{"\#(nfc)":1,"\#(nfd)":2}"#, nfd),
      (#"{"m":{"\#(nfd)":1,"\#(nfc)":2}}"#, "m.\(nfc)"),
      (#"{"x":1e-400}"#, "x"), (#"{"x":-1e-400}"#, "x"), (#"{"x":1e400}"#, "x"),
      (#"{"m":{"y":[1,2e-999]}}"#, "m.y[1]"),
    ])
  func ncmbLossyBodies(body: String, field: String) async throws {
    let ncmb = try await NCMB()
    let answer = await ncmb.put(body)
    #expect(answer.status == 400)
    #expect(answer.json["code"] as? String == "E400002")
    let message = answer.json["error"] as? String ?? ""
    #expect(message.hasPrefix(field + " is invalid"), "\(message)")
    #expect(try ncmb.store.document(userID: ncmb.id) == nil, "nothing stored")
  }

  @Test("NCMB: the numbers at the ends of the range are kept")
  func ncmbNumbersInRange() async throws {
    let ncmb = try await NCMB()
    let answer = await ncmb.put(#"{"tiny":5e-324,"zero":0e-400,"max":9223372036854775807}"#)
    #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
    let fields = try #require(try ncmb.store.document(userID: ncmb.id)).fields
    #expect(fields["tiny"] == .double(.leastNonzeroMagnitude))
    #expect(fields["zero"] == .double(0))
    #expect(fields["max"] == .integer(.max))
  }
}
