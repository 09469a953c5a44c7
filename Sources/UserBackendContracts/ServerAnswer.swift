import Foundation
import UserBackendKit

/// What the server answered a request the environment sent itself, past the adapter
/// (`rawGetDocument`): the HTTP status, the protocol's error code and how the wire protocol
/// reads the pair. Never carries the body, a token or a key.
public struct ServerAnswer: Sendable, Hashable, CustomStringConvertible {
  /// How the wire protocol reads an answer to a document read.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The protocol's refusal of a read the caller has no right to: Firestore
    /// `403 PERMISSION_DENIED`; NCMB `404 E404001` (the object hidden by its ACL) or
    /// `403 E403001` (the ACL refused).
    case refused
    /// `200` with the document (Firestore) or the user object (NCMB).
    case served
    /// Anything else: a refused token, a missing document, a server error.
    case other
  }

  /// The protocol's reading of ``status`` and ``code``.
  public var kind: Kind
  /// The HTTP status.
  public var status: Int
  /// The protocol's error code (`PERMISSION_DENIED`, `E404001`), or `nil` (a success, or an
  /// error body without one).
  public var code: String?

  /// An answer.
  public init(kind: Kind, status: Int, code: String? = nil) {
    self.kind = kind
    self.status = status
    self.code = code
  }

  /// `HTTP 404 E404001 (refused)`.
  public var description: String {
    "HTTP \(status)" + (code.map { " " + $0 } ?? "") + " (\(kind.rawValue))"
  }
}
