import BackendHTTP
import Dispatch
import Foundation
import Synchronization
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on POSIX sockets that turns wire requests into
/// ``BackendHTTP/HTTPRequest`` values, passes them to a handler and writes the
/// ``BackendHTTP/HTTPResponse`` back. It serves the emulator to real clients (curl, the
/// vendors' SDKs, the network transports); see docs/ARCHITECTURE.md "The emulator".
///
/// - One thread per connection (an accept thread hands each socket to its own thread),
///   so a slow or silent client never delays another; up to ``Limits/maxConnections``
///   at once, beyond that new connections get `503` and are closed.
/// - Keep-alive (HTTP/1.1 default, HTTP/1.0 with `Connection: keep-alive`),
///   `Content-Length` and `chunked` request bodies, `Expect: 100-continue`.
/// - Limits: request line + header fields over ``Limits/maxHeadBytes`` (16 KiB) → `431`;
///   body over ``Limits/maxBodyBytes`` (1 MiB) → `413`, or over the limit a
///   ``BodyLimitRule`` sets for the request → its refusal; malformed → `400`; an
///   incomplete request after ``Limits/requestTimeout`` → `408`. The connection is
///   closed after any of these.
/// - Not HTTP: a connection whose first byte opens a TLS handshake (0x16: a client using
///   `https://` on this plain-HTTP port) is closed at once without an answer, which a TLS
///   client could not read, and reported to the notice handler; its client fails at once
///   with a TLS error instead of waiting for its timeout. A byte no request line can hold
///   (a NUL or other control byte, one above 0x7E, a bare LF) gets its `400` as soon as it
///   arrives, not after the request timeout.
/// - The request URL is `http://<Host header><raw target>`: path and query exactly as
///   received (a target with characters that must be percent-encoded is a `400`). An
///   absolute-form target (`http://host:port/path`) is the URL itself, and its authority
///   replaces the `Host` field (RFC 9112 §3.2.2), so the loopback guard judges that host;
///   user info or a malformed authority in it is a `400`.
/// - Methods are case-sensitive (RFC 9110 §9.1): one other than `GET`, `HEAD`, `POST`,
///   `PUT`, `PATCH`, `DELETE`, `OPTIONS` exactly so spelled (`get` included) is a `501`.
/// - Binds `127.0.0.1` unless told otherwise; port `0` picks an ephemeral port.
///
/// Lifecycle: ``start()`` once, ``stop()`` once; build a new server to serve again.
public final class EmulatorServer: Sendable {
  /// The request handler: one request in, one response out, never throws.
  public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

  /// Receives one line (no secret, no request bytes) for each connection closed without an
  /// answer, such as a TLS handshake on this plain-HTTP port. Called from a connection
  /// thread; must not block.
  public typealias NoticeHandler = @Sendable (String) -> Void

  /// The body limit of one request and the answer to a body over it, chosen by a
  /// ``BodyLimitRule`` from the request's head.
  public struct BodyLimit: Sendable {
    /// The largest body in bytes.
    public var maxBytes: Int
    /// The answer to a larger body; the connection is closed after it.
    public var refusal: HTTPResponse

    /// A limit of `maxBytes` bytes, answered with `refusal` when passed.
    public init(maxBytes: Int, refusal: HTTPResponse) {
      self.maxBytes = maxBytes
      self.refusal = refusal
    }
  }

  /// Chooses a request's ``BodyLimit`` from its head: the request passed has the method,
  /// URL and header fields, and an empty body (called before the body is read). Called
  /// from a connection thread; must not block.
  public typealias BodyLimitRule = @Sendable (HTTPRequest) -> BodyLimit

  /// Size limits and timeouts.
  public struct Limits: Sendable, Hashable {
    /// The most bytes for the request line and header fields together (default 16 KiB);
    /// more gives `431`.
    public var maxHeadBytes: Int
    /// The largest request body in bytes (default 1 MiB); larger gives a plain `413`.
    /// A ``BodyLimitRule`` given to the server replaces it.
    public var maxBodyBytes: Int
    /// How long an idle keep-alive connection stays open (default 30 s).
    public var idleTimeout: Duration
    /// How long a client may take to send one whole request once it started (default
    /// 30 s); longer gives `408`.
    public var requestTimeout: Duration
    /// How long a client may take to read a response (default 30 s).
    public var writeTimeout: Duration
    /// The most simultaneous connections (default 1024).
    public var maxConnections: Int
    /// How long ``EmulatorServer/stop()`` waits for in-flight requests (default 10 s)
    /// before it shuts the remaining sockets.
    public var drainTimeout: Duration
    /// The host used in request URLs when an HTTP/1.0 client sends no `Host` field.
    public var defaultHost: String

