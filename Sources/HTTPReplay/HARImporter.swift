import BackendHTTP
import Foundation

/// Turns a HAR export (browser dev tools, HTTP debuggers) into a redacted cassette, for
/// `baas cassette import FILE.har`.
public enum HARImporter {
  /// The hosts of each service's API, for ``importHAR(data:rules:secrets:backend:contract:provenance:source:allowedHosts:skipped:)``'s
  /// `allowedHosts` (loopback hosts, where emulators listen, are always allowed).
  public static let serviceHosts: [String: Set<String>] = [
    "firebase": [
      "identitytoolkit.googleapis.com", "securetoken.googleapis.com", "firestore.googleapis.com",
    ],
    "ncmb": ["mbaas.api.nifcloud.com"],
  ]

  /// Imports `data` (a HAR 1.1/1.2 file; unknown fields ignored).
  ///
  /// Messages name places in `data` (`log.entries[N]` is the file's entry `N`, also when
  /// entries before it are left out).
  ///
  /// The file is checked first as `cassette lint` checks a cassette (HAR structure; a
  /// `_replay` block is not required): a file without `log.entries` is refused, not turned
  /// into an empty cassette. Every entry with an `http`/`https` URL whose host is allowed is
  /// kept, its bodies decoded (base64, gzip/deflate; the `Content-Encoding` header dropped),
  /// then redacted with `rules` (one alias table for the whole file, so a value a rule marks
  /// as secret anywhere is replaced everywhere, before and after that place); cookies, HTTP/2
  /// pseudo-headers and response headers outside the allow-list are dropped, and so are the
  /// parts a cassette never holds (``NeverStoredParts``: URL user information and fragments,
  /// `Proxy-Authorization`): dropped, not refused, since a browser export often has them on
  /// every entry and the rest of the request is complete without them. An existing
  /// `_replay` block supplies backend, contract, seed and variables; otherwise the
  /// parameters do. The clock is the `_replay` clock, else the first entry's
  /// `startedDateTime`, else 1970-01-01. The result passes `cassette lint`.
  /// - Parameters:
  ///   - allowedHosts: the hosts whose traffic belongs in the cassette (compared
  ///     case-insensitively; loopback hosts always pass); `nil` keeps every host. Entries
  ///     to other hosts are left out and passed to `skipped` (entry index, host): the
  ///     rules only know the named service's secrets, so other traffic is never stored.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` for a file that is not HAR, has
  ///   no entries (or none for an allowed host), has a body in a content coding that
  ///   cannot be decoded, or bodies that decode past ``DecodedSizeBudget`` (10 MiB per
  ///   body, 64 MiB per file, checked before any redaction); a header field or status
  ///   replay could not honour (HTTP tokens, no CR/LF/NUL, 100…599); ``CassetteError/leakDetected(_:)`` or
  ///   ``CassetteError/lintFailed(_:)`` when a secret or secret shape survives redaction.
  public static func importHAR(
    data: Data, rules: RedactionRules = .standard, secrets: [String],
    backend: String = "imported", contract: String = "imported",
    provenance: Provenance.Kind = .live, source: String? = nil,
    allowedHosts: Set<String>? = nil, skipped: ((Int, String) -> Void)? = nil
  ) throws -> Cassette {
    try validate(data)
    struct File: Decodable { var log: HARLog }
    let log: HARLog
    do {
      log = try JSONDecoder().decode(File.self, from: data).log
    } catch let error as DecodingError {
      throw CassetteError.malformed(field: error.fieldPath, reason: error.reason)
    } catch {
      throw CassetteError.malformed(field: "log", reason: "not JSON")
    }
    let existing = log.replay
    let clock =
      existing.flatMap { ISO8601.date(from: $0.clock) }
      ?? log.entries.lazy.compactMap { ISO8601.date(from: $0.startedDateTime) }.first
      ?? Date(timeIntervalSince1970: 0)
    let allowed = allowedHosts.map { Set($0.map { $0.lowercased() }) }
    let redactor = Redactor(rules: rules)
    var kept: [(request: HTTPRequest, response: HTTPResponse, startedAt: Date)] = []
    // The index in the file of each kept entry: messages name the file the user has.
    var fileIndex: [Int] = []
    // Every kept body is decoded and counted before anything is redacted or scanned.
    var budget = DecodedSizeBudget()
    for (index, entry) in log.entries.enumerated() {
      let url = URL(string: entry.request.url)
      let scheme = url?.scheme?.lowercased()
      guard scheme == "http" || scheme == "https" else { continue }
      let host = url?.host?.lowercased() ?? ""
      if let allowed, !allowed.contains(host), !URLLoaderSupport.isLoopback(host: host) {
        skipped?(index, host)
        continue
      }
      let request = try decoded(
        try entry.httpRequest(index: index), index: index, budget: &budget)
      let response = try decoded(
        try entry.httpResponse(index: index), index: index, budget: &budget)
      kept.append((request, response, ISO8601.date(from: entry.startedDateTime) ?? clock))
      fileIndex.append(index)
    }
    // Two passes over one alias table. The redactor replaces a value wherever it appears
    // only once a rule has aliased it, so the first pass meets every value a rule names and
    // the second writes the entries: a secret is replaced everywhere in the file, also
    // where it came before the header, field or parameter that marks it (an earlier entry,
    // or the URL and request of the entry whose response names it).
    for item in kept {
      _ = redactor.redact(item.request)
      _ = redactor.redact(item.response)
    }
    let entries = kept.enumerated().map { order, item in
      HAREntry(
        Interaction(
          request: redactor.redact(item.request), response: redactor.redact(item.response)),
        startedAt: item.startedAt, order: order)
    }
    guard !entries.isEmpty else {
      throw CassetteError.malformed(
        field: CassetteLocation.entries,
        reason: allowed == nil
          ? "no http(s) entries" : "no entries for the backend's hosts; nothing to import")
    }
    let metadata = ReplayMetadata(
      backend: existing?.backend ?? backend, contract: existing?.contract ?? contract,
      clock: clock, seed: existing?.seed ?? 0,
      variables: (existing?.variables ?? [:]).mapValues { redactor.redactValue($0) },
      rules: rules,
      provenance: existing?.provenance
        ?? Provenance(kind: provenance, source: source, recordedAt: clock))
    let cassette = Cassette(metadata: metadata, entries: entries)
    do {
      _ = try cassette.checkedData(secrets: secrets)
    } catch CassetteError.lintFailed(let findings) {
      // Findings name the cassette's entries; the user has the file, where entries left
      // out come in between.
      throw CassetteError.lintFailed(
        findings.map { finding in
          CassetteLocation.renumberingEntries(in: finding) {
            fileIndex.indices.contains($0) ? fileIndex[$0] : $0
          }
        })
    }
    return cassette
  }

