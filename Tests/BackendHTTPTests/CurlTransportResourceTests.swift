#if canImport(CCurl)
  import BackendHTTP
  import Foundation
  import Testing

  /// ``CurlTransport``'s file descriptors: hundreds of parallel requests on one transport,
  /// and many transports made, used and released, give their descriptors back.
  @Suite("CurlTransport: file descriptors come back", .serialized, .timeLimit(.minutes(2)))
  struct CurlTransportResourceTests {
    /// What this test can count without other suites' descriptors in the way: TCP
    /// sockets of this process with `port` at either end (the test server's listener and
    /// connections, the transport's connections), exactly; and descriptors that are not
    /// sockets (libcurl's wake-up pipes and event descriptors; the other suites running
    /// alongside open sockets, so a little slack covers them).
    struct Census: Equatable, CustomStringConvertible {
      var socketsOnPort: Int
      var nonSockets: Int
      var description: String { "\(socketsOnPort) sockets on the port, \(nonSockets) others" }
    }

    /// The census of `/proc/self/fd` against `/proc/net/tcp{,6}` for `port`.
    static func census(port: Int) -> Census {
      var socketInodes = Set<Int>()
      var nonSockets = 0
      let directory = "/proc/self/fd"
      for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
        guard
          let target = try? FileManager.default.destinationOfSymbolicLink(
            atPath: directory + "/" + name)
        else { continue }
        if target.hasPrefix("socket:["), let inode = Int(target.dropFirst(8).dropLast()) {
          socketInodes.insert(inode)
        } else {
          nonSockets += 1
        }
      }
      var onPort = 0
      for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        // Read to the end: `String(contentsOfFile:)` stops after the first block of a /proc
        // file (its size reads as 0), which under load missed the test's own listener.
        guard let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() else {
          continue
        }
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n").dropFirst() {
          let fields = line.split(separator: " ")
          guard fields.count > 9, let inode = Int(fields[9]), socketInodes.contains(inode)
          else { continue }
          let ports = fields[1...2].compactMap { $0.split(separator: ":").last }
            .compactMap { Int($0, radix: 16) }
          if ports.contains(port) { onPort += 1 }
        }
      }
      return Census(socketsOnPort: onPort, nonSockets: nonSockets)
    }

    /// Waits (polling, never blocking a thread) until the census for `port` is within
    /// `bound`'s counts; returns the last census taken.
    static func settle(port: Int, atMost bound: Census) async throws -> Census {
      var count = census(port: port)
      for _ in 0..<500
      where count.socketsOnPort > bound.socketsOnPort || count.nonSockets > bound.nonSockets {
        try await Task.sleep(for: .milliseconds(20))
        count = census(port: port)
      }
      return count
    }

    /// `before` with room for what other suites open meanwhile (not sockets on our port).
    static func bound(_ before: Census) -> Census {
      Census(socketsOnPort: before.socketsOnPort, nonSockets: before.nonSockets + 32)
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
      let before = Self.census(port: server.port)
      #expect(before.socketsOnPort >= 1, "the listener is counted: \(before)")
      let statuses = try await Self.parallelStatuses(300, to: url)
      #expect(statuses == Array(repeating: 201, count: 300))
      let after = try await Self.settle(port: server.port, atMost: Self.bound(before))
      #expect(after.socketsOnPort <= before.socketsOnPort, "\(before) before, \(after) after")
      #expect(after.nonSockets <= before.nonSockets + 32, "\(before) before, \(after) after")
    }

    @Test("200 transports, each used by 3 parallel requests and released, leak no descriptors")
    func manyTransports() async throws {
      let server = try LoopbackServer()
      defer { server.stop() }
      let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/keep"))
      let before = Self.census(port: server.port)
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
      let after = try await Self.settle(port: server.port, atMost: Self.bound(before))
      #expect(after.socketsOnPort <= before.socketsOnPort, "\(before) before, \(after) after")
      #expect(after.nonSockets <= before.nonSockets + 32, "\(before) before, \(after) after")
    }
  }
#endif
