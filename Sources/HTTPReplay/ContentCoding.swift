import BackendHTTP
import CZlib
import Foundation

/// HTTP content codings (`Content-Encoding: gzip`, `deflate`) for redaction and leak scans:
/// secrets inside a compressed body are only visible once it is decoded, so cassettes store
/// bodies decoded, with `Content-Encoding` and `Content-Length` removed.
///
/// Foundation on Linux has no decompression API, so this wraps zlib (`CZlib`). Output is
/// capped at ``maximumDecodedSize`` so a small "zip bomb" cannot exhaust memory; a whole
/// file's bodies are capped in total by ``DecodedSizeBudget``.
package enum ContentCoding {
  /// The largest decoded body accepted: 10 MiB, the largest answer body the network
  /// transports read (`URLSessionTransport.standardMaximumResponseBodyBytes`). A recording
  /// never holds more, so a larger body is not traffic this library could have had.
  static let maximumDecodedSize = URLSessionTransport.standardMaximumResponseBodyBytes

  /// Why a body could not be decoded.
  enum Failure: Error, Equatable, CustomStringConvertible {
    /// A coding other than `gzip`, `x-gzip`, `deflate` or `identity` (e.g. `br`).
    case unsupported(String)
    /// The bytes are not valid data in that coding.
    case corrupt(String)
    /// Decoding would exceed ``maximumDecodedSize``.
    case tooLarge(String)
    /// Decoding would take the file's bodies past ``DecodedSizeBudget/perFile`` in total.
    case fileTooLarge

    var description: String {
      switch self {
      case .unsupported(let coding):
        "content coding \"\(coding)\" is not supported (only gzip and deflate); export the "
          + "HAR with decoded bodies"
      case .corrupt(let coding): "the body is not valid \(coding) data"
      case .tooLarge(let coding):
        "the \(coding) body decodes to more than \(maximumDecodedSize >> 20) MiB, the "
          + "largest answer a transport reads"
      case .fileTooLarge:
        "the bodies of the file decode to more than \(DecodedSizeBudget.perFile >> 20) MiB "
          + "in total, the largest cassette the loader reads; nothing was scanned"
      }
    }
  }

  /// The codings listed in `Content-Encoding` (lower-cased, in the order applied), without
  /// `identity`.
  static func codings(_ fields: HTTPFields) -> [String] {
    fields.values(for: "Content-Encoding")
      .flatMap { $0.split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      .filter { !$0.isEmpty && $0 != "identity" }
  }

  /// `body` with every listed coding undone, and `fields` without `Content-Encoding` and
  /// `Content-Length` (which describe the encoded bytes). A body that is not encoded is
  /// returned unchanged.
  ///
  /// A body labelled gzip/deflate that is already decoded (some clients, URLSession among
  /// them, decode but keep the header) is recognised as UTF-8 text and kept as is.
  /// - Parameter limit: the most bytes decoding may produce (``maximumDecodedSize``, or
  ///   less when a file's budget has less left).
  /// - Throws: ``Failure`` when a coding is unsupported, the bytes do not decode, or they
  ///   decode past `limit` (``Failure/tooLarge(_:)``).
  static func decoded(
    _ body: Data, fields: HTTPFields, limit: Int = maximumDecodedSize
  ) throws(Failure) -> (Data, HTTPFields) {
    let codings = codings(fields)
    var fields = fields
    guard !codings.isEmpty || fields.contains("Content-Encoding") else { return (body, fields) }
    var data = body
    for coding in codings.reversed() where !data.isEmpty {
      switch coding {
      case "gzip", "x-gzip", "deflate":
        do {
          data = try inflate(data, coding: coding, limit: limit)
        } catch let failure {
          if case .corrupt = failure, codings.count == 1, looksDecoded(data) { break }
          throw failure
        }
      default: throw .unsupported(coding)
      }
    }
    fields.remove("Content-Encoding")
    fields.remove("Content-Length")
    return (data, fields)
  }

  /// `true` for UTF-8 text that starts like JSON, a form or plain text (no control bytes
  /// but whitespace): a body some client already decoded.
  private static func looksDecoded(_ data: Data) -> Bool {
    guard let text = String(data: data, encoding: .utf8) else { return false }
    return !text.unicodeScalars.contains {
      $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0)
    }
  }

  /// Inflates gzip (`windowBits` 15+16), zlib-wrapped deflate (15) or raw deflate (-15, which
  /// some servers send as `deflate`).
  static func inflate(
    _ data: Data, coding: String, limit: Int = maximumDecodedSize
  ) throws(Failure) -> Data {
    let attempts: [Int32] = coding == "deflate" ? [15, -15] : [15 + 16]
    for windowBits in attempts {
      switch inflate(data, windowBits: windowBits, limit: limit) {
      case .success(let output): return output
      case .failure(.tooLarge): throw .tooLarge(coding)
      case .failure: continue
      }
    }
    throw .corrupt(coding)
  }

  private enum InflateError: Error { case corrupt, tooLarge }

  private static func inflate(
    _ data: Data, windowBits: Int32, limit: Int
  ) -> Result<Data, InflateError> {
    var stream = z_stream()
    guard
      inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else { return .failure(.corrupt) }
    defer { inflateEnd(&stream) }
    var input = [UInt8](data)
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var status: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { inputBuffer in
      stream.next_in = inputBuffer.baseAddress
      stream.avail_in = uInt(inputBuffer.count)
      repeat {
        chunk.withUnsafeMutableBufferPointer { chunkBuffer in
          stream.next_out = chunkBuffer.baseAddress
          stream.avail_out = uInt(chunkBuffer.count)
          status = CZlib.inflate(&stream, Z_NO_FLUSH)
          let produced = chunkBuffer.count - Int(stream.avail_out)
          output.append(chunkBuffer.baseAddress!, count: produced)
        }
        // gzip allows several members one after another (gunzip decodes them all); a
        // scan that stopped after the first would miss what the others hold.
        if status == Z_STREAM_END, stream.avail_in > 0, windowBits > 15 {
          status = inflateReset(&stream)
        }
      } while status == Z_OK && output.count <= limit
        && (stream.avail_in > 0 || stream.avail_out == 0)
    }
    if output.count > limit { return .failure(.tooLarge) }
    // Bytes after the end of the data (not another gzip member) are refused, not ignored.
    guard status == Z_STREAM_END, stream.avail_in == 0 else { return .failure(.corrupt) }
    return .success(output)
  }

  /// `data` compressed as gzip (`"gzip"`) or zlib-wrapped deflate (`"deflate"`), for tests
  /// and tools that build encoded fixtures.
  package static func encode(_ data: Data, coding: String) -> Data {
    var stream = z_stream()
    let windowBits: Int32 = coding == "deflate" ? 15 : 15 + 16
    guard
      deflateInit2_(
        &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY,
        zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { return Data() }
    defer { deflateEnd(&stream) }
    var input = [UInt8](data)
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    input.withUnsafeMutableBufferPointer { inputBuffer in
      stream.next_in = inputBuffer.baseAddress
      stream.avail_in = uInt(inputBuffer.count)
      var status: Int32 = Z_OK
      repeat {
        chunk.withUnsafeMutableBufferPointer { chunkBuffer in
          stream.next_out = chunkBuffer.baseAddress
          stream.avail_out = uInt(chunkBuffer.count)
          status = deflate(&stream, Z_FINISH)
          output.append(chunkBuffer.baseAddress!, count: chunkBuffer.count - Int(stream.avail_out))
        }
      } while status == Z_OK
    }
    return output
  }
}
