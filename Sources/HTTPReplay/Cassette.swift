import Foundation
import UserBackendKit

/// A recorded HTTP session: an HTTP Archive (HAR 1.2) file with a `log._replay` block
/// (docs/cassettes.md §1–§3; docs/ARCHITECTURE.md "Contracts and recordings"). One file
/// per (backend, contract): `Recordings/<backend>/<contract>.har`.
///
/// Writing is deterministic (sorted keys, pretty printed, entries in recording order), so
/// re-recording the same session produces a small diff; every write runs ``LeakScanner``
/// first and refuses on a hit.
public struct Cassette: Codable, Sendable, Hashable {
  /// The name written to `log.creator.name`.
  public static let creatorName = "UserBackendKit-HTTPReplay"

  /// The `_replay` block.
  public var metadata: ReplayMetadata
  /// The interactions (already redacted), in recording order.
  public var entries: [HAREntry]
  /// `log.creator`.
  public var creator: HARCreator

  /// A cassette.
  public init(
    metadata: ReplayMetadata, entries: [HAREntry] = [],
    creator: HARCreator = HARCreator(name: Cassette.creatorName, version: "1")
  ) {
    self.metadata = metadata
    self.entries = entries
    self.creator = creator
  }

  /// The recording clock (`_replay.clock`); replay harnesses start a `ManualClock` here.
  /// Reads as 1970-01-01 if the stored text is not ISO 8601 (``load(from:)`` rejects that).
  public var clock: Date {
    get { ISO8601.date(from: metadata.clock) ?? Date(timeIntervalSince1970: 0) }
    set { metadata.clock = ISO8601.string(from: newValue) }
  }

  /// A stopped clock at ``clock``, for the backend under replay.
  public func makeClock() -> ManualClock { ManualClock(clock) }

  /// The seed for the run's random values (`_replay.seed`).
  public var seed: UInt64 {
    get { metadata.seed }
    set { metadata.seed = newValue }
  }

  /// The per-run variables as recorded (`_replay.variables`).
  public var variables: [String: String] {
    get { metadata.variables }
    set { metadata.variables = newValue }
  }

  /// The redaction and matching rules (`_replay.rules`).
  public var rules: RedactionRules {
    get { metadata.rules }
    set { metadata.rules = newValue }
  }

  /// The interactions as request/response values.
  /// - Throws: ``CassetteError/malformed(field:reason:)``: also for a status, method or
  ///   header field replay cannot hand to a client (``ReplayableFields``) and for bodies
  ///   that decode past 10 MiB each or 64 MiB in total (``DecodedSizeBudget``), checked
  ///   before any body is decoded for use.
  public func interactions() throws -> [Interaction] {
    try checkReplayable()
    return try entries.enumerated().map { index, entry in
      Interaction(
        request: try entry.httpRequest(index: index),
        response: try entry.httpResponse(index: index))
    }
  }

  enum CodingKeys: String, CodingKey { case log }

