import BackendEmulator
import BackendHTTP
import Foundation

/// A handler that describes the request it got as JSON: method, url, rawPath, rawQuery,
/// body (UTF-8) and the `Content-Type` / `X-Test` fields.
let echoHandler: EmulatorServer.Handler = { request in
  let object: [String: String] = [
    "method": request.method.rawValue,
    "url": request.url.absoluteString,
    "rawPath": request.rawPath,
    "rawQuery": request.rawQuery ?? "<none>",
    "body": String(decoding: request.body, as: UTF8.self),
    "contentType": request.headerFields["Content-Type"] ?? "<none>",
    "xTest": request.headerFields["X-Test"] ?? "<none>",
  ]
  let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
  return HTTPResponse(
    status: 200, headerFields: ["Content-Type": "application/json"], body: body)
}

/// Starts a server on an ephemeral loopback port, runs `body`, then stops the server.
func withServer<T: Sendable>(
  limits: EmulatorServer.Limits = .init(),
  handler: @escaping EmulatorServer.Handler = echoHandler,
  _ body: (Int) async throws -> T
) async throws -> T {
  let server = EmulatorServer(host: "127.0.0.1", port: 0, limits: limits, handler: handler)
  let port = try server.start()
  do {
    let result = try await body(port)
    await stopOffPool(server)
    return result
  } catch {
    await stopOffPool(server)
    throw error
  }
}

/// Stops the server gracefully without blocking a cooperative thread.
func stopOffPool(_ server: EmulatorServer) async {
  await server.shutDown()
}

/// Starts a graceful stop on a thread of its own and returns at once: for `defer` in
/// async tests, where the blocking `stop()` would hold a cooperative thread while the
/// server's handler tasks may still need one.
func stopInBackground(_ server: EmulatorServer) {
  Thread { server.stop() }.start()
}

/// A gate that handlers wait on until the test opens it; every wait is bounded.
///
/// Waiters are suspended continuations, resumed by ``open()`` or by their own timeout:
/// no polling, so hundreds of waiting handlers cost the shared cooperative pool nothing.
actor Gate {
  private var isOpen = false
  private(set) var arrivals = 0
  private var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
  private var nextWaiter = 0

  /// Waits until ``open()``; `false` after `timeout` seconds without it. The bounds are
  /// hang guards, not latency checks: with every suite running on one loaded core, 256
  /// connections took over 20 s to arrive.
  func wait(timeout: Double = 90) async -> Bool {
    arrivals += 1
    if isOpen { return true }
    let id = nextWaiter
    nextWaiter += 1
    let timer = Task {
      try? await Task.sleep(for: .seconds(timeout))
      self.expire(id)
    }
    let opened = await withCheckedContinuation { waiters[id] = $0 }
    timer.cancel()
    return opened
  }

  /// Waits until `count` callers have arrived; `false` after `timeout` seconds.
  func waitForArrivals(_ count: Int, timeout: Double = 60) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while arrivals < count && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(5))
    }
    return arrivals >= count
  }

  func open() {
    isOpen = true
    let opened = waiters
    waiters = [:]
    for waiter in opened.values { waiter.resume(returning: true) }
  }

  private func expire(_ id: Int) {
    waiters.removeValue(forKey: id)?.resume(returning: isOpen)
  }
}
