import BackendHTTP
import Foundation

/// What a cassette may hold where replay hands it to a client as if it came off the wire:
/// a status of 100…599, a method and header field names that are HTTP tokens, header values
/// without CR, LF or NUL. The token and value rules are the ones every live request passes
/// (`HTTPToken`, `HTTPRequest.checkSendable`); a hand-edited cassette or
/// a HAR export could hold anything (`-1`, `"X\r\nInjected"`), which replay would pass on
/// as an answer no server can send.
///
/// HTTP/2 pseudo-header fields (`:authority`, a `:` and a token) pass: browser exports hold
/// them, and replay and import leave them out.
///
/// Checked by `cassette lint` and import (``HARSchema``) and on load and replay
/// (``Cassette/decode(_:)``, ``Cassette/interactions()``).
enum ReplayableFields {
  /// The statuses an HTTP answer can have (RFC 9110 §15: three digits, 1xx to 5xx).
  static let statuses = 100...599

  /// Why `status` cannot be replayed, or `nil`.
  static func statusProblem(_ status: Int) -> String? {
    statuses.contains(status) ? nil : "expected an HTTP status code from 100 to 599"
  }

  /// Why a method cannot be replayed, or `nil`.
  static func methodProblem(_ method: String) -> String? {
    HTTPToken.isToken(method) ? nil : "the method is not an HTTP token"
  }

  /// Why a header field cannot be replayed, or `nil` (never quoting the name or value).
  static func headerProblem(name: String, value: String) -> String? {
    let token = name.hasPrefix(":") ? String(name.dropFirst()) : name
    guard HTTPToken.isToken(token) else { return "the header field name is not an HTTP token" }
    // The value rule is asked of the live request check itself (one rule, not a copy):
    // the value under a neutral name, so only the value's own rule applies (not the
    // request-only rules for `Content-Length` and `Transfer-Encoding`).
    let probe = HTTPRequest(method: .get, url: probeURL, headerFields: ["X-Replay": value])
    do {
      try probe.checkSendable()
    } catch {
      return "the header field value contains CR, LF or NUL"
    }
    return nil
  }

  private static let probeURL =
    URL(string: "https://replay.invalid/")
    ?? URL(
      fileURLWithPath: "/")
}

extension HAREntry {
  /// Checks the status, method and header fields with ``ReplayableFields``.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` naming the field
  ///   (`log.entries[2].response.headers[1]`), never its value.
  func checkReplayable(index: Int) throws(CassetteError) {
    let path = CassetteLocation.entry(index)
    if let problem = ReplayableFields.methodProblem(request.method) {
      throw .malformed(field: path + ".request.method", reason: problem)
    }
    for (place, headers) in [("request", request.headers), ("response", response.headers)] {
      for (position, header) in headers.enumerated() {
        if let problem = ReplayableFields.headerProblem(name: header.name, value: header.value) {
          throw .malformed(field: "\(path).\(place).headers[\(position)]", reason: problem)
        }
      }
    }
    if let problem = ReplayableFields.statusProblem(response.status) {
      throw .malformed(field: path + ".response.status", reason: problem)
    }
  }
}
