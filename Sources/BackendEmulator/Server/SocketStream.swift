#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connected TCP socket with a read buffer, used by exactly one connection thread.
///
/// Every wait goes through `poll(2)` with a deadline, so a silent peer never holds the
/// thread longer than the caller allows; `wakeFD` (the server's stop pipe) can interrupt
/// waits between requests.
final class SocketStream {
  /// How a wait for more bytes ended.
  enum ReadOutcome {
    /// New bytes were appended to ``buffer``.
    case data
    /// The peer closed its side (or the connection failed).
    case closed
    /// The deadline passed.
    case timedOut
    /// The server is stopping (only when the caller asked to watch for it).
    case stopping
  }

  let fd: Int32
  private let wakeFD: Int32
  /// Bytes received and not yet consumed.
  var buffer: [UInt8] = []

  init(fd: Int32, wakeFD: Int32) {
    self.fd = fd
    self.wakeFD = wakeFD
  }

  /// Waits until bytes arrive (appending up to 64 KiB), the peer closes, `deadline`
  /// passes or, with `watchStop`, the server starts stopping.
  func fill(deadline: ContinuousClock.Instant, watchStop: Bool) -> ReadOutcome {
    while true {
      let remaining = ContinuousClock.now.duration(to: deadline)
      if remaining <= .zero { return .timedOut }
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      if watchStop { fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)) }
      let result = poll(&fds, nfds_t(fds.count), Self.milliseconds(remaining))
      if result < 0 {
        if errno == EINTR { continue }
        return .closed
      }
      if result == 0 { continue }
      if watchStop && fds[1].revents != 0 { return .stopping }
      if fds[0].revents == 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return .closed
      }
      if count == 0 { return .closed }
      buffer.append(contentsOf: chunk[0..<count])
      return .data
    }
  }

  /// Writes all of `bytes`, waiting at most until `deadline`; `false` when the peer is
  /// gone or too slow to take them.
  @discardableResult
  func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let remaining = ContinuousClock.now.duration(to: deadline)
      if remaining <= .zero { return false }
      var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
      let ready = poll(&fds, 1, Self.milliseconds(remaining))
      if ready < 0 && errno != EINTR { return false }
      if ready <= 0 { continue }
      let sent = bytes.withUnsafeBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return send(fd, base + offset, raw.count - offset, Self.sendFlags)
      }
      if sent < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  /// Closes gracefully after an error response: stops sending, then discards what the
  /// peer is still sending (at most 1 MiB, at most `linger`) so the peer reads the
  /// response instead of a connection reset, then closes.
  func lingeringClose(linger: Duration = .milliseconds(500)) {
    shutdown(fd, Int32(SHUT_WR))
    let deadline = ContinuousClock.now + linger
    var discarded = 0
    while discarded < 1_048_576 {
      buffer.removeAll(keepingCapacity: true)
      guard case .data = fill(deadline: deadline, watchStop: false) else { break }
      discarded += buffer.count
    }
    close()
  }

  /// Closes the socket.
  func close() {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  private static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
    return Int32(clamping: max(0, min(milliseconds, 60_000)))
  }

  #if canImport(Glibc)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    private static let sendFlags: Int32 = 0
  #endif
}
