import BackendHTTP
import Foundation
import UserBackendKit

/// The last requests the emulator served, for its web page: a ring buffer of at most
/// ``capacity`` entries (the oldest is dropped), thread-safe.
///
/// An entry keeps the method, the path with every query value replaced by `<redacted>`
/// (names kept: `?key=<redacted>`; a bare item `?x` and path parameters `;x` redacted
/// whole), the status, the duration and the protocol. It never
/// keeps a header field or a body, so API keys, ID tokens, refresh tokens, session tokens,
/// passwords and codes sent in them are never stored; the ones sent in the query are
/// redacted before the entry is made. Paths are cut to ``maximumPathLength`` characters.
public final class EmulatorRequestLog: Sendable {
  /// Which of the emulator's interfaces a request used.
  public enum WireProtocol: String, Sendable, Hashable, CaseIterable {
    /// Firebase Authentication REST (Identity Toolkit, Secure Token).
    case firebase
    /// The NCMB REST API (`/2013-09-01/…`).
    case ncmb
    /// The Firestore REST API (`/v1/projects/{id}/databases/…`).
    case firestore
    /// The page, the emulator-only endpoints and admin calls (`Bearer owner`).
    case admin
  }

  /// One served request.
  public struct Entry: Sendable, Hashable {
    /// Increases by one per request, from 1.
    public var sequence: Int
    /// When the answer was ready (wall clock).
    public var time: Date
    /// The method, e.g. `POST`.
    public var method: String
    /// The path and query as received, every query value `<redacted>`.
    public var path: String
    /// The answer's status code.
    public var status: Int
    /// How long the emulator took to answer, in milliseconds.
    public var durationMilliseconds: Double
    /// The interface used.
    public var wireProtocol: WireProtocol
  }

  /// The most entries kept (200 unless given).
  public let capacity: Int
  /// The longest path kept, in characters; longer ones end with `…`.
  public static let maximumPathLength = 512
  private let state: LockedValue<Ring>

  /// An empty log keeping at most `capacity` entries (at least 1).
  public init(capacity: Int = 200) {
    self.capacity = max(1, capacity)
    state = LockedValue(Ring())
  }

  /// Adds an entry for `request`, answered with `status` after `duration`.
  public func record(
    _ request: HTTPRequest, status: Int, duration: Duration, wireProtocol: WireProtocol
  ) {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    let path = Self.redactedPath(request)
    let method = String(request.method.rawValue.prefix(16))
    let now = Date()
    state.withLock { ring in
      ring.counter += 1
      let entry = Entry(
        sequence: ring.counter, time: now, method: method, path: path, status: status,
        durationMilliseconds: (milliseconds * 10).rounded() / 10, wireProtocol: wireProtocol)
      if ring.entries.count < capacity {
        ring.entries.append(entry)
      } else {
        ring.entries[ring.next] = entry
      }
      ring.next = (ring.next + 1) % capacity
    }
  }

  /// The entries, newest first.
  public var entries: [Entry] {
    state.withLock { ring in
      guard ring.entries.count == capacity else { return ring.entries.reversed() }
      return Array((ring.entries[ring.next...] + ring.entries[..<ring.next]).reversed())
    }
  }

  /// Forgets every entry (the sequence numbers go on).
  public func removeAll() {
    state.withLock { ring in
      ring.entries.removeAll()
      ring.next = 0
    }
  }

  /// The request's raw path, and its query with every value replaced by `<redacted>`;
  /// a bare query item and a path segment's parameters (`;…`) are redacted whole
  /// (``BackendHTTP/LoggedRequestTarget``): what cannot be read as `name=value` could be a
  /// secret.
  static func redactedPath(_ request: HTTPRequest) -> String {
    var path = LoggedRequestTarget.path(request.rawPath.isEmpty ? "/" : request.rawPath)
    if let query = request.rawQuery { path += "?" + LoggedRequestTarget.query(query) }
    guard path.count > maximumPathLength else { return path }
    return String(path.prefix(maximumPathLength - 1)) + "…"
  }

  /// The protocol of `request`, by path: NCMB's `/2013-09-01/` segment, Firestore's
  /// `/databases/` resource, the page and emulator-only paths or admin rights, else Firebase.
  static func wireProtocol(of request: HTTPRequest) -> WireProtocol {
    let path = request.decodedPath
    if NCMBHandler.handles(request) { return .ncmb }
    if path.contains("/databases/") || path.hasPrefix("/google.firestore.") { return .firestore }
    if LoopbackGuard.isGuarded(request) { return .admin }
    return .firebase
  }

  /// The JSON of `GET /emulator/v1/projects/{id}/requests`:
  /// `{"requests":[{"sequence","time","method","path","status","durationMs","protocol"}]}`,
  /// newest first, `time` in ISO 8601 with milliseconds (UTC).
  var json: [String: Any] {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return [
      "capacity": capacity,
      "requests": entries.map { entry -> [String: Any] in
        [
          "sequence": entry.sequence, "time": formatter.string(from: entry.time),
          "method": entry.method, "path": entry.path, "status": entry.status,
          "durationMs": entry.durationMilliseconds, "protocol": entry.wireProtocol.rawValue,
        ]
      },
    ]
  }

  private struct Ring {
    var entries: [Entry] = []
    var next = 0
    var counter = 0
  }
}
