import BackendHTTP
import Foundation
import UserBackendContracts

/// Reads out-of-band codes from the Auth Emulator's listing, as a test would with curl:
///
/// `GET http://HOST/emulator/v1/projects/{projectId}/oobCodes` -> `200
/// {"oobCodes": [{"email": "a@example.com", "oobCode": "…", "oobLink": "…",
/// "requestType": "PASSWORD_RESET"}]}` (`requestType` also `VERIFY_EMAIL`, …).
///
/// The request goes through the run's transport, so a recording keeps it in the cassette
/// and a replay answers it from there (codes appear as their aliases, which the adapter
/// sends back unchanged and the replayed request matches).
enum OutOfBandCodeListing {
  /// The Firebase Auth Emulator's default address, used when the run has none (the
  /// in-process emulator and replay route by path, not by host).
  static let defaultHost = "127.0.0.1:9099"

  /// The latest code of `kind` sent to `email` (compared without letter case or
  /// surrounding spaces).
  /// - Parameters:
  ///   - host: `host:port` of the emulator; `nil` for ``defaultHost``.
  /// - Throws: ``OutOfBandCodeNotFound`` when none was listed; ``OutOfBandListingError``
  ///   for a failed request or an answer that is not the documented listing.
  static func latestCode(
    email: String, kind: OutOfBandCodeKind, projectID: String, host: String?,
    transport: any HTTPTransport
  ) async throws -> String {
    let address = "http://\(host ?? defaultHost)/emulator/v1/projects/\(projectID)/oobCodes"
    guard let url = URL(string: address) else {
      throw OutOfBandListingError(reason: "bad emulator address \(address)")
    }
    let response = try await transport.send(HTTPRequest(method: .get, url: url))
    guard response.status == 200 else {
      throw OutOfBandListingError(reason: "the listing answered HTTP \(response.status)")
    }
    let entries = try parse(response.body)
    let wanted = canonical(email)
    guard
      let entry = entries.last(where: {
        canonical($0.email) == wanted && $0.requestType == kind.rawValue
      })
    else { throw OutOfBandCodeNotFound(email: email, kind: kind) }
    guard let code = entry.oobCode, !code.isEmpty else {
      throw OutOfBandListingError(reason: "the \(kind.rawValue) entry has no oobCode")
    }
    return code
  }

  struct Entry: Decodable {
    var email: String
    var oobCode: String?
    var requestType: String
  }

  /// The listing's entries.
  /// - Throws: ``OutOfBandListingError`` when the body is not `{"oobCodes": [...]}`.
  static func parse(_ body: Data) throws -> [Entry] {
    struct Listing: Decodable { var oobCodes: [Entry]? }
    do {
      return try JSONDecoder().decode(Listing.self, from: body).oobCodes ?? []
    } catch {
      throw OutOfBandListingError(reason: "the listing is not {\"oobCodes\": [...]}")
    }
  }

  private static func canonical(_ email: String) -> String {
    email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }
}

/// The emulator's out-of-band code listing could not be read. Never contains a code.
struct OutOfBandListingError: Error, Sendable, Hashable, CustomStringConvertible {
  var reason: String
  var description: String { "oobCodes listing: \(reason)" }
}
