import BackendHTTP
import Foundation

/// The emulator's web page: `GET /` (for a browser, whose `Accept` names `text/html`; other
/// clients get the Auth Emulator's readiness answer there) and `GET /ui/`, with its
/// assets `GET /ui/app.css` and `GET /ui/app.js`. Plain HTML, CSS and JavaScript kept in
/// the binary, so it works offline and needs no build step.
///
/// Every answer carries a Content-Security-Policy that allows only the page's own script,
/// style sheet and requests (`default-src 'self'`, no inline script or style, no framing),
/// `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`.
enum EmulatorPage {
  /// The Content-Security-Policy of every page answer.
  static let contentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    + "frame-ancestors 'none'"

  /// The answer for `request` when it asks for the page or one of its assets, else `nil`.
  static func answer(for request: HTTPRequest, projectID: String) -> HTTPResponse? {
    let path = request.decodedPath
    guard path == "/" || path.hasPrefix("/ui/") else { return nil }
    if path == "/" {
      let accept = request.headerFields["Accept"]?.lowercased() ?? ""
      guard [.get, .head].contains(request.method), accept.contains("text/html") else {
        return nil
      }
    }
    guard [.get, .head].contains(request.method) else {
      return text(405, "method not allowed\n", extra: ["Allow": "GET, HEAD"])
    }
    switch path {
    case "/", "/ui/", "/ui/index.html":
      return asset(html(projectID: projectID), type: "text/html; charset=utf-8")
    case "/ui/app.css":
      return asset(css, type: "text/css; charset=utf-8")
    case "/ui/app.js":
      return asset(script, type: "text/javascript; charset=utf-8")
    default:
      return text(404, "not found\n")
    }
  }

  /// The page for `projectID` (HTML-escaped into a `meta` element the script reads).
  static func html(projectID: String) -> String {
    htmlTemplate.replacingOccurrences(of: "{{PROJECT_ID}}", with: HTMLEscaping.escaped(projectID))
  }

  private static var securityFields: HTTPFields {
    [
      "Content-Security-Policy": contentSecurityPolicy,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Frame-Options": "DENY",
    ]
  }

  private static func asset(_ body: String, type: String) -> HTTPResponse {
    var fields = securityFields
    fields["Content-Type"] = type
    return HTTPResponse(status: 200, headerFields: fields, body: Data(body.utf8))
  }

  private static func text(_ status: Int, _ body: String, extra: HTTPFields = [:])
    -> HTTPResponse
  {
    var fields = securityFields
    fields["Content-Type"] = "text/plain; charset=utf-8"
    for field in extra { fields[field.name] = field.value }
    return HTTPResponse(status: status, headerFields: fields, body: Data(body.utf8))
  }
}
