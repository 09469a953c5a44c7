import BackendHTTP
import Foundation
import HTTPReplay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// 2. Replay matching cost per request in cassettes of 1,000, 10,000 and 100,000 entries.
///
/// Per size, one in-memory cassette of distinct Firebase-style `accounts:lookup`
/// interactions (built like ``HTTPReplay/ReplayBenchmark`` does, through the public HAR
/// types) and a ``HTTPReplay/ReplayTransport`` over it (its construction is the set-up
/// row; small cassettes get a fresh one per run). Each run replays unused requests spread
/// evenly over the whole cassette, through `send` (redaction, canonical key, lookup, first-in-first-out
/// consumption). Requests are built before the timed loop. Both wall time and the
/// thread's CPU time are recorded per run; the target (largest / smallest size ≤ 1.5)
/// applies to wall time, the CPU-time ratio is shown beside it because it is immune to
/// preemption by other processes on a shared machine.
enum ReplayMatchingBench {
  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(id: "replayMatching", title: "2. Replay matching: cost per request")
    do {
      var wallMedians: [Int: Double] = [:]
      var cpuMedians: [Int: Double] = [:]
      for size in plan.replaySizes {
        let batch = min(plan.replayBatch, size)
        // A large cassette serves every run from one transport (each run uses other
        // entries); a small one gets a fresh transport per run (cheap to build).
        let shared = size >= batch * (plan.warmUp + plan.runs)
        let live = (0..<size).map(request(number:))
        let cassette = makeCassette(live)
        let setUpStart = BenchClock.now()
        var transport = ReplayTransport(cassette: cassette)
        let setUp = BenchClock.seconds(since: setUpStart)
        let stride = size / batch
        var wall: [Double] = []
        var cpu: [Double] = []
        for run in 0..<(plan.warmUp + plan.runs) {
          // Run `run` uses entries o, stride + o, 2 * stride + o, … (never reused).
          if !shared && run > 0 { transport = ReplayTransport(cassette: cassette) }
          let offset = shared ? run : 0
          let requests = (0..<batch).map { live[$0 * stride + offset] }
          let cpuStart = threadCPUSeconds()
          let wallStart = BenchClock.now()
          for request in requests { _ = try await transport.send(request) }
          let wallSeconds = BenchClock.seconds(since: wallStart)
          let cpuSeconds = threadCPUSeconds() - cpuStart
          guard run >= plan.warmUp else { continue }
          wall.append(wallSeconds / Double(batch))
          cpu.append(cpuSeconds / Double(batch))
        }
        let label = "\(size.formatted()) entries"
        let wallRow = BenchRow("\(label): per request (wall)", unit: .seconds, samples: wall)
        let cpuRow = BenchRow("\(label): per request (thread CPU)", unit: .seconds, samples: cpu)
        group.rows += [
          wallRow, cpuRow,
          BenchRow("\(label): transport set-up (once)", unit: .seconds, samples: [setUp]),
        ]
        wallMedians[size] = wallRow.statistics?.median
        cpuMedians[size] = cpuRow.statistics?.median
      }
      if let small = plan.replaySizes.min(), let large = plan.replaySizes.max(), small != large {
        for size in plan.replaySizes where size != small {
          let name = "per request, \(size.formatted()) / \(small.formatted()) entries"
          group.ratios.append(
            BenchRatio(
              name: name + " (wall)", numerator: wallMedians[size],
              denominator: wallMedians[small], target: size == large ? 1.5 : nil))
          group.ratios.append(
            BenchRatio(
              name: name + " (CPU)", numerator: cpuMedians[size], denominator: cpuMedians[small]))
        }
      }
      group.notes = [
        "min(\(plan.replayBatch.formatted()), size) unused requests per run, spread over the "
          + "cassette; cassettes built in memory (no file I/O)"
      ]
    } catch {
      group.error = "\(error)"
    }
    return group
  }

  /// A Firebase `accounts:lookup` request whose body differs per `number` (already in the
  /// cassette's redacted form, so replay leaves it unchanged).
  static func request(number: Int) -> HTTPRequest {
    HTTPRequest(
      method: .post,
      url: URL(
        string:
          "https://identitytoolkit.googleapis.com/v1/accounts:lookup?key=%3CFIREBASE_API_KEY_1%3E"
      ) ?? URL(fileURLWithPath: "/"),
      headerFields: ["Content-Type": "application/json"],
      body: Data(#"{"idToken":"<FIREBASE_ID_TOKEN_\#(number + 1)>","n":\#(number)}"#.utf8))
  }

  /// A cassette answering each of `requests` once, in order.
  static func makeCassette(_ requests: [HTTPRequest]) -> Cassette {
    let clock = Date(timeIntervalSince1970: 1_767_225_600)
    let entries = requests.enumerated().map { index, request in
      HAREntry(
        Interaction(
          request: request,
          response: HTTPResponse(
            status: 200, headerFields: ["Content-Type": "application/json"],
            body: Data(#"{"kind":"lookup","users":[{"localId":"user-\#(index)"}]}"#.utf8))),
        startedAt: clock, order: index)
    }
    return Cassette(
      metadata: ReplayMetadata(
        backend: "firebase", contract: "bench", clock: clock, seed: 0, rules: .firebase,
        provenance: Provenance(kind: .documented, recordedAt: clock)),
      entries: entries)
  }

  /// CPU time consumed by the calling thread, in seconds.
  static func threadCPUSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
