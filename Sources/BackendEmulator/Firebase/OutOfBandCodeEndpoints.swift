import AccountDatabase
import BackendHTTP
import Foundation

// The Auth Emulator's out-of-band code listing (`docs/wire/firebase-auth.md`, "Account
// management in the emulator"): `GET /emulator/v1/projects/{id}/oobCodes` lists the codes
// not used yet, `DELETE` of the same path clears them.
extension FirebaseAuthHandler {
  /// `GET` → `{"oobCodes":[{"email","oobCode","oobLink","requestType"}]}` (oldest first);
  /// `DELETE` → `{}`; other methods → 404.
  func outOfBandCodesEndpoint(_ request: HTTPRequest) throws(FirebaseError) -> HTTPResponse {
    switch request.method {
    case .get:
      let codes = try firebaseStore { try store.outOfBandCodes() }
      let base = Self.baseURL(of: request)
      return WireResponse.json(
        200,
        [
          "oobCodes": codes.map { code in
            [
              "email": code.email, "oobCode": code.code,
              "oobLink": Self.link(base: base, code: code),
              "requestType": code.requestType.rawValue,
            ]
          }
        ])
    case .delete:
      try firebaseStore { try store.deleteOutOfBandCodes() }
      return WireResponse.json(200, [:])
    default:
      throw .notFound
    }
  }

  /// `GET /emulator/action?mode=…&oobCode=…`: following an `oobLink`. `mode=verifyEmail`
  /// applies the code; `mode=resetPassword` checks it, and with `&newPassword=…` (as the
  /// Auth Emulator accepts) completes the reset. Answers JSON
  /// `{"email","requestType"}` (the Auth Emulator shows an HTML page) or a Firebase error
  /// (`MISSING_OOB_CODE`, `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, `WEAK_PASSWORD`); an
  /// unknown mode is `INVALID_REQ_TYPE`.
  func actionEndpoint(_ request: HTTPRequest) throws(FirebaseError) -> HTTPResponse {
    guard request.method == .get else { throw .notFound }
    var body = WireObject()
    if let code = request.queryValue("oobCode") { body.fields["oobCode"] = code }
    switch request.queryValue("mode") {
    case "resetPassword":
      if let password = request.queryValue("newPassword") {
        body.fields["newPassword"] = password
      }
      return WireResponse.json(200, try resetPassword(body))
    case "verifyEmail":
      guard let code = body.string("oobCode"), !code.isEmpty else {
        throw FirebaseError("MISSING_OOB_CODE")
      }
      let user = try firebaseStore { try store.applyEmailVerification(code: code) }
      return WireResponse.json(
        200,
        [
          "email": user.email ?? "",
          "requestType": OutOfBandRequestType.verifyEmail.rawValue,
        ])
    default:
      throw FirebaseError("INVALID_REQ_TYPE", "mode must be resetPassword or verifyEmail")
    }
  }

  /// The Auth Emulator's link form:
  /// `<base>/emulator/action?mode=resetPassword|verifyEmail&lang=en&oobCode=…&apiKey=fake-api-key`.
  static func link(base: String, code: OutOfBandCode) -> String {
    let mode = code.requestType == .passwordReset ? "resetPassword" : "verifyEmail"
    var components = URLComponents()
    components.queryItems = [
      URLQueryItem(name: "mode", value: mode), URLQueryItem(name: "lang", value: "en"),
      URLQueryItem(name: "oobCode", value: code.code),
      URLQueryItem(name: "apiKey", value: "fake-api-key"),
    ]
    return base + "/emulator/action?" + (components.percentEncodedQuery ?? "")
  }

  /// `scheme://host[:port]` of the request (the emulator's own address as the client
  /// reached it), `http://127.0.0.1:9099` when it has no host.
  static func baseURL(of request: HTTPRequest) -> String {
    guard let host = request.url.host, !host.isEmpty else { return "http://127.0.0.1:9099" }
    let scheme = request.url.scheme ?? "http"
    let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "\(scheme)://\(hostText)" + (request.url.port.map { ":\($0)" } ?? "")
  }
}
