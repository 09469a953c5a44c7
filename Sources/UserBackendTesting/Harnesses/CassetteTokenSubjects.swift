import Foundation
import UserBackendKit

/// Reads the subject of an opaque session token from a cassette: the `objectId` of the
/// recorded NCMB response that handed the token out (`{"objectId": ..., "sessionToken":
/// ...}` from sign-up, login or anonymous sign-in). Replay hands the adapter the recorded
/// alias (`<NCMB_SESSION_TOKEN_1>`), so the alias is what is looked up.
enum CassetteTokenSubjects {
  /// The `objectId` next to `token` in a response body of the HAR file at `url`; `nil`
  /// when no response carries the token.
  /// - Throws: the file's read error.
  static func subject(of token: String, inCassette url: URL) throws -> String? {
    let data = try BoundedFileRead.data(contentsOf: url, limit: BoundedFileRead.largeFileLimit)
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let log = root["log"] as? [String: Any], let entries = log["entries"] as? [[String: Any]]
    else { return nil }
    for entry in entries {
      guard let response = entry["response"] as? [String: Any],
        let content = response["content"] as? [String: Any],
        let text = content["text"] as? String,
        let body = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        body["sessionToken"] as? String == token, let id = body["objectId"] as? String
      else { continue }
      return id
    }
    return nil
  }
}
