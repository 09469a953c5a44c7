import BackendHTTP
import Foundation

// The web page, the request log and the admin account calls, in front of the protocol
// handlers (see `LoopbackGuard` for who may use them).
extension BackendEmulator {
  /// The header field the page sets on its polling requests; such requests are not
  /// recorded in ``requestLog`` (they would fill it every second and a half).
  static let pollHeader = "X-Emulator-UI-Poll"

  /// The answer of the page, its assets, the request log and the admin account calls
  /// (`accounts:query`, `accounts:update`, `accounts:delete`, `accounts:lookup` with
  /// `Bearer owner`), or `nil` when `request` is for a protocol handler. Call it after
  /// ``LoopbackGuard`` accepted the request.
  func adminAnswer(_ request: HTTPRequest) -> HTTPResponse? {
    if let page = EmulatorPage.answer(for: request, projectID: firebase.projectID) {
      return page
    }
    if let operation = FirebaseAdminEndpoints.operation(of: request) {
      return FirebaseAdminEndpoints(handler: firebase).respond(to: request, operation)
    }
    let parts = request.decodedPath.split(separator: "/")
    // /emulator/v1/projects/{id}/requests (the project ID was checked: `ProjectScope`)
    if parts.count == 5, parts[0] == "emulator", parts[1] == "v1", parts[2] == "projects",
      parts[4] == "requests"
    {
      switch request.method {
      case .get: return WireResponse.json(200, requestLog.json)
      case .delete:
        requestLog.removeAll()
        return WireResponse.json(200, [:])
      default: return FirebaseError.notFound.response
      }
    }
    return nil
  }

  /// Records `request` in ``requestLog`` unless it is one of the page's polls.
  func logRequest(
    _ request: HTTPRequest, _ response: HTTPResponse, since start: ContinuousClock.Instant
  ) {
    guard request.headerFields[Self.pollHeader] == nil else { return }
    requestLog.record(
      request, status: response.status, duration: ContinuousClock.now - start,
      wireProtocol: EmulatorRequestLog.wireProtocol(of: request))
  }
}
