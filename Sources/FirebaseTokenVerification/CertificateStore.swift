import BackendHTTP
import Foundation
import UserBackendKit

/// The current signing certificates (`kid` -> public key), fetched through an
/// ``HTTPTransport`` and cached until the answer's `Cache-Control: max-age` runs out.
///
/// - However many verifications need certificates at once, one request is sent and all
///   of them wait for it (single-flight).
/// - A `kid` missing from a cached set causes one refetch (Google rotates keys), at most
///   once per ``minimumRefetchInterval`` so tokens with made-up key IDs cannot make this
///   server hammer the endpoint.
/// - An answer without a usable `max-age` (absent, unreadable, or shorter than
///   ``minimumRefetchInterval``) is kept for ``minimumRefetchInterval`` seconds. Decision:
///   the Admin SDKs keep nothing then, which makes every verification one certificate
///   request (and a wait of up to 10 s), so a stream of tokens drives a stream of
///   requests. The floor is the same setting that spaces refetches for unknown key IDs, so
///   a rotated-in key is still found (its unknown `kid` refetches) and a retired key stays
///   trusted at most that long (never more than ``longestFloor``) after it left the
///   document; Google's own answers carry a
///   `max-age` of hours and never meet the floor. A refetch interval of 0 keeps nothing, as
///   before.
/// - A failed fetch is not kept: the next verification tries again. Decision: concurrent
///   verifications already share one request (single flight), so an outage costs one
///   request at a time; keeping the failure would turn a single lost answer into seconds
///   of refused sign-ins.
/// - An entry that is not a usable certificate (not a string, not a PEM X.509
///   certificate of an RSA key of at least ``RS256PublicKey/minimumBits`` bits) is
///   skipped, not cached as a key: it refuses only the tokens whose `kid` names it
///   (`certificatesUnavailable`, naming the kid), so one bad entry among good ones does
///   not stop every verification. Decision: an answer with no usable entry at all is a
///   failed fetch (`certificatesUnavailable`, not kept), like a bad status.
actor CertificateStore {
  /// One fetched set.
  struct Snapshot: Sendable {
    var keys: [String: RS256PublicKey]
    /// The key IDs whose entries were skipped as unusable.
    var unusable: Set<String> = []
    var fetchedAt: Date
    var expiresAt: Date
  }

  /// The longest an answer is kept beyond its own `max-age`, in seconds: a large
  /// ``minimumRefetchInterval`` does not keep a retired key for longer than this.
  static let longestFloor: TimeInterval = 300

  /// The largest certificate document read, in bytes (Google's is about 4 KiB).
  static let maximumBodyBytes = 1 << 20

  let url: URL
  let transport: any HTTPTransport
  let clock: any AuthClock
  let minimumRefetchInterval: TimeInterval

  private var current: Snapshot? {
    didSet { published.withLock { $0 = current } }
  }
  /// ``current``, readable without entering the actor: the fast path of a warm cache.
  private nonisolated let published = LockedValue<Snapshot?>(nil)
  private var pending: Task<Result<Snapshot, TokenRejection>, Never>?

  init(
    url: URL, transport: any HTTPTransport, clock: any AuthClock,
    minimumRefetchInterval: TimeInterval
  ) {
    self.url = url
    self.transport = transport
    self.clock = clock
    self.minimumRefetchInterval = minimumRefetchInterval
  }

  /// The public key for `keyID` from a fresh cached set, without waiting for the actor;
  /// `nil` when the set is missing, expired or lacks `keyID` (then call ``key(for:)``).
  nonisolated func cachedKey(for keyID: String) -> RS256PublicKey? {
    published.withLock { snapshot in
      guard let snapshot, clock.now() < snapshot.expiresAt else { return nil }
      return snapshot.keys[keyID]
    }
  }

  /// The public key for `keyID`.
  /// - Throws: `unknownKeyID` when no current certificate has that ID (after the one
  ///   refetch allowed), `certificatesUnavailable` when they could not be fetched.
  func key(for keyID: String) async throws(TokenRejection) -> RS256PublicKey {
    let now = clock.now()
    var snapshot: Snapshot
    var fetchedNow = false
    if let current, now < current.expiresAt {
      snapshot = current
    } else {
      snapshot = try await refreshed().get()
      fetchedNow = true
    }
    if let key = snapshot.keys[keyID] { return key }
    if !fetchedNow, clock.now().timeIntervalSince(snapshot.fetchedAt) >= minimumRefetchInterval {
      snapshot = try await refreshed().get()
      if let key = snapshot.keys[keyID] { return key }
    }
    if snapshot.unusable.contains(keyID) {
      throw TokenRejection(
        .certificatesUnavailable,
        "the certificate published for kid \(Self.shown(keyID)) is not a PEM X.509 "
          + "certificate of an RSA key of at least \(RS256PublicKey.minimumBits) bits")
    }
    throw TokenRejection(.unknownKeyID, "the header's kid names no current certificate")
  }

  /// A key ID for a message: itself when it is 1…64 printable ASCII characters, else its
  /// length (a token's header chose it).
  static func shown(_ keyID: String) -> String {
    let printable = keyID.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    return printable && keyID.utf8.count <= 64 ? keyID : "(\(keyID.utf8.count) bytes)"
  }

  /// Joins the fetch in flight or starts one; the creator stores the result.
  private func refreshed() async -> Result<Snapshot, TokenRejection> {
    if let pending { return await pending.value }
    let task = Task { await self.download() }
    pending = task
    let result = await task.value
    if case .success(let snapshot) = result { current = snapshot }
    pending = nil
    return result
  }

  /// Sends the request and reads the answer: a JSON object of `kid` -> PEM certificate.
  private func download() async -> Result<Snapshot, TokenRejection> {
    func unavailable(_ detail: String) -> Result<Snapshot, TokenRejection> {
      .failure(TokenRejection(.certificatesUnavailable, detail))
    }
    let response: HTTPResponse
    do {
      response = try await transport.send(HTTPRequest(method: "GET", url: url, timeout: 10))
    } catch {
      return unavailable("fetching the certificates failed: \(error)")
    }
    guard response.isSuccess else {
      return unavailable("the certificate endpoint answered status \(response.status)")
    }
    guard response.body.count <= Self.maximumBodyBytes else {
      return unavailable("the certificate document is larger than \(Self.maximumBodyBytes) bytes")
    }
    guard
      let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
      !object.isEmpty
    else { return unavailable("the certificate document is not a non-empty JSON object") }
    var keys: [String: RS256PublicKey] = [:]
    var unusable: Set<String> = []
    for (keyID, value) in object {
      guard let pem = value as? String, let key = RS256PublicKey(certificatePEM: pem) else {
        unusable.insert(keyID)
        continue
      }
      keys[keyID] = key
    }
    guard !keys.isEmpty else {
      return unavailable(
        "the certificate document holds no PEM X.509 certificate of an RSA key of at least "
          + "\(RS256PublicKey.minimumBits) bits")
    }
    let now = clock.now()
    let maxAge = max(
      Self.maxAge(response.headerFields["Cache-Control"]) ?? 0,
      min(minimumRefetchInterval, Self.longestFloor))
    return .success(
      Snapshot(
        keys: keys, unusable: unusable, fetchedAt: now, expiresAt: now.addingTimeInterval(maxAge))
    )
  }

  /// The `max-age` directive of a `Cache-Control` value in seconds; `nil` when absent or
  /// not a non-negative integer.
  static func maxAge(_ cacheControl: String?) -> TimeInterval? {
    guard let cacheControl else { return nil }
    for directive in cacheControl.split(separator: ",") {
      let parts = directive.split(separator: "=", maxSplits: 1)
      guard parts.count == 2,
        parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "max-age"
      else { continue }
      let value = parts[1].trimmingCharacters(in: .whitespaces)
        .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      // At most a year: a larger value is clamped rather than trusted.
      guard let seconds = DecimalText.wholeNumber(value) else { return nil }
      return TimeInterval(min(seconds, 31_536_000))
    }
    return nil
  }
}
