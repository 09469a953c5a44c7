import BackendHTTP
import Foundation
import UserBackendKit

@testable import FirebaseUserBackend

/// A canned Firestore server: answers `securetoken` refreshes like ``Fixture/server(clock:)``
/// and every other request from a script, in order.
final class FirestoreStub: Sendable {
  let clock: ManualClock
  private final class Script: Sendable {
    let answers = LockedValue<[HTTPResponse]>([])
  }
  private let script = Script()
  let transport: StubTransport

  init(clock: ManualClock = ManualClock(Fixture.start)) {
    self.clock = clock
    let script = self.script
    transport = StubTransport { request in
      if request.url.host == "securetoken.googleapis.com" {
        return StubTransport.json(
          200,
          Fixture.tokenBody(
            idToken: Fixture.idToken(exp: clock.now().addingTimeInterval(3600), serial: 2)))
      }
      return script.answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        ?? StubTransport.json(599, #"{"error":{"code":599,"status":"NO_SCRIPT"}}"#)
    }
  }

  /// Appends a JSON answer.
  func enqueue(_ status: Int, _ json: String, headers: HTTPFields = [:]) {
    var response = StubTransport.json(status, json)
    for field in headers { response.headerFields[field.name] = field.value }
    script.answers.withLock { $0.append(response) }
  }

  /// The Firestore requests (not the token refreshes).
  var firestoreRequests: [HTTPRequest] {
    transport.requests.filter { $0.url.host != "securetoken.googleapis.com" }
  }

  /// A backend for project `demo-project`, signed in as `uid-1` with a token valid for an
  /// hour.
  func backend(
    projectID: String? = "demo-project", emulatorHost: String? = nil,
    firestoreEmulatorHost: String? = nil, signedIn: Bool = true
  ) throws(UserBackendError) -> FirebaseUserBackend {
    try FirebaseUserBackend(
      configuration: FirebaseConfiguration(
        apiKey: Fixture.apiKey, projectID: projectID, emulatorHost: emulatorHost,
        firestoreEmulatorHost: firestoreEmulatorHost),
      transport: transport,
      sessionStore: signedIn ? Fixture.signedInStore(clock: clock) : InMemorySessionStore(),
      clock: clock)
  }

  static let documents =
    "https://firestore.googleapis.com/v1/projects/demo-project/databases/(default)/documents"
  static let name = "projects/demo-project/databases/(default)/documents/users/uid-1"

  /// A `GET` answer for `users/uid-1` with `fields` (raw JSON of the fields object).
  static func documentJSON(_ fields: String = #"{"uid":{"stringValue":"uid-1"}}"#) -> String {
    #"{"name":"\#(name)","fields":\#(fields),"createTime":"2026-01-01T00:00:00.000001Z","updateTime":"2026-01-01T00:00:01.5Z"}"#
  }

  static func error(_ code: Int, _ status: String, _ message: String = "m") -> String {
    #"{"error":{"code":\#(code),"message":"\#(message)","status":"\#(status)"}}"#
  }
}

extension Result where Failure == UserBackendError {
  /// The portable error, or `nil` on success.
  var errorCode: UserBackendError.Code? {
    if case .failure(let error) = self { return error.code }
    return nil
  }
}

/// Runs a typed-throws call and keeps its result.
func outcome<T: Sendable>(_ body: () async throws(UserBackendError) -> T) async -> Result<
  T, UserBackendError
> {
  do {
    return .success(try await body())
  } catch {
    return .failure(error)
  }
}
