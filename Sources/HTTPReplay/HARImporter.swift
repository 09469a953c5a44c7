import BackendHTTP
import Foundation

/// Turns a HAR export (browser dev tools, HTTP debuggers) into a redacted cassette, for
/// `baas cassette import FILE.har`.
public enum HARImporter {
  /// Imports `data` (a HAR 1.1/1.2 file; unknown fields ignored).
  ///
  /// Every entry with an `http`/`https` URL is kept, redacted with `rules` (one alias table
  /// for the whole file); cookies, HTTP/2 pseudo-headers and response headers outside the
  /// allow-list are dropped. An existing `_replay` block supplies backend, contract, seed
  /// and variables; otherwise the parameters do. The clock is the `_replay` clock, else the
  /// first entry's `startedDateTime`, else 1970-01-01.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` for a file that is not HAR;
  ///   ``CassetteError/leakDetected(_:)`` when a secret or secret shape survives redaction.
  public static func importHAR(
    data: Data, rules: RedactionRules = .standard, secrets: [String],
    backend: String = "imported", contract: String = "imported",
    provenance: Provenance.Kind = .live, source: String? = nil
  ) throws -> Cassette {
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
    let redactor = Redactor(rules: rules)
    var entries: [HAREntry] = []
    for (index, entry) in log.entries.enumerated() {
      let scheme = URL(string: entry.request.url)?.scheme?.lowercased()
      guard scheme == "http" || scheme == "https" else { continue }
      let request = redactor.redact(try entry.httpRequest(index: index))
      let response = redactor.redact(try entry.httpResponse(index: index))
      let startedAt = ISO8601.date(from: entry.startedDateTime) ?? clock
      entries.append(
        HAREntry(
          Interaction(request: request, response: response), startedAt: startedAt,
          order: entries.count))
    }
    let metadata = ReplayMetadata(
      backend: existing?.backend ?? backend, contract: existing?.contract ?? contract,
      clock: clock, seed: existing?.seed ?? 0,
      variables: (existing?.variables ?? [:]).mapValues { redactor.redactValue($0) },
      rules: rules,
      provenance: existing?.provenance
        ?? Provenance(kind: provenance, source: source, recordedAt: clock))
    let cassette = Cassette(metadata: metadata, entries: entries)
    let findings = LeakScanner.scan(try cassette.encoded(), secrets: secrets)
    guard findings.isEmpty else { throw CassetteError.leakDetected(findings) }
    return cassette
  }
}
