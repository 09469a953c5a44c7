import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransport {
  /// The session's delegate: follows no redirect, and hands each data task's response and
  /// bytes to the ``ResponseCollector`` registered for it.
  ///
  /// URLSession calls it on the session's serial delegate queue; the table of collectors
  /// is also touched by `send` on other threads, hence the lock.
  final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var collectors: [Int: ResponseCollector] = [:]

    func register(_ collector: ResponseCollector, for task: URLSessionTask) {
      lock.withLock { collectors[task.taskIdentifier] = collector }
    }

    private func collector(for task: URLSessionTask, removing: Bool = false)
      -> ResponseCollector?
    {
      lock.withLock {
        removing
          ? collectors.removeValue(forKey: task.taskIdentifier)
          : collectors[task.taskIdentifier]
      }
    }

    /// Answers every redirect with "do not follow": the 3xx response itself is returned.
    func urlSession(
      _ session: URLSession, task: URLSessionTask,
      willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
      completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }

    /// Keeps the bytes while they fit; past the limit the caller gets its error at once
    /// and the task is cancelled (anything still arriving is dropped, never stored).
    func urlSession(
      _ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data
    ) {
      guard let collector = collector(for: dataTask) else { return }
      if !collector.accept(dataTask.response) || !collector.append(data) {
        dataTask.cancel()
      }
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      collector(for: task, removing: true)?.finish(response: task.response, error: error)
    }
  }

  /// One request's answer, gathered up to `limit` body bytes; resumes its caller exactly
  /// once: with the response, with ``HTTPTransportError/responseTooLarge(limit:)`` as soon
  /// as the body (or its declared length) passes the limit, with the mapped transport
  /// error, or with `CancellationError`.
  final class ResponseCollector: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var body = Data()
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private var outcome: Result<HTTPResponse, any Error>?
    private var task: URLSessionTask?

    init(limit: Int) { self.limit = limit }

    /// Starts `task` for the caller waiting on `continuation`, unless the request already
    /// ended (cancelled before it started).
    func start(_ task: URLSessionTask, continuation: CheckedContinuation<HTTPResponse, any Error>) {
      lock.lock()
      if let outcome {
        lock.unlock()
        continuation.resume(with: outcome)
        task.cancel()  // never started: completes at once and leaves the delegate's table
        return
      }
      self.continuation = continuation
      self.task = task
      lock.unlock()
      task.resume()
    }

    /// Whether the body may be read: false when the declared length is over the limit.
    /// Checked with the first bytes rather than in a "did receive response" callback:
    /// FoundationNetworking ignores that callback's disposition and it would cost every
    /// request one more trip through the delegate queue.
    func accept(_ response: URLResponse?) -> Bool {
      guard let response, response.expectedContentLength > Int64(limit) else { return true }
      end(.failure(HTTPTransportError.responseTooLarge(limit: limit)))
      return false
    }

    /// Adds `data` to the body; false (and the caller gets its error) once past the limit.
    func append(_ data: Data) -> Bool {
      let fits: Bool? = lock.withLock {
        guard outcome == nil else { return nil }
        guard body.count + data.count <= limit else { return false }
        body.append(data)
        return true
      }
      if fits == false { end(.failure(HTTPTransportError.responseTooLarge(limit: limit))) }
      return fits == true
    }

    /// The task ended: returns the response, or the error mapped for the caller.
    func finish(response: URLResponse?, error: (any Error)?) {
      if let error {
        end(.failure(URLSessionTransport.mapError(error)))
        return
      }
      guard let http = response as? HTTPURLResponse else {
        end(.failure(HTTPTransportError.invalidResponse(reason: "not an HTTP response")))
        return
      }
      let body = lock.withLock { self.body }
      let fields = URLSessionTransport.fields(of: http)
      if let problem = AnswerFraming.problem(status: http.statusCode, fields) {
        end(.failure(problem))
        return
      }
      end(.success(HTTPResponse(status: http.statusCode, headerFields: fields, body: body)))
    }

    /// The calling task was cancelled: it gets `CancellationError` and the request stops.
    func cancel() {
      end(.failure(CancellationError()))
    }

    /// Records the first outcome, resumes the caller with it and stops the task if it is
    /// still running; later outcomes are ignored.
    private func end(_ result: Result<HTTPResponse, any Error>) {
      lock.lock()
      guard outcome == nil else {
        lock.unlock()
        return
      }
      outcome = result
      body = Data()
      let waiting = continuation
      let running = task
      continuation = nil
      task = nil
      lock.unlock()
      waiting?.resume(with: result)
      if case .failure = result { running?.cancel() }
    }
  }
}