    /// Limits; every argument has the default given on its property.
    public init(
      maxHeadBytes: Int = 16_384, maxBodyBytes: Int = 1_048_576,
      idleTimeout: Duration = .seconds(30), requestTimeout: Duration = .seconds(30),
      writeTimeout: Duration = .seconds(30), maxConnections: Int = 1024,
      drainTimeout: Duration = .seconds(10), defaultHost: String = "localhost"
    ) {
      self.maxHeadBytes = maxHeadBytes
      self.maxBodyBytes = maxBodyBytes
      self.idleTimeout = idleTimeout
      self.requestTimeout = requestTimeout
      self.writeTimeout = writeTimeout
      self.maxConnections = maxConnections
      self.drainTimeout = drainTimeout
      self.defaultHost = defaultHost
    }
  }

  /// The address to listen on, e.g. `"127.0.0.1"` or `"::1"`.
  public let host: String
  /// The requested port (`0` for ephemeral).
  public let requestedPort: Int
  /// The limits in force.
  public let limits: Limits
  private let handler: Handler
  private let notices: NoticeHandler?
  private let bodyLimit: BodyLimitRule?
  private let state = LockedValue(ServerState())
  private let stopping = Atomic<Bool>(false)
  private let connections = DispatchGroup()

  /// A server that will pass every request to `handler`.
  ///
  /// - Parameters:
  ///   - host: a numeric address or a name that resolves to one (default loopback).
  ///   - port: `0...65535`; `0` picks a free port (see ``start()``'s result).
  ///   - notices: receives a line for each connection closed without an answer (`nil`,
  ///     the default, drops them).
  ///   - bodyLimit: chooses each request's body limit and its refusal (a protocol's own
  ///     error envelope); `nil`, the default, applies ``Limits/maxBodyBytes`` with a
  ///     plain-text `413`.
  public init(
    host: String = "127.0.0.1", port: Int = 9099, limits: Limits = Limits(),
    notices: NoticeHandler? = nil, bodyLimit: BodyLimitRule? = nil,
    handler: @escaping Handler
  ) {
    self.host = host
    self.requestedPort = port
    self.limits = limits
    self.notices = notices
    self.bodyLimit = bodyLimit
    self.handler = handler
  }

  /// The bound port while running, else `nil`.
  public var port: Int? { state.withLock { $0.boundPort } }

  /// Binds, listens and starts accepting connections.
  ///
  /// - Returns: the bound port (the ephemeral one when the requested port was `0`).
  /// - Throws: ``EmulatorServerError``: `invalidPort`, `alreadyStarted`, or
  ///   `socket(operation:code:)` when the address cannot be bound (for example in use).
  public func start() throws -> Int {
    guard (0...65_535).contains(requestedPort) else {
      throw EmulatorServerError.invalidPort(requestedPort)
    }
    try state.withLock { state in
      guard case .idle = state.phase else { throw EmulatorServerError.alreadyStarted }
      state.phase = .starting
    }
    let listener: ListeningSocket
    do {
      listener = try ListeningSocket.bind(host: host, port: requestedPort)
    } catch {
      state.withLock { $0.phase = .stopped }
      throw error
    }
    state.withLock { state in
      state.phase = .running
      state.boundPort = listener.port
      state.wakeFDs = listener.wakeFDs
    }
    connections.enter()
    let thread = Thread { [self] in
      acceptLoop(listener)
      connections.leave()
    }
    thread.name = "EmulatorServer.accept"
    thread.start()
    return listener.port
  }

