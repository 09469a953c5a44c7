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
/// A body refused for passing the per-body cap was decoded that far before the refusal:
/// those bytes are taken from the file's budget too, so a file of many such bodies costs
/// what one loadable cassette costs, not 10 MiB per entry.
///
/// Every place that decodes a file's bodies counts them here: import
/// (``HARImporter``), lint (``DecodedSizeSurvey``, before ``CassetteLinter`` scans) and
/// load and replay (``Cassette/decode(_:)``, ``Cassette/interactions()``). Recording
/// decodes one live answer at a time (each already capped by the transport) and
/// ``Cassette/checkedData(secrets:)`` refuses to write a file larger than the loader reads.
struct DecodedSizeBudget {
  /// The decoded bytes of all bodies of one file: 64 MiB.
  static let perFile = BoundedFileRead.largeFileLimit

  /// Bytes left.
  private(set) var remaining = perFile

  /// Bytes decoded so far, those of refused bodies included (each charged the limit it
  /// passed): the work the file has cost.
  var spent: Int { Self.perFile - remaining }

  /// `body` with its content codings undone (``ContentCoding/decoded(_:fields:limit:)``),
  /// its decoded size taken from the budget; a body refused for its size is charged the
  /// limit it was decoded to.
  /// - Throws: ``ContentCoding/Failure``; ``ContentCoding/Failure/fileTooLarge`` when the
  ///   file's bodies pass ``perFile`` with this one.
  mutating func decode(_ body: Data, fields: HTTPFields) throws(ContentCoding.Failure) -> (
    Data, HTTPFields
  ) {
    let perBody = ContentCoding.maximumDecodedSize
    let limit = min(perBody, remaining)
    guard limit > 0 || body.isEmpty else { throw .fileTooLarge }
    let result: (Data, HTTPFields)
    do throws(ContentCoding.Failure) {
      result = try ContentCoding.decoded(body, fields: fields, limit: limit)
    } catch {
      guard case .tooLarge(let coding) = error else { throw error }
      // Decoding stopped only once it passed `limit`: those bytes were decoded.
      remaining -= limit
      throw limit < perBody ? .fileTooLarge : .tooLarge(coding)
    }
    guard result.0.count <= remaining else {
      remaining = 0
      throw .fileTooLarge
    }
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
      let bodies = [
        (
          request?.text, request?.encoding, entry.request.headers,
          CassetteLocation.entry(index, "request.postData")
        ),
        (
          entry.response.content.text, entry.response.content.encoding,
          entry.response.headers, CassetteLocation.entry(index, "response.content")
        ),
      ]
      for (text, encoding, headers, field) in bodies {
        do throws(ContentCoding.Failure) {
          try budget.count(text: text, encoding: encoding, headers: headers)
        } catch {
          throw .malformed(field: field, reason: error.description)
        }
      }
    }
  }

  /// Takes one stored body's decoded size from the budget.
  /// - Throws: ``ContentCoding/Failure/tooLarge(_:)`` or
  ///   ``ContentCoding/Failure/fileTooLarge``; an unsupported or corrupt coding is left to
  ///   the places that read the body (the leak scan and the importer report it).
  mutating func count(
    text: String?, encoding: String?, headers: [HARNameValue]
  ) throws(ContentCoding.Failure) {
    guard let text, !text.isEmpty else { return }
    var fields = HTTPFields()
    for header in headers { fields.append(name: header.name, value: header.value) }
    let isBase64 = encoding?.lowercased() == "base64"
    guard isBase64 || fields.contains("Content-Encoding") else {
      // Stored text: its bytes are what the checks read.
      guard text.utf8.count <= remaining else {
        remaining = 0
        throw .fileTooLarge
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
      case .fileTooLarge, .tooLarge: throw error
      case .unsupported, .corrupt: break
      }
    }
  }
}
