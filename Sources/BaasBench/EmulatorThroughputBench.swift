import AccountDatabase
import Dispatch
import FakeUserBackend
import Foundation
import Synchronization
import UserBackendKit

/// 4. Emulator throughput: Firebase `accounts:signInWithPassword` requests per second
/// over loopback with 1, 8 and 64 keep-alive clients, with p50 / p99 latency.
///
/// Load comes from ``LoopbackHTTPClient`` on plain threads (one connection each, one
/// request in flight each), so the client adds little and is not limited by a URLSession
/// connection pool. The store hashes with PBKDF2 cost 10,000 (the `UserStore` default that
/// `baas emulator` uses), and every sign-in also stores a refresh token. Each run lasts a
/// fixed time; requests in flight at the deadline finish and count.
enum EmulatorThroughputBench {
  /// The emulator's PBKDF2 rounds: the `UserStore` default.
  static let hashCost = 10_000
  /// The password of the load accounts (in-process only, never printed).
  static let password = "bench-password-1"

  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(
      id: "emulatorThroughput", title: "4. Emulator throughput: sign-ins over loopback")
    let emulator: BenchEmulator
    do {
      emulator = try BenchEmulator.start(hashCost: hashCost)
    } catch {
      group.error = "emulator: \(error)"
      return group
    }
    do {
      let maxClients = plan.throughputClients.max() ?? 1
      var requests: [[UInt8]] = []
      for index in 0..<maxClients {
        let email = "load-\(index)@bench.invalid"
        _ = try emulator.store.createUser(NewUser(email: email, password: password))
        let body = try JSONSerialization.data(
          withJSONObject: ["email": email, "password": password, "returnSecureToken": true])
        requests.append(
          LoopbackHTTPClient.postJSON(
            port: emulator.port,
            target: "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key="
              + BenchEmulator.firebaseAPIKey,
            body: body))
      }
      let status = try LoopbackHTTPClient(port: emulator.port).exchange(requests[0])
      guard status == 200 else { throw BenchFailure("a load sign-in got HTTP \(status)") }

      var rates: [Int: Double] = [:]
      var failures = 0
      for clients in plan.throughputClients {
        let load = Array(requests.prefix(clients))
        for _ in 0..<plan.warmUp {
          _ = await run(
            port: emulator.port, requests: load, seconds: min(0.3, plan.throughputSeconds))
        }
        var rate: [Double] = []
        var p50: [Double] = []
        var p99: [Double] = []
        for _ in 0..<plan.runs {
          let result = await run(
            port: emulator.port, requests: load, seconds: plan.throughputSeconds)
          if let error = result.error { throw BenchFailure(error) }
          failures += result.failures
          let latencies = result.latencies.sorted()
          rate.append(Double(latencies.count) / result.seconds)
          p50.append(BenchStatistics.percentile(50, ofSorted: latencies))
          p99.append(BenchStatistics.percentile(99, ofSorted: latencies))
        }
        let label = clients == 1 ? "1 client" : "\(clients) clients"
        let rateRow = BenchRow("\(label): sign-ins/s", unit: .perSecond, samples: rate)
        group.rows += [
          rateRow,
          BenchRow("\(label): latency p50", unit: .seconds, samples: p50),
          BenchRow("\(label): latency p99", unit: .seconds, samples: p99),
        ]
        rates[clients] = rateRow.statistics?.median
      }
      if let one = plan.throughputClients.first {
        for clients in plan.throughputClients.dropFirst() {
          group.ratios.append(
            BenchRatio(
              name: "throughput \(clients) clients / \(one)", numerator: rates[clients],
              denominator: rates[one]))
        }
      }
      group.checks.append(
        BenchCheck(name: "non-200 responses", observed: "\(failures)", passed: failures == 0))
      group.notes = [
        "password hash: PBKDF2-HMAC-SHA256, cost \(hashCost.formatted()) (UserStore default, "
          + "as `baas emulator`); each sign-in also writes a refresh token to SQLite (:memory:)",
        String(
          format: "%.1f s per run; one keep-alive connection and one account per client; %d CPUs",
          plan.throughputSeconds, ProcessInfo.processInfo.activeProcessorCount),
      ]
    } catch {
      group.error = "\(error)"
    }
    await emulator.shutDown()
    return group
  }

  /// What one timed run produced.
  struct LoadResult: Sendable {
    /// Seconds from the start signal until the last client finished.
    var seconds: Double
    /// Every request's latency in seconds.
    var latencies: [Double]
    /// Responses that were not 200.
    var failures: Int
    /// The first client error (connect, send, read), if any.
    var error: String?
  }

  /// One run: `requests.count` clients, client `i` sending `requests[i]` back to back for
  /// `seconds`, on dedicated threads.
  static func run(port: Int, requests: [[UInt8]], seconds: Double) async -> LoadResult {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(
          returning: runBlocking(port: port, requests: requests, seconds: seconds))
      }
      thread.start()
    }
  }

  private final class Shared: Sendable {
    let start = Atomic<UInt64>(0)
    let results = LockedValue<LoadResult>(LoadResult(seconds: 0, latencies: [], failures: 0))
  }

  private static func runBlocking(port: Int, requests: [[UInt8]], seconds: Double) -> LoadResult {
    let shared = Shared()
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    let duration = UInt64(seconds * 1e9)
    for request in requests {
      done.enter()
      let thread = Thread {
        defer { done.leave() }
        let connection = Result { try LoopbackHTTPClient(port: port) }
        ready.signal()
        go.wait()
        var latencies: [Double] = []
        var failures = 0
        var error: String?
        do {
          let client = try connection.get()
          let deadline = shared.start.load(ordering: .acquiring) + duration
          while BenchClock.now() < deadline {
            let begin = BenchClock.now()
            let status = try client.exchange(request)
            latencies.append(BenchClock.seconds(since: begin))
            if status != 200 { failures += 1 }
          }
        } catch let failure {
          error = "\(failure)"
        }
        shared.results.withLock { result in
          result.latencies += latencies
          result.failures += failures
          if result.error == nil { result.error = error }
        }
      }
      thread.start()
    }
    for _ in requests { ready.wait() }
    let start = BenchClock.now()
    shared.start.store(start, ordering: .releasing)
    for _ in requests { go.signal() }
    done.wait()
    let elapsed = BenchClock.seconds(since: start)
    return shared.results.withLock { result in
      var copy = result
      copy.seconds = elapsed
      return copy
    }
  }
}