  /// Decodes `{"log": {...}}`.
  /// - Throws: `DecodingError`, or ``CassetteError/missingReplayBlock``.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let log = try c.decode(HARLog.self, forKey: .log)
    guard let metadata = log.replay else { throw CassetteError.missingReplayBlock }
    self.metadata = metadata
    self.entries = log.entries
    self.creator = log.creator
  }

  /// Encodes `{"log": {version "1.2", creator, entries, _replay}}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(
      HARLog(version: "1.2", creator: creator, entries: entries, replay: metadata), forKey: .log)
  }

  /// Parses cassette JSON and checks what replay needs (``interactions()``); a key repeated
  /// in one object is refused (``JSONRepeatedKeys``).
  /// - Throws: ``CassetteError`` naming the missing or bad field.
  public static func decode(_ data: Data) throws -> Cassette {
    let cassette: Cassette
    do {
      cassette = try JSONDecoder().decode(Cassette.self, from: data)
    } catch let error as CassetteError {
      throw error
    } catch let error as DecodingError {
      throw CassetteError.malformed(field: error.fieldPath, reason: error.reason)
    } catch {
      throw CassetteError.malformed(field: "log", reason: "not JSON")
    }
    if let path = JSONRepeatedKeys.first(in: data) {
      throw CassetteError.malformed(field: path, reason: JSONRepeatedKeys.reason)
    }
    guard cassette.metadata.format <= ReplayMetadata.currentFormat else {
      throw CassetteError.unsupportedFormat(cassette.metadata.format)
    }
    guard ISO8601.date(from: cassette.metadata.clock) != nil else {
      throw CassetteError.malformed(field: "log._replay.clock", reason: "not an ISO 8601 date")
    }
    try cassette.checkReplayable()
    return cassette
  }

  /// The checks of ``interactions()`` that need no body: statuses, methods and header
  /// fields (``ReplayableFields``), then the decoded-size budget (``DecodedSizeBudget``).
  /// - Throws: ``CassetteError/malformed(field:reason:)`` naming the first problem.
  func checkReplayable() throws(CassetteError) {
    for (index, entry) in entries.enumerated() { try entry.checkReplayable(index: index) }
    try DecodedSizeBudget.check(entries)
  }

  /// Loads the cassette at `url`.
  /// - Throws: ``CassetteError/notFound(path:)``, ``CassetteError/unreadable(path:reason:)``
  ///   or the errors of ``decode(_:)``.
  public static func load(from url: URL) throws -> Cassette {
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw CassetteError.notFound(path: url.path)
    }
    let data: Data
    do {
      data = try BoundedFileRead.data(contentsOf: url, limit: BoundedFileRead.largeFileLimit)
    } catch let error as BoundedFileRead.TooLarge {
      throw CassetteError.unreadable(
        path: url.path, reason: "the file is larger than \(error.limit) bytes")
    } catch {
      throw CassetteError.unreadable(path: url.path, reason: "the file could not be read")
    }
    return try decode(data)
  }

  /// The deterministic file bytes: pretty, key-sorted JSON with unescaped slashes and a
  /// trailing newline.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(self)
    data.append(0x0A)
    return data
  }

  /// The encoded bytes after the checks `cassette lint` makes: first the size (no larger
  /// than the loader reads, 64 MiB: a cassette that could not be loaded is never written,
  /// and nothing that large is scanned), then a leak scan of the bytes for `secrets` and
  /// secret shapes, the HAR schema, and the leak scan on decoded values
  /// (``CassetteLinter``).
  /// - Throws: ``CassetteError/tooLarge(size:limit:)``, ``CassetteError/leakDetected(_:)``
  ///   or ``CassetteError/lintFailed(_:)``.
  public func checkedData(secrets: [String]) throws -> Data {
    let data = try encoded()
    guard data.count <= BoundedFileRead.largeFileLimit else {
      throw CassetteError.tooLarge(size: data.count, limit: BoundedFileRead.largeFileLimit)
    }
    let findings = LeakScanner.scan(data, secrets: secrets)
    guard findings.isEmpty else { throw CassetteError.leakDetected(findings) }
    let problems = CassetteLinter.lint(data: data, file: "cassette", secrets: secrets)
    guard problems.isEmpty else {
      throw CassetteError.lintFailed(problems.map { "\($0.location): \($0.message)" })
    }
    return data
  }

  /// Writes the cassette to `url` (creating parent folders) after the checks of
  /// ``checkedData(secrets:)``; the file is replaced atomically.
  /// - Throws: ``CassetteError/tooLarge(size:limit:)``, ``CassetteError/leakDetected(_:)``,
  ///   ``CassetteError/lintFailed(_:)`` (nothing written) or ``CassetteError/writeFailed(path:reason:)`` (any previous file unchanged).
  public func write(to url: URL, secrets: [String]) throws {
    let data = try checkedData(secrets: secrets)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url, options: .atomic)
    } catch {
      throw CassetteError.writeFailed(path: url.path, reason: error.localizedDescription)
    }
  }
}

extension DecodingError {
  /// The coding path as `log.entries[2].request.url`.
  var fieldPath: String {
    let path: [any CodingKey]
    switch self {
    case .keyNotFound(let key, let context): path = context.codingPath + [key]
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      path = context.codingPath
    @unknown default: path = []
    }
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text.isEmpty ? "(root)" : text
  }

  /// The kind of problem, without any value from the file.
  var reason: String {
    switch self {
    case .keyNotFound: "missing"
    case .typeMismatch(let type, _): "expected \(type)"
    case .valueNotFound(let type, _): "expected \(type), found null"
    case .dataCorrupted: "invalid value"
    @unknown default: "invalid"
    }
  }
}
