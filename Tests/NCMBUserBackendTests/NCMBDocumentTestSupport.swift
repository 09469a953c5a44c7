import BackendHTTP
import Foundation
import UserBackendKit

@testable import NCMBUserBackend

/// A tiny NCMB user-object server for the document tests: `GET`/`PUT
/// /2013-09-01/users/{objectId}` over one object per ID, applying `{"__op":"Delete"}`; an
/// optional hook answers instead (error answers, interleaved writes).
final class NCMBObjectServer: HTTPTransport {
  private final class State: Sendable {
    let objects = LockedValue<[String: [String: any Sendable]]>([:])
    let requests = LockedValue<[HTTPRequest]>([])
  }
  private let state = State()
  /// Answers a request instead of the server when it returns a response.
  let hook: @Sendable (HTTPRequest, Int) -> HTTPResponse?
  /// Runs after each PUT is applied (to simulate another device's write).
  let afterWrite: @Sendable (NCMBObjectServer, Int) -> Void

  init(
    hook: @escaping @Sendable (HTTPRequest, Int) -> HTTPResponse? = { _, _ in nil },
    afterWrite: @escaping @Sendable (NCMBObjectServer, Int) -> Void = { _, _ in }
  ) {
    self.hook = hook
    self.afterWrite = afterWrite
    seed(Fixture.userID, json: Self.aliceJSON)
  }

  static let aliceJSON = """
    {"objectId":"\(Fixture.userID)","userName":"alice","mailAddress":null,\
    "createDate":"2013-08-28T11:27:16.446Z","updateDate":"2013-08-28T11:27:16.446Z",\
    "authData":null,"mailAddressConfirm":false,"acl":{"*":{"read":true}}}
    """

  /// Replaces the object `id` with a JSON object.
  func seed(_ id: String, json: String) {
    let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
    state.objects.withLock { $0[id] = object.mapValues { Box($0) } }
  }

  /// Sets one member of `id` from JSON text.
  func set(_ id: String, _ name: String, json: String) {
    let value =
      (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed))
      ?? NSNull()
    state.objects.withLock { $0[id, default: [:]][name] = Box(value) }
  }

  /// The object `id` as JSON text (sorted keys).
  func objectJSON(_ id: String) -> String {
    let object =
      state.objects.withLock { $0[id] }?.mapValues { ($0 as? Box)?.value ?? NSNull() } ?? [:]
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  var requests: [HTTPRequest] { state.requests.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let index = state.requests.withLock {
      $0.append(request)
      return $0.count - 1
    }
    if let answer = hook(request, index) { return answer }
    let id = request.url.lastPathComponent
    switch request.method {
    case .get:
      guard state.objects.withLock({ $0[id] }) != nil else {
        return Self.json(404, #"{"code":"E404001","error":"No data available."}"#)
      }
      return Self.json(200, objectJSON(id))
    case .put:
      let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
      state.objects.withLock { objects in
        for (name, value) in body {
          if let op = value as? [String: Any], op["__op"] as? String == "Delete" {
            objects[id]?[name] = nil
          } else {
            objects[id, default: [:]][name] = Box(value)
          }
        }
        objects[id]?["updateDate"] = Box("2026-01-01T00:00:05.000Z")
      }
      afterWrite(self, index)
      return Self.json(200, #"{"updateDate":"2026-01-01T00:00:05.000Z"}"#)
    default:
      return Self.json(405, #"{"code":"E405001","error":"Method not allowed."}"#)
    }
  }

  static func json(_ status: Int, _ body: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headerFields: ["Content-Type": "application/json"], body: Data(body.utf8))
  }

  /// A parsed JSON value held as `Sendable` (it is never mutated).
  final class Box: @unchecked Sendable {
    let value: Any
    init(_ value: Any) { self.value = value }
  }

  func backend(store: InMemorySessionStore = Fixture.signedInStore()) throws -> NCMBUserBackend {
    try NCMBUserBackend(
      configuration: Fixture.configuration(), transport: self, sessionStore: store,
      clock: ManualClock(Fixture.now), makeUUID: { Fixture.uuid })
  }
}

extension Fixture {
  static let userID = "epaKcaYZqsREdSMY"
}

/// Runs a typed-throws call and keeps its result.
func documentOutcome<T: Sendable>(_ body: () async throws(UserBackendError) -> T) async
  -> Result<T, UserBackendError>
{
  do {
    return .success(try await body())
  } catch {
    return .failure(error)
  }
}

extension Result where Failure == UserBackendError {
  /// The portable error, or `nil` on success.
  var errorCode: UserBackendError.Code? {
    if case .failure(let error) = self { return error.code }
    return nil
  }
}
