import BackendHTTP
import Foundation
import UserBackendKit

/// The decoded bytes one HAR file or cassette may hold, counted before anything is scanned
/// or redacted: every check runs on decoded bodies, and a content-coded body is small on
/// the wire for what it decodes to (16 KB of gzip for 16 MiB), so a cap per body alone
/// lets a small file cost minutes.
///
/// - Per body: ``ContentCoding/maximumDecodedSize`` (10 MiB), the largest answer the
///   network transports read; a recording never holds a larger one.
/// - Per file: ``perFile`` (64 MiB), the largest file the loader reads
///   (`BoundedFileRead.largeFileLimit`). A cassette stores its bodies decoded, so a file
///   whose bodies decode past it can never become a cassette that loads: refusing it is
///   exact, not a guess, and it bounds every later pass (redaction, both leak scans) to
///   what a loadable cassette costs anyway.
///
/// Every place that decodes a file's bodies counts them here: import
/// (``HARImporter``), lint (``CassetteLinter``) and load and replay
/// (``Cassette/decode(_:)``, ``Cassette/interactions()``). Recording decodes one live
/// answer at a time (each already capped by the transport) and ``Cassette/checkedData(secrets:)``
/// refuses to write a file larger than the loader reads.
struct DecodedSizeBudget {
  /// The decoded bytes of all bodies of one file: 64 MiB.
  static let perFile = BoundedFileRead.largeFileLimit

  /// Bytes left.
  private(set) var remaining = perFile

  /// `body` with its content codings undone (``ContentCoding/decoded(_:fields:limit:)``),
  /// its decoded size taken from the budget.
  /// - Throws: ``ContentCoding/Failure``; ``ContentCoding/Failure/fileTooLarge`` when the
  ///   file's bodies pass ``perFile`` with this one.
  mutating func decode(_ body: Data, fields: HTTPFields) throws(ContentCoding.Failure) -> (
    Data, HTTPFields
  ) {
    let perBody = ContentCoding.maximumDecodedSize
    let result: (Data, HTTPFields)
    do throws(ContentCoding.Failure) {
      result = try ContentCoding.decoded(body, fields: fields, limit: min(perBody, remaining))
    } catch {
      guard case .tooLarge(let coding) = error else { throw error }
      throw remaining < perBody ? .fileTooLarge : .tooLarge(coding)
    }
    guard result.0.count <= remaining else { throw .fileTooLarge }
    remaining -= result.0.count
    return result
  }

  /// Counts the bodies of `entries` (a loaded cassette: stored text, base64 undone, content
  /// codings undone) without keeping them.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` naming the first body that does
  ///   not fit (a bad coding is left to the places that read the body).
  static func check(_ entries: [HAREntry]) throws(CassetteError) {
    var budget = DecodedSizeBudget()
    for (index, entry) in entries.enumerated() {
      let request = entry.request.postData
      try budget.count(
        text: request?.text, encoding: request?.encoding, headers: entry.request.headers,
        field: "log.entries[\(index)].request.postData")
      try budget.count(
        text: entry.response.content.text, encoding: entry.response.content.encoding,
        headers: entry.response.headers, field: "log.entries[\(index)].response.content")
    }
  }

  /// The body of the parsed HAR `root` that takes the file past ``perFile``, as a field
  /// path and a reason; `nil` when all fit. (A body past the per-body cap or one that
  /// cannot be decoded is left to the leak scan, which reports it and scans the rest.)
  static func firstOverrun(in root: Any) -> (field: String, reason: String)? {
    let log = (root as? [String: Any])?["log"] as? [String: Any]
    var budget = DecodedSizeBudget()
    for (index, item) in (log?["entries"] as? [Any] ?? []).enumerated() {
      let entry = item as? [String: Any]
      let request = entry?["request"] as? [String: Any]
      let response = entry?["response"] as? [String: Any]
      let postData = request?["postData"] as? [String: Any]
      let content = response?["content"] as? [String: Any]
      let bodies: [(String, [String: Any]?, String?, [Any]?)] = [
        (
          "request.postData", postData,
          (postData?["_encoding"] ?? postData?["encoding"]) as? String,
          request?["headers"] as? [Any]
        ),
        (
          "response.content", content, content?["encoding"] as? String,
          response?["headers"] as? [Any]
        ),
      ]
      for (place, body, encoding, headers) in bodies {
        let pairs = (headers ?? []).compactMap { item -> HARNameValue? in
          guard let pair = item as? [String: Any], let name = pair["name"] as? String else {
            return nil
          }
          return HARNameValue(name: name, value: pair["value"] as? String ?? "")
        }
        do throws(CassetteError) {
          try budget.count(
            text: body?["text"] as? String, encoding: encoding, headers: pairs,
            field: "log.entries[\(index)].\(place)")
        } catch {
          if case .malformed(let field, let reason) = error,
            reason == ContentCoding.Failure.fileTooLarge.description
          {
            return (field, reason)
          }
        }
      }
    }
    return nil
  }

  /// Takes one stored body's decoded size from the budget.
  private mutating func count(
    text: String?, encoding: String?, headers: [HARNameValue], field: String
  ) throws(CassetteError) {
    guard let text, !text.isEmpty else { return }
    var fields = HTTPFields()
    for header in headers { fields.append(name: header.name, value: header.value) }
    let isBase64 = encoding?.lowercased() == "base64"
    guard isBase64 || fields.contains("Content-Encoding") else {
      // Stored text: its bytes are what the checks read.
      guard text.utf8.count <= remaining else {
        throw .malformed(field: field, reason: ContentCoding.Failure.fileTooLarge.description)
      }
      remaining -= text.utf8.count
      return
    }
    guard
      let data = isBase64
        ? Data(base64Encoded: text, options: .ignoreUnknownCharacters) : Optional(Data(text.utf8))
    else { return }
    do throws(ContentCoding.Failure) {
      _ = try decode(data, fields: fields)
    } catch {
      switch error {
      case .fileTooLarge, .tooLarge: throw .malformed(field: field, reason: error.description)
      // An unsupported or corrupt coding: the leak scan and the importer report it.
      case .unsupported, .corrupt: break
      }
    }
  }
}
