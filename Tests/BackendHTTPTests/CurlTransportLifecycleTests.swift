#if canImport(CCurl)
  import BackendHTTP
  import Foundation
  import Testing

  /// ``CurlTransport`` under load and over its life: concurrent requests, kept-alive
  /// connections, many cancellations, and its thread ending with the transport.
  @Suite("CurlTransport: concurrency, connections and its thread", .timeLimit(.minutes(2)))
  struct CurlTransportLifecycleTests {
    @Test("64 concurrent requests on one transport succeed; a warm transport reuses connections")
    func concurrentAndReused() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let transport = CurlTransport()
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/keep"))
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<64 {
          group.addTask {
            let request = HTTPRequest(
              method: .post, url: url, body: Data("\(index)".utf8), timeout: 30)
            return try await transport.send(request).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses == Array(repeating: 201, count: 64))
      let warm = server.acceptedCount
      #expect(warm <= 64)
      for _ in 0..<64 {
        let response = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 30))
        #expect(response.status == 201)
      }
      // One after the other, every request finds a kept-alive connection.
      #expect(server.acceptedCount - warm < 8)
    }

    @Test("cancelling many requests in flight at once leaves the transport usable")
    func manyCancelled() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let transport = CurlTransport(defaultTimeout: 60)
      let hang = try #require(URL(string: "http://127.0.0.1:\(server.port)/hang"))
      let tasks = (0..<32).map { _ in
        Task { try await transport.send(HTTPRequest(method: .get, url: hang)) }
      }
      for _ in 0..<1000 where server.acceptedCount < tasks.count {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(server.acceptedCount == tasks.count)
      for task in tasks { task.cancel() }
      for task in tasks {
        await #expect(throws: CancellationError.self) { _ = try await task.value }
      }
      let echo = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
      let response = try await transport.send(HTTPRequest(method: .get, url: echo, timeout: 20))
      #expect(response.status == 201)
    }

    @Test("a cancel racing the request at any point ends it once: answer or CancellationError")
    func cancelRaces() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let transport = CurlTransport()
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/keep"))
      var answered = 0
      var cancelled = 0
      for round in 0..<300 {
        let task = Task {
          try await transport.send(HTTPRequest(method: .get, url: url, timeout: 20))
        }
        // Spread the cancel over the request's life: at once, after a yield, or a little later.
        if round % 3 == 1 { await Task.yield() }
        if round % 3 == 2 { try await Task.sleep(for: .microseconds(200)) }
        task.cancel()
        do {
          #expect(try await task.value.status == 201)
          answered += 1
        } catch is CancellationError {
          cancelled += 1
        }
      }
      #expect(answered + cancelled == 300)
      #expect(cancelled > 0)
      let after = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 20))
      #expect(after.status == 201)
    }

    /// The threads of this process named like the transport's loop thread.
    static func loopThreads() -> Int {
      let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
      return tasks.count { task in
        let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))
        return comm?.hasPrefix("CurlTransport") == true
      }
    }

    /// The process's thread count from /proc/self/status.
    static func processThreads() -> Int {
      let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") } ?? ""
      return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }

    @Test("a transport released after use ends its thread: 200 transports leave no threads")
    func threadsEnd() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
      let before = Self.loopThreads()
      let processBefore = Self.processThreads()
      var seenRunning = false
      for _ in 0..<200 {
        let transport = CurlTransport()
        let response = try await transport.send(HTTPRequest(method: .get, url: url, timeout: 20))
        #expect(response.status == 201)
        seenRunning = seenRunning || Self.loopThreads() > 0
      }
      // The count can see the loop threads at all (else the check below proves nothing).
      #expect(seenRunning)
      // Threads end shortly after their transport; other suites run alongside, hence slack.
      for _ in 0..<500 where Self.loopThreads() > before + 16 {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(Self.loopThreads() <= before + 16)
      #expect(Self.processThreads() <= processBefore + 100)
    }
  }
#endif
