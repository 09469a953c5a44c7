import Foundation
import UserBackendKit

/// The cassette's `log._replay` block (docs/cassettes.md §3;
/// docs/ARCHITECTURE.md "Contracts and recordings"): what was recorded, how, and from where.
public struct ReplayMetadata: Codable, Sendable, Hashable {
  /// The cassette format version this library writes: 1.
  public static let currentFormat = 1

  /// The format version (`1`).
  public var format: Int
  /// The backend, e.g. `"firebase"` or `"ncmb"`.
  public var backend: String
  /// The contract (scenario) name, e.g. `"sign-up-then-sign-in"`.
  public var contract: String
  /// The clock the recording ran at, ISO 8601 (`2026-01-01T00:00:00.000Z`); replay starts a
  /// `ManualClock` here.
  public var clock: String
  /// The seed for the run's random values (written as a decimal string so JSON readers
  /// that use doubles keep every bit).
  public var seed: UInt64
  /// The per-run variables (`email`, …) as used, with secret values already aliased.
  public var variables: [String: String]
  /// The redaction and matching rules applied; replay applies them to live requests.
  public var rules: RedactionRules
  /// Where the interactions came from.
  public var provenance: Provenance

  /// A replay block.
  public init(
    format: Int = ReplayMetadata.currentFormat, backend: String, contract: String, clock: Date,
    seed: UInt64, variables: [String: String] = [:], rules: RedactionRules,
    provenance: Provenance
  ) {
    self.format = format
    self.backend = backend
    self.contract = contract
    self.clock = ISO8601.string(from: clock)
    self.seed = seed
    self.variables = variables
    self.rules = rules
    self.provenance = provenance
  }

  enum CodingKeys: String, CodingKey {
    case format, backend, contract, clock, seed, variables, rules, provenance
  }

  /// Decodes; `seed` may be a decimal string or a number.
  /// - Throws: `DecodingError` naming the missing or mistyped field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    format = try c.decode(Int.self, forKey: .format)
    backend = try c.decode(String.self, forKey: .backend)
    contract = try c.decode(String.self, forKey: .contract)
    clock = try c.decode(String.self, forKey: .clock)
    if let text = try? c.decode(String.self, forKey: .seed) {
      guard let value = DecimalText.wholeNumber(text, as: UInt64.self) else {
        throw DecodingError.dataCorruptedError(
          forKey: .seed, in: c, debugDescription: "_replay.seed is not a decimal UInt64")
      }
      seed = value
    } else {
      seed = try c.decode(UInt64.self, forKey: .seed)
    }
    variables = try c.decodeIfPresent([String: String].self, forKey: .variables) ?? [:]
    rules = try c.decodeIfPresent(RedactionRules.self, forKey: .rules) ?? RedactionRules()
    provenance = try c.decode(Provenance.self, forKey: .provenance)
  }

  /// Encodes every field; `seed` as a decimal string.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(format, forKey: .format)
    try c.encode(backend, forKey: .backend)
    try c.encode(contract, forKey: .contract)
    try c.encode(clock, forKey: .clock)
    try c.encode(String(seed), forKey: .seed)
    try c.encode(variables, forKey: .variables)
    try c.encode(rules, forKey: .rules)
    try c.encode(provenance, forKey: .provenance)
  }
}

/// Where a cassette's interactions came from (`_replay.provenance`).
public struct Provenance: Codable, Sendable, Hashable {
  /// The kind of source.
  public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
    /// Recorded against the real service.
    case live
    /// Recorded against the local emulator.
    case emulator
    /// Written from the service's documentation (`source` links it).
    case documented
  }

  /// The kind of source.
  public var kind: Kind
  /// A link to the source (documentation page, service URL), if any.
  public var source: String?
  /// When it was recorded, ISO 8601.
  public var recordedAt: String

  /// A provenance record.
  public init(kind: Kind, source: String? = nil, recordedAt: Date) {
    self.kind = kind
    self.source = source
    self.recordedAt = ISO8601.string(from: recordedAt)
  }
}

/// ISO 8601 timestamps as cassettes write them: UTC with milliseconds
/// (`2026-01-01T00:00:00.000Z`); reading also accepts whole seconds and offsets.
public enum ISO8601 {
  /// Formats `date` as `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
  public static func string(from date: Date) -> String {
    date.formatted(
      Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
  }

  /// Parses an ISO 8601 date-time with or without fractional seconds; `nil` if malformed.
  public static func date(from text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
      return date
    }
    return try? Date.ISO8601FormatStyle().parse(text)
  }
}
