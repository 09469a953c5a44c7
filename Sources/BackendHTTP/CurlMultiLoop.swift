#if canImport(CCurl)
  import CCurl
  import Foundation

  /// One libcurl multi handle and the thread that drives it for a ``CurlTransport``.
  ///
  /// Callers hand transfers over with ``add(_:)`` and ``remove(_:)`` (any thread; the
  /// loop is woken with `curl_multi_wakeup`); only the loop thread touches the multi
  /// handle after that, as libcurl requires. The thread starts with the first transfer
  /// and ends after ``stop()`` (the transport's deinit, when no request can be in flight),
  /// cleaning up the multi handle and its kept-alive connections.
  final class CurlMultiLoop: @unchecked Sendable {
    /// libcurl's global set-up, once per process, before the first handle.
    static let globalInit: Void = { _ = ubk_curl_global_init() }()

    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    private var adding: [CurlTransfer] = []
    private var removing: [CurlTransfer] = []
    private var stopping = false
    private var started = false
    /// The transfers libcurl is working on, by easy handle (loop thread only).
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    init() {
      _ = Self.globalInit
      guard let multi = curl_multi_init() else {
        fatalError("libcurl could not create a multi handle (out of memory)")
      }
      self.multi = multi
    }

    /// Starts `transfer` (starting the thread first if needed).
    func add(_ transfer: CurlTransfer) {
      let startThread = lock.withLock {
        adding.append(transfer)
        defer { started = true }
        return !started
      }
      if startThread {
        // Named from inside: Foundation on Linux passes a name set before `start()`
        // to nothing, and Linux refuses names over 15 bytes. The name shows in debuggers,
        // `top -H` and /proc (the tests count these threads by it).
        Thread { [self] in
          Thread.current.name = "CurlTransport"
          run()
        }.start()
      } else {
        curl_multi_wakeup(multi)
      }
    }

    /// Stops `transfer` if libcurl is still working on it (its caller already has its
    /// outcome).
    func remove(_ transfer: CurlTransfer) {
      lock.withLock { removing.append(transfer) }
      curl_multi_wakeup(multi)
    }

    /// Ends the thread (or cleans up at once when it never started).
    func stop() {
      let running = lock.withLock {
        stopping = true
        return started
      }
      if running {
        curl_multi_wakeup(multi)
      } else {
        curl_multi_cleanup(multi)
      }
    }

    private func run() {
      while true {
        let (toAdd, toRemove, stop) = lock.withLock {
          defer {
            adding.removeAll()
            removing.removeAll()
          }
          return (adding, removing, stopping)
        }
        for transfer in toAdd where !transfer.hasEnded {
          if curl_multi_add_handle(multi, transfer.easy) == CURLM_OK {
            active[transfer.easy] = transfer
          } else {
            transfer.end(
              .failure(HTTPTransportError.connectionFailed(reason: "libcurl refused the request")))
          }
        }
        for transfer in toRemove where active.removeValue(forKey: transfer.easy) != nil {
          curl_multi_remove_handle(multi, transfer.easy)
        }
        if stop { break }
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        finishDone()
        // Sleeps until a socket is ready, libcurl's next timer, or a wake-up from another
        // thread; the cap only bounds an idle loop's sleep.
        curl_multi_poll(multi, nil, 0, 60_000, nil)
      }
      for transfer in active.values {
        curl_multi_remove_handle(multi, transfer.easy)
        transfer.end(.failure(CancellationError()))
      }
      active.removeAll()
      curl_multi_cleanup(multi)
    }

    /// Ends every transfer libcurl reports done.
    private func finishDone() {
      var left: Int32 = 0
      while let message = curl_multi_info_read(multi, &left) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else {
          continue
        }
        let code = message.pointee.data.result
        curl_multi_remove_handle(multi, easy)
        active.removeValue(forKey: easy)?.complete(code)
      }
    }
  }
#endif
