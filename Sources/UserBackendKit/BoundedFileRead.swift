import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole file whose size someone else controls (a contract, a cassette, a HAR
/// export, a configuration file, a session file) without reading past a limit and without
/// blocking: only a regular file is read. The file is opened with `O_NONBLOCK` (opening a
/// FIFO that has no writer would otherwise wait forever) and checked with `fstat` on the
/// open descriptor (so a symbolic link to `/dev/zero` is judged by what it points at, and
/// nothing can swap the file between the check and the read); a FIFO, a device, a socket
/// or a directory is refused with ``NotRegularFile``. A regular file larger than the
/// limit is refused after `limit + 1` bytes instead of filling memory.
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

  /// The path names something other than a regular file. The description names the path
  /// and what it is.
  package struct NotRegularFile: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    package var path: String
    /// What the path is: `"a FIFO"`, `"a character device"`, `"a directory"`, …
    package var kind: String
    /// `"<path> is not a regular file (it is <kind>)"`.
    package var description: String { "\(path) \(reason)" }
    /// `"is not a regular file (it is <kind>)"`, for messages that name the file first.
    package var reason: String { "is not a regular file (it is \(kind))" }

    /// `kind` is what the path is (``BoundedFileRead/kindName(_:)``).
    package init(path: String, kind: String) {
      self.path = path
      self.kind = kind
    }
  }

  /// The file could not be opened or read. `code` is the `errno`.
  package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    package var path: String
    /// `errno` of the failed call.
    package var code: Int32
    /// `"<path>: <strerror>"`.
    package var description: String { "\(path): \(reason)" }
    /// The `strerror` text.
    package var reason: String { String(cString: strerror(code)) }
  }

  /// The path is a symbolic link, refused by a read that does not follow links.
  package struct SymbolicLink: Error, Sendable, Hashable, CustomStringConvertible {
    /// The link's path.
    package var path: String
    /// `"<path> is a symbolic link"`.
    package var description: String { "\(path) is a symbolic link" }
  }

  /// 1 MiB: the limit for contract and configuration files.
  package static let smallFileLimit = 1 << 20
  /// 64 MiB: the limit for cassettes and HAR exports.
  package static let largeFileLimit = 64 << 20

  /// The file's bytes, at most `limit` of them.
  /// - Throws: ``NotRegularFile`` when the path (after symbolic links) is not a regular
  ///   file; ``TooLarge`` when the file holds more than `limit` bytes; ``Failure`` when it
  ///   cannot be opened or read (`ENOENT` for a missing file); ``SymbolicLink`` when
  ///   `followSymbolicLinks` is `false` and the path is a link; what `check` throws.
  /// - Parameters:
  ///   - followSymbolicLinks: `false` opens with `O_NOFOLLOW`: a link is refused, not
  ///     read (the session file).
  ///   - check: judges the open regular file's `fstat` result (mode, owner) before any
  ///     byte is read.
  package static func data(
    contentsOf url: URL, limit: Int, followSymbolicLinks: Bool = true,
    check: (stat) throws -> Void = { _ in }
  ) throws -> Data {
    let path = url.path
    let noFollow = followSymbolicLinks ? 0 : O_NOFOLLOW
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | noFollow)
    guard descriptor >= 0 else {
      let code = errno
      var link = stat()
      if !followSymbolicLinks, code == ELOOP, lstat(path, &link) == 0,
        link.st_mode & S_IFMT == S_IFLNK
      {
        // A link to a FIFO or a device is reported as such, as when links are followed
        // (`stat` never opens, so it cannot block).
        var target = stat()
        if stat(path, &target) == 0, target.st_mode & S_IFMT != S_IFREG {
          throw NotRegularFile(path: path, kind: kindName(target.st_mode & S_IFMT))
        }
        throw SymbolicLink(path: path)
      }
      throw Failure(path: path, code: code)
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw Failure(path: path, code: errno) }
    let type = status.st_mode & S_IFMT
    guard type == S_IFREG else { throw NotRegularFile(path: path, kind: kindName(type)) }
    try check(status)
    var data = Data()
    let chunk = 64 * 1024
    var buffer = [UInt8](repeating: 0, count: chunk)
    while data.count <= limit {
      let wanted = min(chunk, limit + 1 - data.count)
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(path: path, code: errno)
      }
      if count == 0 { break }
      data.append(contentsOf: buffer[0..<count])
    }
    guard data.count <= limit else { throw TooLarge(path: path, limit: limit) }
    return data
  }

  /// A file type (`st_mode & S_IFMT`) in words: `"a FIFO"`, `"a directory"`, …
  package static func kindName(_ type: mode_t) -> String {
    switch type {
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFDIR: "a directory"
    case S_IFSOCK: "a socket"
    default: "not a file"
    }
  }
}
