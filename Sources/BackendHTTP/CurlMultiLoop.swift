#if canImport(CCurl)
  import CCurl
  import Foundation

  /// One libcurl multi handle and the thread that drives it for a ``CurlTransport``.
  ///
  /// Callers hand transfers over with ``add(_:)`` and ``remove(_:)`` (any thread; the
  /// loop is woken with `curl_multi_wakeup`, the one call libcurl allows from another
  /// thread); only the loop thread works the multi handle, as libcurl requires. The
  /// handle and the thread start with the first transfer (a transport never used holds
  /// neither) and end after ``stop()`` (the transport's deinit, when no request can be in
  /// flight), which also closes the kept-alive connections.
  final class CurlMultiLoop: @unchecked Sendable {
    /// libcurl's global set-up, once per process, before the first handle.
    static let globalInit: Void = { _ = ubk_curl_global_init() }()

    /// Everything below is under `lock`, but for `active` (loop thread only). The multi
    /// handle is made with the first transfer and cleaned up by the loop thread under the
    /// lock, so a late wake-up (a cancellation racing the transport's end) never reaches
    /// a freed handle.
    private let lock = NSLock()
    private var multi: UnsafeMutableRawPointer?
    private var adding: [CurlTransfer] = []
    private var removing: [CurlTransfer] = []
    private var stopping = false
    /// The transfers libcurl is working on, by easy handle (loop thread only).
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    /// Starts `transfer` (making the multi handle and starting the thread first if
    /// needed).
    /// - Throws: ``HTTPTransportError/connectionFailed(reason:)`` when libcurl cannot make
    ///   a multi handle (out of memory or file descriptors).
    func add(_ transfer: CurlTransfer) throws {
      let isFirst = try lock.withLock {
        adding.append(transfer)
        if let multi {
          curl_multi_wakeup(multi)
          return false
        }
        _ = Self.globalInit
        guard let made = curl_multi_init() else {
          adding.removeAll()
          throw HTTPTransportError.connectionFailed(reason: "libcurl could not start a session")
        }
        multi = made
        return true
      }
      if isFirst {
        // Named from inside: Foundation on Linux passes a name set before `start()`
        // to nothing, and Linux refuses names over 15 bytes. The name shows in debuggers,
        // `top -H` and /proc (the tests count these threads by it).
        Thread { [self] in
          Thread.current.name = "CurlTransport"
          run()
        }.start()
      }
    }

    /// Stops `transfer` if libcurl is still working on it (its caller already has its
    /// outcome).
    func remove(_ transfer: CurlTransfer) {
      lock.withLock {
        guard let multi else { return }
        removing.append(transfer)
        curl_multi_wakeup(multi)
      }
    }

    /// Ends the thread, which then cleans up the multi handle and its connections.
    func stop() {
      lock.withLock {
        stopping = true
        if let multi { curl_multi_wakeup(multi) }
      }
    }

    private func run() {
      guard let multi = lock.withLock({ self.multi }) else { return }
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
        finishDone(multi)
        // Sleeps until a socket is ready, libcurl's next timer, or a wake-up from another
        // thread; the cap only bounds an idle loop's sleep.
        curl_multi_poll(multi, nil, 0, 60_000, nil)
      }
      for transfer in active.values {
        curl_multi_remove_handle(multi, transfer.easy)
        transfer.end(.failure(CancellationError()))
      }
      active.removeAll()
      lock.withLock {
        curl_multi_cleanup(multi)
        self.multi = nil
      }
    }

    /// Ends every transfer libcurl reports done.
    private func finishDone(_ multi: UnsafeMutableRawPointer) {
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
