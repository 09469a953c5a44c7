#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A bound, listening TCP socket plus the server's stop pipe.
struct ListeningSocket: Sendable {
  let fd: Int32
  let port: Int
  /// A pipe nobody reads: writing one byte makes its read end readable for every
  /// thread polling it, which is how ``EmulatorServer/stop()`` wakes them all.
  let wakeFDs: (read: Int32, write: Int32)

  /// Resolves `host`, binds `port` (with `SO_REUSEADDR`) and listens.
  ///
  /// - Throws: ``EmulatorServerError``.
  static func bind(host: String, port: Int) throws(EmulatorServerError) -> ListeningSocket {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = socketStream
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
      throw .unresolvableHost(host)
    }
    defer { freeaddrinfo(list) }
    var lastError = EmulatorServerError.unresolvableHost(host)
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let info = entry {
      entry = info.pointee.ai_next
      let fd = socket(info.pointee.ai_family, socketStream, 0)
      guard fd >= 0 else {
        lastError = .socket(operation: "socket", code: errno)
        continue
      }
      setCloseOnExec(fd)
      var one: Int32 = 1
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
      guard systemBind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
        lastError = .socket(operation: "bind \(host):\(port)", code: errno)
        _ = close(fd)
        continue
      }
      guard listen(fd, 1024) == 0 else {
        lastError = .socket(operation: "listen", code: errno)
        _ = close(fd)
        continue
      }
      var pipeFDs: [Int32] = [0, 0]
      guard pipe(&pipeFDs) == 0 else {
        let code = errno
        _ = close(fd)
        throw .socket(operation: "pipe", code: code)
      }
      pipeFDs.forEach(setCloseOnExec)
      return ListeningSocket(fd: fd, port: boundPort(fd), wakeFDs: (pipeFDs[0], pipeFDs[1]))
    }
    throw lastError
  }

  /// Options for an accepted connection: close-on-exec, no Nagle delay, no SIGPIPE.
  static func configureAccepted(_ fd: Int32) {
    setCloseOnExec(fd)
    var one: Int32 = 1
    setsockopt(
      fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  private static func setCloseOnExec(_ fd: Int32) {
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  }

  private static func boundPort(_ fd: Int32) -> Int {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let result = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { return 0 }
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin_port))
        }
      }
    case AF_INET6:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin6_port))
        }
      }
    default:
      return 0
    }
  }

  #if canImport(Glibc)
    private static let socketStream = Int32(SOCK_STREAM.rawValue)
    private static func systemBind(
      _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t
    ) -> Int32 { Glibc.bind(fd, address, length) }
  #else
    private static let socketStream = SOCK_STREAM
    private static func systemBind(
      _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t
    ) -> Int32 { Darwin.bind(fd, address, length) }
  #endif
}
