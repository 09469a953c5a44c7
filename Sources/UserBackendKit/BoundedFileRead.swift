import Foundation

/// Reads a whole file whose size someone else controls (a contract, a cassette, a HAR
/// export, a configuration file) without reading past a limit: a file of gigabytes, or
/// `/dev/zero`, is refused after `limit + 1` bytes instead of filling memory.
package enum BoundedFileRead {
  /// The file is larger than the limit. The description names the path and the limit.
  package struct TooLarge: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    package var path: String
    /// The limit in bytes.
    package var limit: Int
    /// `"<path> is larger than <limit> bytes"`.
    package var description: String { "\(path) is larger than \(limit) bytes" }
  }

  /// 1 MiB: the limit for contract and configuration files.
  package static let smallFileLimit = 1 << 20
  /// 64 MiB: the limit for cassettes and HAR exports.
  package static let largeFileLimit = 64 << 20

  /// The file's bytes, at most `limit` of them.
  /// - Throws: ``TooLarge`` when the file holds more than `limit` bytes; the file
  ///   system's error when it cannot be opened or read.
  package static func data(contentsOf url: URL, limit: Int) throws -> Data {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    let data = try handle.read(upToCount: limit + 1) ?? Data()
    guard data.count <= limit else { throw TooLarge(path: url.path, limit: limit) }
    return data
  }
}
