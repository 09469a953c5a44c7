import BackendEmulator
import BackendHTTP
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import UserBackendKit

/// 9. Peers: one password sign-in per call through our adapters and through the vendors'
/// Python clients (`pyrebase4`, the `NCMB` SDK) against one loopback emulator at PBKDF2
/// cost 1, with raw keep-alive requests from Swift (``LoopbackHTTPClient``) and Python
/// (`http.client`) as floors. Target: ours / each peer < 1.0.
///
/// The Python clients run in one long-lived child (``PeerDriver``), timed inside Python;
/// ours are timed with `ContinuousClock`. Variants run interleaved call by call. Skipped,
/// with the reason, when no Python with both packages is found: `BAAS_PEERS_PYTHON`, else
/// `.build/peers-venv/bin/python` (made by `scripts/peers-venv`).
enum PeersBench {
  /// The emulator's PBKDF2 rounds for this group.
  static let hashCost = 1
  /// The benchmark account's password (in-process and in the child only, never printed).
  static let password = "bench-password-1"
  /// The environment variable naming the Python to use.
  static let pythonVariable = "BAAS_PEERS_PYTHON"
  /// The default Python, relative to the working directory.
  static let defaultPython = ".build/peers-venv/bin/python"

  /// The variants in the order they run each round.
  static let names = [
    "Firebase sign-in via FirebaseUserBackend (Swift)",
    "Firebase sign-in via pyrebase4 (Python)",
    "NCMB sign-in via NCMBUserBackend (Swift)",
    "NCMB sign-in via the NCMB SDK (Python)",
    "floor: raw keep-alive POST, Swift (LoopbackHTTPClient)",
    "floor: raw keep-alive POST, Python (http.client)",
  ]

  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(
      id: "peers", title: "9. Peers: one sign-in per call, ours vs. the vendors' Python clients")
    let environment = ProcessInfo.processInfo.environment
    let python = environment[pythonVariable].flatMap { $0.isEmpty ? nil : $0 } ?? defaultPython
    guard FileManager.default.isExecutableFile(atPath: python) else {
      group.skipped =
        "no Python at \(python) (set \(pythonVariable), or run scripts/peers-venv to make "
        + defaultPython + ")"
      return group
    }
    let script = FileManager.default.temporaryDirectory
      .appendingPathComponent("baas-bench-peers-\(UUID().uuidString).py")
    defer { try? FileManager.default.removeItem(at: script) }
    let child: PeerProcess
    do {
      try Data(PeerDriver.script.utf8).write(to: script)
      child = try PeerProcess(executable: python, arguments: ["-u", script.path])
    } catch {
      group.skipped = "\(error)"
      return group
    }
    defer { child.stop() }
    let hello = await child.nextLine()
    guard hello == "ready" else {
      group.skipped =
        "\(python): \(hello ?? "the driver exited") (run scripts/peers-venv, or set "
        + "\(pythonVariable) to a Python with pyrebase4 and NCMB)"
      return group
    }
    let emulator: BenchEmulator
    do {
      emulator = try BenchEmulator.start(hashCost: hashCost)
    } catch {
      group.error = "emulator: \(error)"
      return group
    }
    do {
      try await measure(plan, emulator, child, &group)
    } catch {
      group.error = "\(error)"
    }
    await emulator.shutDown()
    return group
  }

  private static func measure(
    _ plan: BenchPlan, _ emulator: BenchEmulator, _ child: PeerProcess, _ group: inout BenchGroup
  ) async throws {
    let email = "peers@bench.invalid"
    let userName = "peers-bench"
    let firebase = try FirebaseUserBackend(
      configuration: FirebaseConfiguration(
        apiKey: BenchEmulator.firebaseAPIKey, projectID: "demo-project",
        emulatorHost: emulator.hostAndPort),
      transport: NetworkTransport.standard(), sessionStore: InMemorySessionStore())
    let ncmb = try NCMBUserBackend(
      configuration: NCMBConfiguration(
        applicationKey: NCMBDemoKeys.applicationKey, clientKey: NCMBDemoKeys.clientKey,
        baseURL: emulator.baseURL),
      transport: NetworkTransport.standard(), sessionStore: InMemorySessionStore())
    let firebaseCredential = PasswordCredential.email(email, password: password)
    let ncmbCredential = PasswordCredential.username(userName, password: password)
    _ = try await firebase.signUp(firebaseCredential)
    _ = try await ncmb.signUp(ncmbCredential)

    let setup: [String: Any] = [
      "port": emulator.port, "apiKey": BenchEmulator.firebaseAPIKey,
      "applicationKey": NCMBDemoKeys.applicationKey, "clientKey": NCMBDemoKeys.clientKey,
      "email": email, "userName": userName, "password": password,
    ]
    let setupLine = String(
      decoding: try JSONSerialization.data(withJSONObject: setup), as: UTF8.self)
    try child.send(setupLine)
    guard let ok = await child.nextLine(), ok == "ok" else {
      throw BenchFailure("the Python driver's set-up failed")
    }
    let body = try JSONSerialization.data(
      withJSONObject: ["email": email, "password": password, "returnSecureToken": true])
    let raw = RawLoop(
      port: emulator.port,
      request: LoopbackHTTPClient.postJSON(
        port: emulator.port,
        target: "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key="
          + BenchEmulator.firebaseAPIKey, body: body))

    let clock = ContinuousClock()
    func swift(_ body: () async throws -> Void) async throws -> Double {
      let elapsed = try await clock.measure { try await body() }
      return Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)
    }
    func python(_ variant: String) async throws -> Double {
      try child.send(variant)
      guard let line = await child.nextLine() else {
        throw BenchFailure("the Python driver exited during \(variant)")
      }
      guard let nanoseconds = Double(line) else {
        throw BenchFailure("Python \(variant): \(line)")
      }
      return nanoseconds / 1e9
    }
    let batch = plan.adapterBatch
    var samples: [[Double]] = Array(repeating: [], count: names.count)
    for run in 0..<(plan.warmUp + plan.runs) {
      var totals = Array(repeating: 0.0, count: names.count)
      for _ in 0..<batch {
        totals[0] += try await swift { _ = try await firebase.signIn(firebaseCredential) }
        totals[1] += try await python("pyrebase")
        totals[2] += try await swift { _ = try await ncmb.signIn(ncmbCredential) }
        totals[3] += try await python("ncmb")
        totals[4] += try await raw.exchange()
        totals[5] += try await python("raw")
      }
      guard run >= plan.warmUp else { continue }
      for index in names.indices { samples[index].append(totals[index] / Double(batch)) }
    }
    let rows = names.indices.map { BenchRow(names[$0], unit: .seconds, samples: samples[$0]) }
    group.rows = rows
    // Each run times every variant interleaved, so each run's ratio is paired (see
    // ``BenchRatio/init(name:pairedNumerators:denominators:target:)``).
    let paired = { (name: String, numerator: Int, denominator: Int, target: Double?) in
      BenchRatio(
        name: name, pairedNumerators: samples[numerator], denominators: samples[denominator],
        target: target)
    }
    group.ratios = [
      paired("Firebase: ours / pyrebase4", 0, 1, 1.0),
      paired("NCMB: ours / NCMB SDK", 2, 3, 1.0),
      paired("floor: Swift raw / Python raw", 4, 5, nil),
      paired("Firebase: ours / Swift raw", 0, 4, nil),
    ]
    group.notes = [
      "emulator on 127.0.0.1:\(emulator.port), PBKDF2 cost \(hashCost) (server work kept small "
        + "so client differences show); target below 1.0 (shown as ≤ 1.00)",
      "\(batch) sign-ins per variant and run, interleaved call by call; Python timed inside "
        + "Python (time.perf_counter_ns) in one long-lived child, Swift with ContinuousClock",
      "our adapters over NetworkTransport.standard() (keep-alive); pyrebase4 posts with requests.post "
        + "(a new connection per call, as it signs in); the NCMB SDK opens one urllib "
        + "connection per call; both pointed at the emulator by changing only the origin",
      "ratios: the median of the per-run ratios (all variants timed in the same runs)",
    ]
  }
}

/// ``LoopbackHTTPClient`` on a dispatch queue (blocking socket calls never run on the
/// cooperative pool); each exchange is timed on that queue.
private final class RawLoop: Sendable {
  private let queue = DispatchQueue(label: "baas.bench.peers.raw")
  private let port: Int
  private let request: [UInt8]
  private let client = LockedValue<LoopbackHTTPClient?>(nil)

  init(port: Int, request: [UInt8]) {
    self.port = port
    self.request = request
  }

  /// One keep-alive exchange; its seconds.
  func exchange() async throws -> Double {
    try await withCheckedThrowingContinuation { continuation in
      queue.async {
        continuation.resume(
          with: Result {
            try self.client.withLock { client in
              if client == nil { client = try LoopbackHTTPClient(port: self.port) }
              let start = ContinuousClock.now
              let status = try client!.exchange(self.request)
              let elapsed = ContinuousClock.now - start
              guard status == 200 else { throw BenchFailure("raw sign-in got HTTP \(status)") }
              return Double(elapsed.components.attoseconds) / 1e18
                + Double(elapsed.components.seconds)
            }
          })
      }
    }
  }
}
