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