  /// Stops gracefully: closes the listening socket (new connections are refused), lets
  /// requests already being handled finish and answers them with `Connection: close`,
  /// closes idle connections, and returns when every connection is closed or
  /// ``Limits/drainTimeout`` has passed (remaining sockets are then shut down).
  /// Calling it again, or before ``start()``, does nothing.
  public func stop() {
    let wake: (read: Int32, write: Int32)? = state.withLock { state in
      guard case .running = state.phase else {
        if case .idle = state.phase { state.phase = .stopped }
        return nil
      }
      state.phase = .stopped
      return state.wakeFDs
    }
    guard let wake else { return }
    stopping.store(true, ordering: .sequentiallyConsistent)
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    if connections.wait(timeout: .now() + limits.drainTimeout.dispatchInterval) == .timedOut {
      // Under the lock: a tracked descriptor is still open (threads untrack first).
      state.withLock { state in
        for fd in state.openSockets.values { shutdown(fd, Int32(SHUT_RDWR)) }
      }
      _ = connections.wait(timeout: .now() + .seconds(2))
    }
    // The wake pipe is closed only when no thread can still poll it.
    connections.notify(queue: .global()) {
      _ = close(wake.read)
      _ = close(wake.write)
    }
    state.withLock { $0.boundPort = nil }
  }

  private func acceptLoop(_ listener: ListeningSocket) {
    defer { _ = close(listener.fd) }
    while !stopping.load(ordering: .sequentiallyConsistent) {
      var fds = [
        pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: listener.wakeFDs.read, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, -1)
      if ready < 0 && errno != EINTR { return }
      if fds[1].revents != 0 { return }
      guard fds[0].revents != 0 else { continue }
      let fd = accept(listener.fd, nil, nil)
      if fd < 0 {
        if errno == EMFILE || errno == ENFILE { usleep(10_000) }
        continue
      }
      ListeningSocket.configureAccepted(fd)
      admit(fd, wakeFD: listener.wakeFDs.read)
    }
  }

  private func admit(_ fd: Int32, wakeFD: Int32) {
    let id = state.withLock { state -> UInt64? in
      guard state.openSockets.count < limits.maxConnections else { return nil }
      state.nextConnectionID += 1
      state.openSockets[state.nextConnectionID] = fd
      return state.nextConnectionID
    }
    guard let id else {
      let stream = SocketStream(fd: fd, wakeFD: wakeFD)
      let busy = HTTPResponse(status: 503, body: Data("too many connections\n".utf8))
      stream.write(
        HTTPResponseSerializer.serialize(busy, keepAlive: false, includeBody: true),
        deadline: .now + .milliseconds(200))
      stream.close()
      return
    }
    connections.enter()
    let thread = Thread { [self] in
      // The stream lives and dies on this thread.
      let stream = SocketStream(fd: fd, wakeFD: wakeFD)
      let connection = HTTPConnection(
        stream: stream, limits: limits, handler: handler,
        isStopping: { [self] in stopping.load(ordering: .sequentiallyConsistent) },
        notices: notices, bodyLimit: bodyLimit)
      let mode = connection.run()
      // Untrack before closing, so stop() never shuts down a reused descriptor.
      state.withLock { _ = $0.openSockets.removeValue(forKey: id) }
      switch mode {
      case .immediate: stream.close()
      case .lingering: stream.lingeringClose()
      }
      connections.leave()
    }
    thread.stackSize = 1 << 20
    thread.name = "EmulatorServer.connection"
    thread.start()
  }
}

/// Why ``EmulatorServer/start()`` failed.
public enum EmulatorServerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The port is outside `0...65535`.
  case invalidPort(Int)
  /// ``EmulatorServer/start()`` was already called on this server.
  case alreadyStarted
  /// The host name did not resolve to an address.
  case unresolvableHost(String)
  /// A socket call failed; `code` is the `errno` value.
  case socket(operation: String, code: Int32)

  /// A one-line explanation.
  public var description: String {
    switch self {
    case .invalidPort(let port): "invalid port \(port): use 0...65535"
    case .alreadyStarted: "the server was already started"
    case .unresolvableHost(let host): "cannot resolve listen address \(host)"
    case .socket(let operation, let code):
      "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
  }
}

private struct ServerState: Sendable {
  enum Phase: Sendable { case idle, starting, running, stopped }
  var phase = Phase.idle
  var boundPort: Int?
  var wakeFDs: (read: Int32, write: Int32)?
  var openSockets: [UInt64: Int32] = [:]
  var nextConnectionID: UInt64 = 0
}

extension Duration {
  fileprivate var dispatchInterval: DispatchTimeInterval {
    let (seconds, attoseconds) = components
    return .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
  }
}