  /// The HAR structure `cassette lint` checks, minus what only cassettes have (`_replay`;
  /// HAR 1.1 is accepted too), for the log and every entry the import keeps.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` naming the first problem.
  static func validate(_ data: Data) throws {
    guard let object = try? JSONSerialization.jsonObject(with: data) else {
      throw CassetteError.malformed(field: "log", reason: "not JSON")
    }
    if let path = JSONRepeatedKeys.first(in: data) {
      throw CassetteError.malformed(field: path, reason: JSONRepeatedKeys.reason)
    }
    let log = (object as? [String: Any])?["log"] as? [String: Any]
    // Entries the import skips (data:, blob:, chrome-extension: URLs) are not checked.
    let skipped = (log?["entries"] as? [Any] ?? []).enumerated().compactMap { index, item in
      let url = ((item as? [String: Any])?["request"] as? [String: Any])?["url"] as? String
      let scheme = url.flatMap { URL(string: $0)?.scheme?.lowercased() }
      return scheme == "http" || scheme == "https" ? nil : CassetteLocation.entry(index)
    }
    let problems = HARSchema.problems(in: object).filter { problem in
      !problem.path.hasPrefix("log._replay")
        && !(problem.path == "log.version" && log?["version"] as? String == "1.1")
        && !skipped.contains { problem.path == $0 || problem.path.hasPrefix($0 + ".") }
    }
    if let first = problems.first {
      throw CassetteError.malformed(field: first.path, reason: first.message)
    }
  }

  /// `request` with its body decoded from its content codings, counted in `budget`.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` when a coding cannot be undone
  ///   or the body does not fit (``DecodedSizeBudget``).
  static func decoded(
    _ request: HTTPRequest, index: Int, budget: inout DecodedSizeBudget
  ) throws -> HTTPRequest {
    var result = request
    do {
      (result.body, result.headerFields) = try budget.decode(
        request.body, fields: request.headerFields)
    } catch {
      throw CassetteError.malformed(
        field: CassetteLocation.entry(index, "request.postData"), reason: error.description)
    }
    return result
  }

  /// `response` with its body decoded from its content codings, counted in `budget`.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` when a coding cannot be undone
  ///   or the body does not fit (``DecodedSizeBudget``).
  static func decoded(
    _ response: HTTPResponse, index: Int, budget: inout DecodedSizeBudget
  ) throws -> HTTPResponse {
    var result = response
    do {
      (result.body, result.headerFields) = try budget.decode(
        response.body, fields: response.headerFields)
    } catch {
      throw CassetteError.malformed(
        field: CassetteLocation.entry(index, "response.content"), reason: error.description)
    }
    return result
  }
}

extension Character {
  /// `0` to `9` only (not other scripts' digits).
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
