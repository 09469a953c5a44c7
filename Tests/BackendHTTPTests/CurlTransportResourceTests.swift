#if canImport(CCurl)
  import BackendHTTP
  import Foundation
  import Testing

  /// ``CurlTransport``'s file descriptors: hundreds of parallel requests on one transport,
  /// and many transports made, used and released, give their descriptors back.
  @Suite("CurlTransport: file descriptors come back", .serialized, .timeLimit(.minutes(2)))
  struct CurlTransportResourceTests {
    /// The process's open file descriptors (/proc/self/fd).
    static func openDescriptors() -> Int {
      ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count
    }

    /// Waits (polling, never blocking a thread) until the descriptor count is at most
    /// `bound`; returns the last count seen.
    static func settle(atMost bound: Int) async throws -> Int {
      var count = openDescriptors()
      for _ in 0..<500 where count > bound {
        try await Task.sleep(for: .milliseconds(20))
        count = openDescriptors()
      }
      return count
    }

    /// Sends `count` parallel POSTs to `url` on one new transport, released on return.
    static func parallelStatuses(_ count: Int, to url: URL) async throws -> [Int] {
      let transport = CurlTransport()
      return try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<count {
          group.addTask {
            let request = HTTPRequest(
              method: .post, url: url, body: Data("\(index)".utf8), timeout: 60)
            return try await transport.send(request).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }

    @Test("300 parallel requests on one transport all answer; releasing it closes them")
    func parallelOnOne() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/keep"))
      let before = Self.openDescriptors()
      let statuses = try await Self.parallelStatuses(300, to: url)
      #expect(statuses == Array(repeating: 201, count: 300))
      // Other suites run alongside and open descriptors of their own, hence the slack.
      let after = try await Self.settle(atMost: before + 32)
      #expect(after <= before + 32, "descriptors: \(before) before, \(after) after")
    }

    @Test("200 transports, each used by 3 parallel requests and released, leak no descriptors")
    func manyTransports() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/keep"))
      let before = Self.openDescriptors()
      for _ in 0..<200 {
        let transport = CurlTransport()
        try await withThrowingTaskGroup(of: Int.self) { group in
          for _ in 0..<3 {
            group.addTask {
              try await transport.send(HTTPRequest(method: .get, url: url, timeout: 60)).status
            }
          }
          for try await status in group { #expect(status == 201) }
        }
      }
      let after = try await Self.settle(atMost: before + 32)
      #expect(after <= before + 32, "descriptors: \(before) before, \(after) after")
    }
  }
#endif
